// Retries: which failures are tried again (idempotent reads; uploads only when the connection was refused),
// how many times, with what backoff, and what the caller sees when the retries run out.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { closedPort, freePort, inOrder, VENDOR_MAIN_DEVICE, type FakeReply } from '../helpers/fake-server.js';
import { ServiceError, TimeoutError } from '../../src/core/errors.js';
import { Deadline, pause } from '../../src/client/deadline.js';
import { waitForTurn, withRetries } from '../../src/client/resilience.js';
import { expect, failure, test, timed } from './harness.js';

const PIXEL = { r: 37, g: 66, b: 92, rgb: '0x25425c' };

interface Transient {
  name: string;
  reply: FakeReply;
  /** The error once the retries are used up. */
  code: string;
  says: RegExp;
}

const TRANSIENT: Transient[] = [
  { name: 'connection reset (ECONNRESET)', reply: 'reset', code: 'PW_UNREACHABLE', says: /cannot reach the server \(ECONNRESET\)/ },
  { name: 'connection closed without an answer', reply: 'close', code: 'PW_UNREACHABLE', says: /cannot reach the server/ },
  { name: 'body cut off by a reset', reply: { body: '{"status": true, "value": {"r": 37}}', partial: { bytes: 10, then: 'reset' } }, code: 'PW_UNREACHABLE', says: /cannot reach the server/ },
  ...[429, 500, 502, 503, 504].map((status) => ({
    name: `HTTP ${status}`,
    reply: { status, body: '{"status": null, "value": "busy"}' },
    code: 'PW_SERVICE',
    says: new RegExp(`HTTP ${status}.*try: the server is overloaded`),
  })),
  { name: 'an HTML page with HTTP 200', reply: { body: '<html>Gateway</html>' }, code: 'PW_PROTOCOL', says: /not JSON/ },
  { name: 'truncated JSON', reply: { body: '{"status": true, "val' }, code: 'PW_PROTOCOL', says: /not JSON/ },
  { name: 'an empty body', reply: { body: '' }, code: 'PW_PROTOCOL', says: /not JSON.*empty body/ },
];

test.describe('idempotent reads retry transient failures', () => {
  for (const t of TRANSIENT) {
    test(`${t.name}: two failures, then success on the third attempt`, async ({ serve, connect }) => {
      const server = await serve();
      server.handle('pixel', inOrder(t.reply, t.reply));
      expect(await connect(server, { retries: 3 }).pixel(VENDOR_MAIN_DEVICE, 1, 1)).toEqual(PIXEL);
      expect(server.count('pixel')).toBe(3);
      expect(server.count('login')).toBe(1);
    });

    test(`${t.name}: always → ${t.code} after 1 + retries attempts`, async ({ serve, connect }) => {
      const server = await serve();
      server.handle('settings', t.reply);
      const error = await failure(() => connect(server, { retries: 2 }).settings(VENDOR_MAIN_DEVICE));
      expect(error.code).toBe(t.code);
      expect(error.message).toMatch(t.says);
      expect(error.message).toMatch(/after 3 attempts in \d+ ms/);
      expect(server.count('settings')).toBe(3);
    });
  }
});

for (const status of [400, 403, 404, 405, 409, 422]) {
  test(`HTTP ${status} is not retried → protocol error`, async ({ serve, connect }) => {
    const server = await serve();
    server.handle('notifications', { status, body: '{"status": null, "value": "no"}' });
    const error = await failure(() => connect(server, { retries: 3 }).notifications({ position: 1, count: 1 }));
    expect(error.code).toBe('PW_PROTOCOL');
    expect(error.message).toContain(`HTTP ${status}`);
    expect(server.count('notifications')).toBe(1);
  });
}

test('a closed port → UnreachableError after the retries, naming the URL', async ({ connect, calls }) => {
  const port = await closedPort();
  const { ms, error } = await timed(() => connect(`http://127.0.0.1:${port}`, { retries: 2 }).mainDevice());
  expect(error?.code).toBe('PW_UNREACHABLE');
  expect(error?.message).toContain(`ECONNREFUSED): GET http://127.0.0.1:${port}/TotalControl/v1/login`);
  expect(error?.message).toMatch(/after 3 attempts.*try: is the server running/);
  expect(calls.filter((c) => c.operation === 'login')).toHaveLength(3);
  expect(ms).toBeLessThan(2_000);
});

