import { DeviceClient } from '../../src/client/index.js';
import { Lab } from '../../src/agents/lab.js';
import { callTool } from '../../src/agents/server.js';
import type { Tool } from '../../src/agents/tool.js';
import { expect, test } from '../helpers/test.js';

// One call of a tool, in process: work that outlives its deadline is cut with the call's own error, and the log
// line of a call is written once its answer is out.

function lab(lines: string[]): Lab {
  const client = new DeviceClient({ url: 'http://127.0.0.1:9', user: 'u', password: 'p' });
  return new Lab({ client, named: [], embedded: false, server: { devices: undefined, name: 'env', othersNames: new Set() }, leases: undefined, cwd: process.cwd(), timeoutMs: 5000, env: {}, connectionArgs: {}, clean: (t) => t, log: (line) => lines.push(line) });
}

const HANGS: Tool = { name: 'hangs', description: 'Never answers, whatever its deadline says.', input: { type: 'object', properties: { timeout: { type: 'integer' } } }, run: () => new Promise(() => {}) };
const ANSWERS: Tool = { name: 'answers', description: 'Answers at once.', input: { type: 'object', properties: {} }, run: async () => [{ type: 'text', text: '{"ok":true}' }] };

test('work that outlives its deadline is cut: one tool error naming the call\'s timeout', async () => {
  const lines: string[] = [];
  const result = await callTool(lab(lines), HANGS, { timeout: 50 });
  expect(result).toEqual({ isError: true, content: [{ type: 'text', text: "phonewright: hangs: the call's timeout (50 ms): no answer before the deadline" }] });
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines).toEqual([expect.stringMatching(/^mcp: hangs failed in \d+ ms: hangs: the call's timeout \(50 ms\)/)]);
});

test('the log line of a call comes after its answer, and says it answered', async () => {
  const lines: string[] = [];
  const result = await callTool(lab(lines), ANSWERS, {});
  expect(result).toEqual({ content: [{ type: 'text', text: '{"ok":true}' }] });
  expect(lines).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines).toEqual([expect.stringMatching(/^mcp: answers answered in \d+ ms$/)]);
});
