// The --update-snapshots table of region checks, mode by mode, as Playwright 1.65's snapshots behave
// (node_modules/playwright/lib/matchers/expect.js, SnapshotHelper). tests/fixtures/region-options.test.ts runs
// two of the modes for real.
import { expect, test } from '../helpers/test.js';
import { refusesOtherStep, rewritesGolden, waitsForMatch, whenMissing, type UpdateMode } from '../../src/image/index.js';

const SAME = { matches: true, samePixels: true, sameStep: true };
const WITHIN = { matches: true, samePixels: false, sameStep: true };
const DIFFERENT = { matches: false, samePixels: false, sameStep: true };
const OTHER_STEP = { matches: true, samePixels: true, sameStep: false };

const TABLE: { mode: UpdateMode; missing: ReturnType<typeof whenMissing>; rewrites: [boolean, boolean, boolean, boolean]; waits: boolean; refusesStep: boolean }[] = [
  // rewrites: a golden the same pixel for pixel, one within the ΔE00 bound (deltaE), one that differs, one of another step.
  { mode: 'default', missing: { write: true, verdict: 'fail-at-end' }, rewrites: [false, false, false, false], waits: true, refusesStep: true },
  { mode: 'none', missing: { write: false, verdict: 'fail' }, rewrites: [false, false, false, false], waits: true, refusesStep: true },
  { mode: 'missing', missing: { write: true, verdict: 'pass' }, rewrites: [false, false, false, false], waits: true, refusesStep: true },
  { mode: 'changed', missing: { write: true, verdict: 'pass' }, rewrites: [false, false, true, true], waits: true, refusesStep: false },
  { mode: 'all', missing: { write: true, verdict: 'pass' }, rewrites: [false, true, true, true], waits: false, refusesStep: false },
];

for (const row of TABLE) {
  test(`--update-snapshots=${row.mode}: a missing golden, an existing one, the wait, another step`, () => {
    expect(whenMissing(row.mode)).toEqual(row.missing);
    expect([SAME, WITHIN, DIFFERENT, OTHER_STEP].map((g) => rewritesGolden(row.mode, g))).toEqual(row.rewrites);
    expect(waitsForMatch(row.mode)).toBe(row.waits);
    expect(refusesOtherStep(row.mode)).toBe(row.refusesStep);
  });
}