test('a server not yet listening: refused connections are retried until it comes up', async ({ serve, connect }) => {
  const port = await freePort();
  let firstRefusal!: () => void;
  const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
  const client = connect(`http://127.0.0.1:${port}`, { retries: 30, onCall: (e) => e.error && firstRefusal() });
  const result = client.pixel(VENDOR_MAIN_DEVICE, 2, 3);
  await refused;
  const server = await serve({ port });
  expect(await result).toEqual(PIXEL);
  expect(server.requests.map((r) => r.op)).toEqual(['login', 'pixel']);
});

test('backoff doubles but is capped at backoffMax', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', { status: 503 });
  // Uncapped, six retries from 40 ms would wait at least 20+40+80+160+320+640 = 1,260 ms (half-jittered).
  const { ms, error } = await timed(() => connect(server, { retries: 6, backoffBase: 40, backoffMax: 40, totalTimeout: 20_000 }).pixel(VENDOR_MAIN_DEVICE, 1, 1));
  expect(error?.code).toBe('PW_SERVICE');
  expect(server.count('pixel')).toBe(7);
  expect(ms).toBeGreaterThanOrEqual(6 * 20);
  expect(ms).toBeLessThan(1_000);
});

test('Retry-After is honoured up to backoffMax', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', inOrder({ status: 429, headers: { 'retry-after': '3600' }, body: '' }));
  const { ms, error } = await timed(() => connect(server).pixel(VENDOR_MAIN_DEVICE, 1, 1));
  expect(error).toBeUndefined();
  expect(server.count('pixel')).toBe(2);
  expect(ms).toBeLessThan(1_000);
});

test.describe('uploads', () => {
  test.beforeEach(async ({}, testInfo) => {
    await writeFile(testInfo.outputPath('big.bin'), randomBytes(4 * 1024 * 1024));
  });

  test('a reset after bytes were sent is not retried: one upload request, the error surfaces', async ({ serve, connect }, testInfo) => {
    const server = await serve();
    server.handle('upload', async (req) => {
      await req.received(256 * 1024);
      return 'reset' as const;
    });
    const error = await failure(() => connect(server, { retries: 3 }).upload(testInfo.outputPath('big.bin'), 'apk'));
    expect(error.code).toBe('PW_UNREACHABLE');
    expect(error.message).toMatch(/^upload: /);
    expect(server.count('upload')).toBe(1);
    expect(server.uploads).toHaveLength(0);
  });

  for (const reply of [{ status: 503 }, { status: 502, body: '<html>bad gateway</html>' }, 'close'] as FakeReply[]) {
    test(`an answer ${JSON.stringify(reply)} after the whole body is not retried`, async ({ serve, connect }, testInfo) => {
      const server = await serve();
      server.handle('upload', async (req) => (await req.body(), reply));
      const error = await failure(() => connect(server, { retries: 3 }).upload(testInfo.outputPath('big.bin'), 'image'));
      expect(['PW_SERVICE', 'PW_UNREACHABLE']).toContain(error.code);
      expect(server.count('upload')).toBe(1);
    });
  }

  test('a refused connection is retried: nothing was sent', async ({ serve, connect }, testInfo) => {
    const first = await serve();
    let firstRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
    const client = connect(first, { retries: 30, onCall: (e) => e.operation === 'upload' && e.error?.includes('ECONNREFUSED') && firstRefusal() });
    await client.login();
    await first.close();
    const result = client.upload(testInfo.outputPath('big.bin'), 'script');
    await refused;
    // The server comes back (a restart: it has forgotten the token, so the client also logs in again).
    const second = await serve({ port: first.port });
    expect((await result).fileUrl).toMatch(new RegExp(`^${second.url}/TotalControl/v1/storage/js/\\d{13}\\.bin$`));
    expect(second.uploads).toHaveLength(1);
    expect(second.uploads[0]!.size).toBe(4 * 1024 * 1024);
  });
});

