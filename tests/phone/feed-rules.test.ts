// The feed's rules for which messages reach a waiter, with this machine's clock and every read driven by
// hand: what was listed before the call never counts; what a read after the arming read finds always does;
// what the arming read (or a read in flight at the call) finds counts only when the phone's clock, learned
// from earlier arrivals, says it was stamped after the call.
import { expect, test } from '../helpers/test.js';
import { Deadline } from '../../src/client/index.js';
import { NotificationFeed, type NotificationSource } from '../../src/phone/index.js';
import { AuthError, UnreachableError } from '../../src/core/errors.js';
import type { Notification, NotificationQuery } from '../../src/core/notifications.js';

const PHONE = 'device@1116106541';
const T0 = 1_763_900_000_000;
/** The phone's clock runs five minutes ahead of this machine's. */
const OFFSET = 5 * 60_000;

/** A server's list (oldest first) whose reads can be held while the test changes the list and the clock. */
class FakeList implements NotificationSource {
  list: Notification[] = [];
  reads = 0;
  #held: { started: () => void; release: Promise<void> } | undefined;
  #fail: unknown[] = [];

  /** The next read waits for `release()`; `started` resolves once it began. */
  hold(): { started: Promise<void>; release: () => void } {
    let started!: () => void;
    let release!: () => void;
    const began = new Promise<void>((r) => (started = r));
    this.#held = { started, release: new Promise<void>((r) => (release = r)) };
    return { started: began, release };
  }

  /** The next reads fail with these errors, one each. */
  failNext(...errors: unknown[]): void {
    this.#fail.push(...errors);
  }

