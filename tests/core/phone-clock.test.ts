// PhoneClocks: each phone's clock learned from arrivals between two reads, and the one verdict drawn from it
// ("certainly stamped after this moment"), under phone clocks an hour either way and `time` in ms or s.
import { expect, test } from '../helpers/test.js';
import type { Notification } from '../../src/core/notifications.js';
import { PhoneClocks, phoneTimeSpan } from '../../src/core/phone-clock.js';

const PHONE = 'device@1116106541';
const MIN = 60_000;
/** This machine's clock at the start of every case (ms since the epoch). */
const T0 = 1_763_900_000_000;
const OFFSETS = [-60 * MIN, -10 * MIN, -1_234, 0, 10 * MIN, 60 * MIN];
const UNITS = ['ms', 's'] as const;

/** What a phone whose clock is `offset` ahead stamps at this machine's `at`, in `unit`. */
const stamp = (at: number, offset: number, unit: 'ms' | 's', text = 'm'): Notification => ({
  app: 'com.example.chat',
  text,
  time: unit === 's' ? Math.floor((at + offset) / 1000) : at + offset,
  id: PHONE,
});

/**
 * A feed's life: polls every `every` ms, each read taking `takes` ms; a message arrives in the middle of each
 * gap. Returns the clocks after `polls` polls, and the runner time then.
 */
function learned(offset: number, unit: 'ms' | 's', polls = 6, every = 150, takes = 20): { clocks: PhoneClocks; now: number } {
  const clocks = new PhoneClocks();
  let start = T0;
  for (let poll = 1; poll <= polls; poll++) {
    const next = start + every;
    const arrival = start + every / 2;
    clocks.learn(stamp(arrival, offset, unit), start, next + takes, poll);
    start = next;
  }
  return { clocks, now: start + takes };
}

test.describe('phoneTimeSpan tells ms from s by size alone', () => {
  const cases: [number, { from: number; to: number }][] = [
    [1_539_833_828_000, { from: 1_539_833_828_000, to: 1_539_833_828_000 }], // the vendor's example, ms
    [1_539_833_828, { from: 1_539_833_828_000, to: 1_539_833_828_999 }], // the same moment in s
    [T0 + 3_600_000, { from: T0 + 3_600_000, to: T0 + 3_600_000 }], // an hour ahead, still ms
    [99_999_999_999, { from: 99_999_999_999_000, to: 99_999_999_999_999 }], // just under 1e11: seconds
  ];
  for (const [time, span] of cases) test(String(time), () => expect(phoneTimeSpan(time)).toEqual(span));
});

for (const unit of UNITS) {
  for (const offset of OFFSETS) {
    test.describe(`a phone ${offset / MIN} min off, time in ${unit}`, () => {
      test('the offset it learns holds the true one, and is trusted after two polls', () => {
        const one = learned(offset, unit, 1).clocks;
        expect(one.offset(PHONE)).toBeUndefined();
        const { clocks } = learned(offset, unit);
        const o = clocks.offset(PHONE)!;
        expect(o.lo).toBeLessThanOrEqual(offset);
        expect(o.hi).toBeGreaterThanOrEqual(offset);
        // Tight enough to be of use: within one gap between reads (and a second when time is in seconds).
        expect(o.hi - o.lo).toBeLessThanOrEqual(unit === 's' ? 1_170 : 170);
      });

      test('a message stamped before the call moment is never certainly after it', () => {
        const { clocks, now } = learned(offset, unit);
        const call = now + 500;
        for (const before of [0, 1, 10, 999, 1_000, 60_000]) {
          expect(clocks.stampedAfter(stamp(call - before, offset, unit), call), `${before} ms before`).toBe(false);
        }
        // At the call moment itself, too: "after" means after.
        expect(clocks.stampedAfter(stamp(call, offset, unit), call)).toBe(false);
      });

      test('a message stamped well after the call moment is', () => {
        const { clocks, now } = learned(offset, unit);
        const call = now + 500;
        const margin = unit === 's' ? 2_200 : 200;
        expect(clocks.stampedAfter(stamp(call + margin, offset, unit), call)).toBe(true);
      });
    });
  }
}

