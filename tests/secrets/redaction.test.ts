// No secret — token, password, the base64 Authorization value — in any error or any onCall description,
// whatever the failure, even when the server echoes the secrets back in its answer.
import { inspect } from 'node:util';
import type { DeviceClient } from '../../src/client/client.js';
import type { CallEvent } from '../../src/client/transport.js';
import { closedPort, inOrder, VENDOR_MAIN_DEVICE, type FakeReply, type FakeRequest, type FakeServerOptions } from '../helpers/fake-server.js';
import { expect, test } from '../client/harness.js';

const USER = 'qa';
/** Characters that URL encoding changes, so both forms must be scrubbed. */
const PASSWORD = 'S3cret pass/+=&word';
const AUTHORIZATION = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

/** Echoes every secret the request carries, raw and URL-encoded. */
const echoed = (req: FakeRequest) => {
  const secrets = [req.token ?? '', req.headers.authorization ?? '', PASSWORD];
  return [...secrets, ...secrets.map(encodeURIComponent)].join(' | ');
};
const say = (status: number | undefined, make: (said: string) => string) => (req: FakeRequest): FakeReply => ({ status, body: make(echoed(req)) });

interface Case {
  name: string;
  server?: FakeServerOptions;
  script?: { op: 'login' | 'pixel' | 'settings' | 'upload' | 'notifications'; reply: (req: FakeRequest) => FakeReply | Promise<FakeReply> };
  url?: () => Promise<string>;
  call: (c: DeviceClient, signal: AbortSignal) => Promise<unknown>;
  options?: Record<string, number>;
  code: string;
}

const pixel = (c: DeviceClient, signal: AbortSignal) => c.pixel(VENDOR_MAIN_DEVICE, 1, 1, { signal });

const CASES: Case[] = [
  ...(['false', 'null', 401] as const).map((rejectLogin) => ({ name: `wrong credentials (${rejectLogin})`, server: { rejectLogin }, call: pixel, code: 'PW_AUTH' })),
  { name: 'login refused with the header echoed', script: { op: 'login', reply: say(200, (s) => JSON.stringify({ status: null, value: `bad header ${s}` })) }, call: pixel, code: 'PW_AUTH' },
  { name: 'login answer without value.token, echoing', script: { op: 'login', reply: say(200, (s) => JSON.stringify({ status: true, value: { tok: s } })) }, call: pixel, code: 'PW_PROTOCOL' },
  ...(['null', 'false', 401] as const).map((rejectToken) => ({ name: `fresh tokens refused (${rejectToken})`, server: { rejectToken, tokenUses: 0 }, call: pixel, code: 'PW_AUTH' })),
  { name: 'a failure message echoing the secrets', script: { op: 'settings', reply: say(200, (s) => JSON.stringify({ status: null, value: `phone offline ${s}` })) }, call: (c, signal) => c.settings(VENDOR_MAIN_DEVICE, { signal }), code: 'PW_SERVICE' },
  { name: 'an envelope without status, echoing', script: { op: 'pixel', reply: say(200, (s) => JSON.stringify({ value: s })) }, call: pixel, code: 'PW_PROTOCOL' },
  { name: 'HTTP 500 echoing', script: { op: 'pixel', reply: say(500, (s) => `<pre>${s}</pre>`) }, call: pixel, code: 'PW_SERVICE' },
  { name: 'HTTP 400 echoing', script: { op: 'notifications', reply: say(400, (s) => s) }, call: (c, signal) => c.notifications({ position: 1, count: 5 }, { signal }), code: 'PW_PROTOCOL' },
  { name: 'HTML with HTTP 200 echoing', script: { op: 'pixel', reply: say(200, (s) => `<html>${s}</html>`) }, call: pixel, code: 'PW_PROTOCOL' },
  { name: 'a huge body echoing', script: { op: 'pixel', reply: say(200, (s) => `x${`${s} `.repeat(50_000)}`) }, call: pixel, code: 'PW_PROTOCOL' },
  { name: 'connection reset', script: { op: 'pixel', reply: () => 'reset' }, call: pixel, code: 'PW_UNREACHABLE' },
  { name: 'no answer in time', script: { op: 'pixel', reply: () => 'hang' }, call: pixel, options: { attemptTimeout: 100, retries: 0 }, code: 'PW_TIMEOUT' },
  { name: 'server unreachable', url: async () => `http://127.0.0.1:${await closedPort()}`, call: pixel, code: 'PW_UNREACHABLE' },
  { name: 'upload refused, echoing', script: { op: 'upload', reply: async (req) => (await req.body(), say(200, (s) => JSON.stringify({ status: null, value: s }))(req)) }, call: (c, signal) => c.upload(import.meta.filename, 'script', { signal }), code: 'PW_SERVICE' },
];

