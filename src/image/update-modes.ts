// What a region check does with its golden under each of Playwright 1.65's --update-snapshots modes, as
// Playwright's own snapshots do (node_modules/playwright/lib/matchers/expect.js, SnapshotHelper). Pure, so
// the whole table is tested directly (tests/image/update-modes.test.ts).

/** Playwright's modes; `default` is a run without the flag (the flag alone is `changed`). */
export type UpdateMode = 'all' | 'changed' | 'missing' | 'none' | 'default';

/** A missing golden (the check is not `.not`): whether the sample is written, and the check's verdict. */
export function whenMissing(mode: UpdateMode): { write: boolean; verdict: 'pass' | 'fail' | 'fail-at-end' } {
  if (mode === 'none') return { write: false, verdict: 'fail' };
  // The test goes on and fails at its end, as a soft assertion does.
  if (mode === 'default') return { write: true, verdict: 'fail-at-end' };
  return { write: true, verdict: 'pass' };
}

/** How an existing golden compares with the last sample. */
export interface GoldenState {
  /** Within the comparison's options. */
  matches: boolean;
  /** Pixel for pixel. */
  samePixels: boolean;
  /** Sampled at the same step. */
  sameStep: boolean;
}

/** Whether the check takes the sample as the golden (and passes): `changed` when it no longer matches, `all` when any pixel differs. */
export function rewritesGolden(mode: UpdateMode, golden: GoldenState): boolean {
  if (mode === 'all') return !golden.samePixels || !golden.sameStep;
  if (mode === 'changed') return !golden.matches || !golden.sameStep;
  return false;
}

/** `all` takes the region as it is (once still, with `stable`): it never waits for the region to match. */
export function waitsForMatch(mode: UpdateMode): boolean {
  return mode !== 'all';
}

/** A golden of another step is refused, unless the mode is about to write it again. */
export function refusesOtherStep(mode: UpdateMode): boolean {
  return mode !== 'all' && mode !== 'changed';
}