test('while the clock is not known, nothing is certainly after anything', () => {
  const clocks = new PhoneClocks();
  expect(clocks.stampedAfter(stamp(T0 + 10 * MIN, 0, 'ms'), T0)).toBe(false);
  expect(clocks.describe(PHONE)).toMatch(/not known yet/);
});

test('a backlog stamped before the earlier read began (a phone back from offline) teaches nothing', () => {
  const { clocks, now } = learned(5 * MIN, 'ms');
  // As it stands when the backlog is read: only the drift time allows has widened it.
  const before = clocks.offset(PHONE, now + 170)!;
  // Ten messages the phone received minutes ago reach the list only now.
  for (let i = 0; i < 10; i++) clocks.learn(stamp(now - 4 * MIN + i, 5 * MIN, 'ms', `queued ${i}`), now, now + 170, 100);
  expect(clocks.offset(PHONE)).toEqual(before);
});

test('a clock set forward is learned again; one set back, after three polls of late arrivals', () => {
  const { clocks, now } = learned(0, 'ms');
  // Forward by a minute: the next arrival is stamped after its read ended, by the old offset.
  clocks.learn(stamp(now + 75, MIN, 'ms'), now, now + 170, 50);
  expect(clocks.offset(PHONE)).toBeUndefined();
  clocks.learn(stamp(now + 225, MIN, 'ms'), now + 150, now + 320, 51);
  expect(clocks.offset(PHONE)!.lo).toBeGreaterThan(MIN - 200);
  // Back by two minutes: late by the known offset, poll after poll.
  for (let poll = 52; poll < 55; poll++) {
    const start = now + (poll - 50) * 150;
    clocks.learn(stamp(start + 75, -MIN, 'ms'), start, start + 170, poll);
  }
  clocks.learn(stamp(now + 900, -MIN, 'ms'), now + 825, now + 995, 56);
  const o = clocks.offset(PHONE)!;
  expect(o.lo).toBeLessThanOrEqual(-MIN);
  expect(o.hi).toBeGreaterThanOrEqual(-MIN);
});

test('describe says how far ahead or behind, and how sure', () => {
  expect(learned(5 * MIN, 'ms').clocks.describe(PHONE)).toMatch(/^its clock is 5 min 0\.\d s ahead of this machine's \(±\d+ ms\)$/);
  expect(learned(-90_000, 'ms').clocks.describe(PHONE)).toMatch(/^its clock is 1 min 30\.\d s behind this machine's/);
});

for (const ppm of [150, -150]) {
  test(`a clock that drifts ${ppm > 0 ? 'fast' : 'slow'} by ${Math.abs(ppm)} ppm stays followed for two hours: known, holding the true offset, no false "after"`, () => {
    const clocks = new PhoneClocks();
    const offsetAt = (t: number) => 5 * MIN + Math.round((t - T0) * ppm * 1e-6);
    const every = 1_000;
    let start = T0;
    const wrong: string[] = [];
    for (let poll = 1; poll <= 7_200; poll++) {
      const next = start + every;
      const arrival = start + every / 2;
      clocks.learn(stamp(arrival, offsetAt(arrival), 'ms'), start, next + 20, poll);
      start = next;
      if (poll < 2) continue;
      const o = clocks.offset(PHONE, start);
      if (!o || o.lo > offsetAt(start) || o.hi < offsetAt(start)) wrong.push(`poll ${poll}: ${o ? `[${o.lo}, ${o.hi}]` : 'unknown'}, true offset ${offsetAt(start)}`);
      // A message the phone stamped 1 ms before a call moment now is never taken for one after it.
      if (clocks.stampedAfter(stamp(start - 1, offsetAt(start - 1), 'ms'), start)) wrong.push(`poll ${poll}: a message of before the call taken for after it`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Still tight enough to be of use after two hours.
    const o = clocks.offset(PHONE, start)!;
    expect(o.hi - o.lo).toBeLessThan(1_100);
  });
}