/** Everything of an error a user or a report could see: message, stack, causes, own properties. */
function visible(error: unknown, calls: CallEvent[]): string[] {
  const out = [inspect(error, { depth: 8 }), String(error)];
  for (let e: unknown = error; e instanceof Error; e = e.cause) out.push(e.message, e.stack ?? '');
  for (const c of calls) out.push(c.request, c.error ?? '');
  return out;
}

function expectNoSecret(texts: string[], tokens: string[]): void {
  const secrets = [PASSWORD, encodeURIComponent(PASSWORD), AUTHORIZATION, encodeURIComponent(AUTHORIZATION), ...tokens];
  for (const text of texts) {
    for (const secret of secrets) expect(text, `a secret in: ${text.slice(0, 300)}`).not.toContain(secret);
    // Not even a piece of a token (a cut excerpt must not leave one half-visible).
    for (const token of tokens) expect(text).not.toContain(token.slice(0, 8));
  }
}

for (const c of CASES) {
  test(`redacted: ${c.name}`, async ({ serve, connect, calls }) => {
    // Wrong credentials: the server expects another password; the client's is the secret to keep.
    const server = c.url ? undefined : await serve({ user: USER, password: c.server?.rejectLogin ? 'another one' : PASSWORD, ...c.server });
    if (server && c.script) server.handle(c.script.op, c.script.reply);
    const client = connect(c.url ? await c.url() : server!, { user: USER, password: PASSWORD, retries: 1, ...c.options });
    let error: unknown;
    await c.call(client, new AbortController().signal).catch((e: unknown) => (error = e));
    expect(error).toMatchObject({ code: c.code });
    expect(calls.length).toBeGreaterThan(0);
    expectNoSecret(visible(error, calls), server?.tokens ?? []);
    expectNoSecret([client.clean(echoed({ token: server?.tokens.at(-1), headers: { authorization: AUTHORIZATION } } as FakeRequest))], server?.tokens ?? []);
  });
}

test('redacted: a call aborted mid-way', async ({ serve, connect, calls }) => {
  const server = await serve({ user: USER, password: PASSWORD });
  server.handle('pixel', 'hang');
  const controller = new AbortController();
  const result = pixel(connect(server, { user: USER, password: PASSWORD }), controller.signal).catch((e: unknown) => e);
  await server.waitFor('pixel');
  controller.abort();
  const error = await result;
  expect(error).toMatchObject({ code: 'PW_ABORTED' });
  expectNoSecret(visible(error, calls), server.tokens);
});

test('redacted: the attempts before a renewal that succeeded', async ({ serve, connect, calls }) => {
  const server = await serve({ user: USER, password: PASSWORD, rejectToken: 401 });
  server.handle('pixel', inOrder(say(500, (s) => s)({ token: '270eq7lXQK8bXYsJ', headers: { authorization: AUTHORIZATION } } as FakeRequest)));
  const client = connect(server, { user: USER, password: PASSWORD });
  await client.login();
  server.expireTokens();
  await client.pixel(VENDOR_MAIN_DEVICE, 1, 1);
  expect(server.tokens).toHaveLength(2);
  expect(calls.map((c) => `${c.operation} ${c.status}`)).toEqual(['login 200', 'pixel 500', 'pixel 401', 'login 200', 'pixel 200']);
  for (const c of calls.filter((e) => e.operation !== 'login')) expect(c.request).toMatch(/\?token=\*\*\*&q=color/);
  expectNoSecret(calls.flatMap((c) => [c.request, c.error ?? '']), server.tokens);
});