test('the deadline cutting an attempt short ends the call with what the attempts before it were told', async () => {
  // A phone that answered "device not found" twice, then the deadline came during the third attempt.
  const deadline = Deadline.in(10_000);
  let n = 0;
  const error = await withRetries({ operation: 'pixel', idempotent: true, deadline }, { phoneReconnectMs: 10_000 }, async () => {
    if (++n < 3) throw new ServiceError('pixel', `device@1 is unknown to the server or offline ("device not found") #${n}`, { reason: 'phone-missing' });
    throw new TimeoutError('pixel: no answer before the deadline', { reason: 'deadline' });
  }).catch((e: unknown) => e as Error);
  deadline.dispose();
  expect(error).toBeInstanceOf(ServiceError);
  expect(error.message).toMatch(/^device@1 is unknown to the server or offline \("device not found"\) #2 \(after 3 attempts in \d+ ms\)$/);
  // With nothing said before it, the deadline is what the call ends with.
  const alone = await withRetries({ operation: 'pixel', idempotent: true, deadline: Deadline.in(1_000) }, {}, async () => {
    throw new TimeoutError('pixel: no answer before the deadline', { reason: 'deadline' });
  }).catch((e: unknown) => e as Error);
  expect(alone.message).toBe('pixel: no answer before the deadline');
});

test('a wait for what another run holds: tried after each pause, once more when the deadline comes, its errors final', async () => {
  // Taken at the third try.
  let tries = 0;
  expect(await waitForTurn(async () => (++tries === 3 ? 'taken' : undefined), { deadline: Deadline.budget(10_000), pauseMs: () => 10 })).toBe('taken');
  expect(tries).toBe(3);
  // Never let go: the last try is made once the deadline has come, then the wait ends with nothing.
  const deadline = Deadline.budget(250);
  const at: number[] = [];
  expect(await waitForTurn(async () => void at.push(performance.now()), { deadline, pauseMs: () => 100 })).toBeUndefined();
  expect(at.length).toBeGreaterThanOrEqual(2);
  expect(at.at(-1)!).toBeGreaterThanOrEqual(deadline.at);
  // A holder that says it let go (a watched folder) ends the pause early: a minute's pause is not sat out.
  tries = 0;
  const woken = await waitForTurn(async () => (++tries === 3 ? 'taken' : undefined), { deadline: Deadline.budget(120_000), pauseMs: () => 60_000, woken: () => Promise.resolve() });
  expect(woken).toBe('taken');
  // A try that fails ends the wait with its error.
  await expect(waitForTurn(() => Promise.reject(new Error('EACCES')), { deadline: Deadline.budget(10_000), pauseMs: () => 10 })).rejects.toThrow('EACCES');
});

test('a pause never ends before its moment: busy work before it makes Node\'s timer fire early, and it waits on', async () => {
  // Node's timers count whole milliseconds of a clock read at the loop's turn: after a millisecond or two of work
  // in the same turn, a 3 ms timer fires early by performance.now() about one time in twenty.
  const early: number[] = [];
  for (let i = 0; i < 100; i++) {
    const busy = performance.now() + (i % 5) * 0.5;
    while (performance.now() < busy);
    const deadline = Deadline.budget(i % 2 ? 3 : 1_000);
    const start = performance.now();
    const whole = await pause(3, deadline);
    // Cut by the deadline, the pause ends with it passed: a last try then sees the deadline come.
    if (!deadline.passed && !whole) early.push(i);
    // Its moment: 3 ms after the call, or the deadline's own when that comes first (a 3 ms budget, made just before).
    if (performance.now() < Math.min(start + 3, deadline.at)) early.push(i);
  }
  expect(early).toEqual([]);
});

test('a client closed before its first call sends nothing: the call fails as a call after any close does', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  await client.close();
  const error = await failure(() => client.login());
  expect(error.code).toBe('PW_UNREACHABLE');
  expect(error.message).toBe(`login: The client is destroyed: GET ${server.url}/TotalControl/v1/login`);
  expect(server.count('login')).toBe(0);
});