  async notifications(q: NotificationQuery): Promise<Notification[]> {
    this.reads++;
    const held = this.#held;
    this.#held = undefined;
    if (held) {
      held.started();
      await held.release;
    }
    if (this.#fail.length) throw this.#fail.shift();
    return this.list.slice(q.position - 1, q.position - 1 + q.count);
  }
}

/** A message the phone stamped at this machine's `at` (its clock OFFSET ahead). */
const note = (text: string, at: number): Notification => ({ app: 'com.example.chat', text, time: at + OFFSET, id: PHONE });

/** @param interval the feed's pause between reads; by default long, so every read is the test's */
function setup(interval = 60_000) {
  const clock = { t: T0 };
  const source = new FakeList();
  const feed = new NotificationFeed(source, { interval, now: () => clock.t });
  const got: Notification[] = [];
  const deadlines: Deadline[] = [];
  const listen = (into: Notification[] = got) => {
    const deadline = Deadline.in(30_000);
    deadlines.push(deadline);
    return feed.subscribe({ deliver: (m) => into.push(...m), fail: () => {} }, deadline);
  };
  /**
   * One read: it starts at this machine's `start` (a listener joins to wake the feed), `during` runs while it
   * is in flight, and it is answered at `end`.
   */
  const read = async (start: number, end: number, during: () => void = () => {}) => {
    clock.t = start;
    const held = source.hold();
    const poke = listen([]);
    await held.started;
    during();
    clock.t = end;
    held.release();
    await poke.armed;
    poke.close();
  };
  /**
   * Teaches the feed the phone's clock: a message arrives as each read is answered (10 ms after it began),
   * so the next read finds it, and it bounds the offset within 10 ms.
   */
  const learnClock = async () => {
    for (let i = 0; i < 4; i++) {
      const start = clock.t + 100;
      await read(start, start + 10);
      source.list.push(note(`warm-up ${i}`, start + 10));
    }
    await read(clock.t + 100, clock.t + 110);
    expect(feed.clocks.offset(PHONE)!.hi - OFFSET).toBeLessThanOrEqual(10);
  };
  /** The feed's baseline read, the phone's clock learned, then a second of quiet: returns that moment. */
  const clockKnown = async () => {
    await read(T0, T0 + 10);
    await learnClock();
    clock.t += 1_000;
    return clock.t;
  };
  return { clock, source, feed, got, listen, read, clockKnown, dispose: () => deadlines.forEach((d) => d.dispose()) };
}

test('what was listed before the call never counts; what arrives after the arming read always does', async () => {
  const s = setup();
  s.source.list.push(note('old code 111111', T0 - 60_000));
  await s.read(T0, T0 + 10); // the feed's baseline
  s.clock.t = T0 + 500;
  const waiter = s.listen();
  await s.read(T0 + 500, T0 + 510); // the arming read
  expect(waiter.isArmed).toBe(true);
  await s.read(T0 + 700, T0 + 710, () => s.source.list.push(note('new code 222222', T0 + 705)));
  expect(s.got.map((m) => m.text)).toEqual(['new code 222222']);
  waiter.close();
  s.dispose();
});

test('while the phone\'s clock is unknown, what the arming read finds counts as old', async () => {
  const s = setup();
  await s.read(T0, T0 + 10);
  s.clock.t = T0 + 500;
  s.listen();
  // Arrives after the call, before the arming read: without a known clock it cannot be told from an old one.
  await s.read(T0 + 600, T0 + 610, () => s.source.list.push(note('code 333333', T0 + 550)));
  expect(s.got).toEqual([]);
  s.dispose();
});

test('with the clock known, the arming read\'s arrivals count when stamped after the call, not when stamped before', async () => {
  const s = setup();
  const call = await s.clockKnown();
  s.listen();
  await s.read(call + 100, call + 110, () => {
    // Stamped 50 ms after the call; and one the phone stamped 10 ms before the call that reached the list late.
    s.source.list.push(note('stamped before the call', call - 10));
    s.source.list.push(note('stamped after the call', call + 50));
  });
  expect(s.got.map((m) => m.text)).toEqual(['stamped after the call']);
  s.dispose();
});

test('a read in flight at the call is judged like the arming read', async () => {
  const s = setup();
  const start = await s.clockKnown();
  const held = s.source.hold();
  const poke = s.listen([]);
  await held.started;
  // The call comes while that read is in flight.
  const call = start + 20;
  s.clock.t = call;
  const waiter = s.listen();
  s.source.list.push(note('stamped before the call', call - 5), note('stamped after the call', call + 30));
  s.clock.t = call + 40;
  held.release();
  await poke.armed;
  poke.close();
  expect(waiter.isArmed).toBe(false); // that read started before the call: it cannot arm the waiter
  expect(s.got.map((m) => m.text)).toEqual(['stamped after the call']);
  await waiter.armed; // the feed reads again at once for it
  expect(waiter.isArmed).toBe(true);
  s.dispose();
});

test('acts wait for pending arming reads: settled() resolves once every waiter is armed, at once when none waits', async () => {
  const s = setup();
  await s.feed.settled();
  await s.read(T0, T0 + 10);
  s.clock.t = T0 + 100;
  const held = s.source.hold();
  const waiter = s.listen();
  let settled = false;
  const acting = s.feed.settled().then(() => (settled = true));
  await held.started;
  expect(settled).toBe(false);
  held.release();
  await acting;
  expect(waiter.isArmed).toBe(true);
  s.dispose();
});

test('an arming read that fails is followed by another after the interval; it arms the waiter', async () => {
  const s = setup(50);
  await s.read(T0, T0 + 10);
  s.source.failNext(new UnreachableError('notifications: cannot reach the server (ECONNRESET)', { networkCode: 'ECONNRESET' }));
  s.clock.t = T0 + 500;
  const waiter = s.listen();
  await waiter.armed;
  expect(waiter.isArmed).toBe(true);
  expect(waiter.unanswered).toBe(1);
  expect(waiter.lastError).toBeUndefined();
  s.dispose();
});

test('a failure no further read can mend ends every wait at once, with that error', async () => {
  const s = setup();
  const refused = new AuthError('sigma', 'login refused for user "sigma"');
  s.source.failNext(refused);
  const failures: unknown[] = [];
  const deadline = Deadline.in(30_000);
  s.feed.subscribe({ deliver: () => {}, fail: (e) => failures.push(e) }, deadline);
  await expect.poll(() => failures).toEqual([refused]);
  deadline.dispose();
  s.dispose();
});
