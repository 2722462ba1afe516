import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request } from 'node:http';
import { launchSpawned, type LiveCli } from '../helpers/spawn.js';
import { expect, test } from '../helpers/test.js';
import { answerImage, answerJson } from './client.js';

// `phonewright mcp --port N`: Streamable HTTP on 127.0.0.1 behind the printed URL's token, as inspect and review are.

let live: LiveCli | undefined;
test.afterEach(async () => {
  live?.interrupt();
  await live?.exited;
  live = undefined;
});

test('over HTTP with the printed URL\'s token an agent sees and taps the phones; without it, or for another host, nothing', async () => {
  live = launchSpawned(['mcp', '--port', '0']);
  const printed = await live.waitFor('stdout', /MCP: (http:\S+)\n/);
  const url = new URL(printed.match(/MCP: (http:\S+)\n/)![1]!);
  expect(`${url.origin}${url.pathname}`).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  const client = new Client({ name: 'phonewright-tests', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(answerJson<{ phones: unknown[] }>(await call('phones')).phones).toHaveLength(4);
    expect(answerImage(await call('screen', { phone: 'moto-g5' })).width).toBe(1280);
    await call('launch', { app: 'com.example.app', screen: false });
    await call('tap', { locator: { text: 'Sign in', exact: true }, screen: false });
    expect(answerJson(await call('find', { locator: { text: 'Signed in' } }))).toMatchObject({ count: 1 });
  } finally {
    await client.close();
  }

  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
  const post = (path: string, host = url.host) => send(url.port, path, host, initialize);
  expect((await post(url.pathname + url.search)).status).toBe(200);
  expect(await post(url.pathname)).toMatchObject({ status: 401, body: expect.stringContaining('needs the token') });
  expect(await post(url.pathname + '?token=wrong')).toMatchObject({ status: 401 });
  expect(await post(url.pathname + url.search, `evil.example:${url.port}`)).toMatchObject({ status: 403 });
});

function send(port: string, path: string, host: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
