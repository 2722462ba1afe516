// Timeouts (per attempt, total) and AbortSignal: a slow or silent server costs a bounded, configured time.
import { VENDOR_MAIN_DEVICE } from '../helpers/fake-server.js';
import { expect, test, timed } from './harness.js';
import { Deadline } from '../../src/client/index.js';

const PIXEL = { r: 37, g: 66, b: 92, rgb: '0x25425c' };
/**
 * Slack on time bounds. Undici runs its headers and body timeouts on "fast timers" that tick every ~500 ms
 * (undici/lib/util/timers.js), so an attempt timeout fires up to ~1 s late; the bounds stay far below what
 * a missing timeout would take.
 */
const MARGIN = 1_200;

test('a slow answer within the attempt timeout succeeds', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', async (_req, next) => ({ ...((await next()) as object), delay: 100 }));
  expect(await connect(server, { attemptTimeout: 1_000 }).pixel(VENDOR_MAIN_DEVICE, 1, 1)).toEqual(PIXEL);
  expect(server.count('pixel')).toBe(1);
});

test('a server that never answers → TimeoutError after the attempt timeout', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', 'hang');
  const { ms, error } = await timed(() => connect(server, { attemptTimeout: 150, retries: 0 }).pixel(VENDOR_MAIN_DEVICE, 1, 1));
  expect(error?.code).toBe('PW_TIMEOUT');
  expect(error?.message).toMatch(/^pixel: no answer in time from GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/devices\/device@1116106541\/screen\/colors\?token=\*\*\*/);
  expect(ms).toBeGreaterThanOrEqual(140);
  expect(ms).toBeLessThan(150 + MARGIN);
});

test('timeouts are retried: every attempt gets its own timeout', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('settings', 'hang');
  const { ms, error } = await timed(() => connect(server, { attemptTimeout: 100, retries: 2 }).settings(VENDOR_MAIN_DEVICE));
  expect(error?.code).toBe('PW_TIMEOUT');
  expect(error?.message).toMatch(/after 3 attempts/);
  expect(server.count('settings')).toBe(3);
  expect(ms).toBeGreaterThanOrEqual(300);
});

test('a body that stalls half-way → TimeoutError', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('mainDevice', { body: '{"id": "device@1116106541"}', partial: { bytes: 8, then: 'hang' } });
  const { error } = await timed(() => connect(server, { attemptTimeout: 150, retries: 0 }).mainDevice());
  expect(error?.code).toBe('PW_TIMEOUT');
});

test('a login that never answers → TimeoutError', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('login', 'hang');
  const { error } = await timed(() => connect(server, { attemptTimeout: 100, retries: 1 }).pixel(VENDOR_MAIN_DEVICE, 1, 1));
  expect(error?.code).toBe('PW_TIMEOUT');
  expect(error?.message).toMatch(/^login: /);
  expect(server.count('login')).toBe(2);
});

test('the total timeout caps attempts and backoff together', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('pixel', 'hang');
  const totalTimeout = 600;
  const { ms, error } = await timed(() => connect(server, { attemptTimeout: 250, retries: 50, totalTimeout }).pixel(VENDOR_MAIN_DEVICE, 1, 1));
  expect(error?.code).toBe('PW_TIMEOUT');
  expect(ms).toBeLessThan(totalTimeout + MARGIN);
  expect(server.count('pixel')).toBeLessThanOrEqual(3);
});

