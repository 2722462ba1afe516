// parseSince: the moments `notifications` takes (a message's time in ms or s, an ISO time with its zone, a span back
// from now), and the refusals; stampedSince: a time in seconds stands for its whole second.
import { expect, test } from '../helpers/test.js';
import { parseSince, stampedSince } from '../../src/core/since.js';

/** This machine's clock in every case: 2026-12-02T13:05:00Z. */
const NOW = Date.UTC(2026, 11, 2, 13, 5);

const MOMENTS: [string | number, number][] = [
  [1_796_216_700_000, NOW],
  ['1796216700000', NOW],
  // A phone that stamps seconds: its time, as the list gives it.
  [1_796_216_700, NOW],
  ['2026-12-02T13:05:00Z', NOW],
  ['2026-12-02T13:05Z', NOW],
  ['2026-12-02 14:05:00+01:00', NOW],
  ['2026-12-02T14:05:00.000+0100', NOW],
  ['2026-12-02T13:04:59.250z', NOW - 750],
  ['30s', NOW - 30_000],
  ['10m', NOW - 600_000],
  ['10 min ago', NOW - 600_000],
  ['1.5h', NOW - 5_400_000],
  ['2d', NOW - 172_800_000],
  ['500ms', NOW - 500],
  ['  10M ', NOW - 600_000],
];
for (const [value, ms] of MOMENTS) {
  test(`since ${JSON.stringify(value)} is ${new Date(ms).toISOString()}`, () => {
    expect(parseSince(value, NOW)).toBe(ms);
  });
}

const REFUSED: [string | number, RegExp][] = [
  ['yesterday', /^"yesterday" is not a moment; try: an ISO time with its zone .*, ms since the epoch .*, or a span back from now/],
  ['2026-12-02T13:05', /^"2026-12-02T13:05" has no time zone, so it names no one moment; try: add Z for UTC or the offset \(2026-12-02T13:05Z, 2026-12-02T13:05\+01:00\)$/],
  ['2026-02-30T10:00Z', /^"2026-02-30T10:00Z" is not a moment/],
  ['2026-12-02T25:00Z', /is not a moment/],
  ['10 weeks', /is not a moment/],
  ['-10m', /is not a moment/],
  [-1, /^"-1" is not a moment/],
  [1.5, /^"1.5" is not a moment/],
  ['x'.repeat(60), /^"x{40}…" is not a moment/],
];
for (const [value, message] of REFUSED) {
  test(`since ${JSON.stringify(value).slice(0, 30)} is refused`, () => {
    expect(() => parseSince(value, NOW)).toThrow(message);
  });
}

test('a message stamped in seconds may be of any ms of its second', () => {
  const at = (time: number) => ({ app: 'a', text: 't', time, id: 'device@1' as const });
  expect(stampedSince(at(NOW), NOW)).toBe(true);
  expect(stampedSince(at(NOW - 1), NOW)).toBe(false);
  expect(stampedSince(at(NOW / 1000), NOW + 999)).toBe(true);
  expect(stampedSince(at(NOW / 1000), NOW + 1000)).toBe(false);
});
