// A check's deadline counts from the spec's call: what it spent before its first read (loading its code, a busy
// worker) is not given back, so a check ends at its timeout; when nothing is left, it still reads once, on the
// grace of a last read, and ends then.
import type { Deadline } from '../../src/client/index.js';
import { TimeoutError } from '../../src/core/errors.js';
import { hostMs } from '../../src/client/host-time.js';
import { LAST_READ_GRACE_MS, untilChecked } from '../../src/phone/until.js';
import { expect, test } from '../helpers/test.js';

/** A read of a phone that never answers: it ends when its deadline does. */
const silent = (deadline: Deadline) =>
  new Promise<number>((_, reject) => deadline.signal!.addEventListener('abort', () => reject(new TimeoutError('pixel: no answer before the deadline', { reason: 'deadline' })), { once: true }));

test('a check called long before its first read ends on one read\'s grace, not on time given back', async () => {
  // The spec called it 10 s ago, with a 4 s timeout: its time is over before it reads.
  const timeout = 4_000;
  const started = performance.now();
  const poll = await untilChecked(silent, () => true, timeout, { at: started - 10_000, host: hostMs() });
  const took = performance.now() - started;
  expect(poll.reads, 'one read all the same').toBe(1);
  expect(poll.answered).toBe(0);
  expect(took).toBeGreaterThanOrEqual(LAST_READ_GRACE_MS - 5);
  // Half the timeout (2 s) was what a late check used to be given.
  expect(took).toBeLessThan(timeout / 2);
  expect(poll.ms, 'its time counts from the call').toBeGreaterThanOrEqual(10_000);
});

test('a check keeps what is left of its timeout after what it spent before reading', async () => {
  // Called 4 s ago with a 6 s timeout: 2 s are left (a late check used to be given half its timeout, 3 s).
  const timeout = 6_000;
  const started = performance.now();
  const poll = await untilChecked(silent, () => true, timeout, { at: started - 4_000, host: hostMs() });
  const took = performance.now() - started;
  expect(poll.answered).toBe(0);
  expect(took).toBeGreaterThanOrEqual(2_000 - 5);
  expect(took).toBeLessThan(2_700);
});