test('no retry is started when its backoff would end past the total timeout', async ({ serve, connect }) => {
  const server = await serve();
  // Retry-After sets each pause to 1 s exactly (a jittered backoff would vary): the first answer comes at once,
  // the second attempt 1 s later, and the next pause would end at 2 s, past the 1.5 s timeout. Both ways have
  // 0.5 s to spare: the first answer may take that long before its pause no longer fits, and a third attempt
  // could not fit however fast the machine. (With pauses of 300 ms in 700 ms, a first answer 100 ms late on a
  // loaded machine left room for two attempts only.)
  server.handle('pixel', { status: 503, headers: { 'retry-after': '1' } });
  const totalTimeout = 1_500;
  const { ms, error } = await timed(() =>
    connect(server, { backoffBase: 1_000, backoffMax: 1_000, retries: 10, totalTimeout }).pixel(VENDOR_MAIN_DEVICE, 1, 1),
  );
  expect(error?.code).toBe('PW_SERVICE');
  expect(server.count('pixel')).toBe(2);
  // It gave up at once rather than waiting out the timeout in a pause it could not use.
  expect(ms).toBeLessThan(totalTimeout);
});

test.describe('AbortSignal', () => {
  // An abort while a request is on the wire: the call's own, or the login every call waits on.
  for (const { during, hangs, message, pixels } of [
    { during: 'mid-call', hangs: 'pixel', message: /^pixel aborted/, pixels: 1 },
    { during: 'while the shared login is under way', hangs: 'login', message: /^pixel: logging in: aborted/, pixels: 0 },
  ] as const) {
    test(`abort ${during} → AbortedError at once`, async ({ serve, connect }) => {
      const server = await serve();
      server.handle(hangs, 'hang');
      const controller = new AbortController();
      const call = timed(() => connect(server, { attemptTimeout: 10_000 }).pixel(VENDOR_MAIN_DEVICE, 1, 1, { signal: controller.signal }));
      await server.waitFor(hangs);
      // "At once" counts from the abort: the log-in and the request before it are this machine's time, not the abort's.
      const aborted = performance.now();
      controller.abort();
      const { error } = await call;
      const ms = performance.now() - aborted;
      expect(error?.code).toBe('PW_ABORTED');
      expect(error?.message).toMatch(message);
      expect(ms).toBeLessThan(300);
      expect(server.count('pixel')).toBe(pixels);
    });
  }

  test('abort during the backoff → AbortedError, no further attempt', async ({ serve, connect }) => {
    const server = await serve();
    server.handle('pixel', { status: 503 });
    const controller = new AbortController();
    // Counted from the abort, as above: the back-off it cuts is 10 s.
    let aborted = Infinity;
    const abort = () => ((aborted = performance.now()), controller.abort());
    const client = connect(server, { backoffBase: 10_000, backoffMax: 10_000, totalTimeout: 60_000, onCall: (e) => e.status === 503 && abort() });
    const { error } = await timed(() => client.pixel(VENDOR_MAIN_DEVICE, 1, 1, { signal: controller.signal }));
    const ms = performance.now() - aborted;
    expect(error?.code).toBe('PW_ABORTED');
    expect(error?.message).toMatch(/aborted while waiting to retry/);
    expect(ms).toBeLessThan(300);
    expect(server.count('pixel')).toBe(1);
  });

  test('a signal aborted before the call → AbortedError, no request for the operation', async ({ serve, connect }) => {
    const server = await serve();
    const { error } = await timed(() => connect(server).settings(VENDOR_MAIN_DEVICE, { signal: AbortSignal.abort() }));
    expect(error?.code).toBe('PW_ABORTED');
    expect(server.count('settings')).toBe(0);
  });
});

test("a deadline's signal never aborts before its moment by performance.now(), though Node's timers may fire a millisecond early", async () => {
  // Node counts a timer in whole milliseconds of a clock read at the loop's turn: without setting it again for
  // what is left, about one in four of these fired up to a millisecond early.
  const early = await Promise.all(
    Array.from({ length: 60 }, async (_, i) => {
      const ms = 3 + (i % 17);
      const start = performance.now();
      const deadline = Deadline.in(ms);
      await new Promise((resolve) => deadline.signal!.addEventListener('abort', resolve, { once: true }));
      const took = performance.now() - start;
      deadline.dispose();
      return took < ms ? [`${ms} ms deadline aborted after ${took.toFixed(2)} ms`] : [];
    }),
  );
  expect(early.flat()).toEqual([]);
});
