/** Small statistics for the benchmarks: medians of samples, and rounds that alternate the arms compared. */

/** The median of `xs` (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/**
 * The `p`-th percentile of `xs`, interpolated between the nearest ranks.
 * @param p from 0 to 100
 */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('no samples');
  const sorted = [...xs].sort((a, b) => a - b);
  const at = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * Runs the arms side by side: `rounds` rounds, each running every arm once, the order flipped every other
 * round so neither arm always runs first (warm caches, a CPU clock ramping up). Returns each arm's samples.
 * @param arms name → one measurement
 */
export async function interleaved<K extends string>(rounds: number, arms: Record<K, () => Promise<number>>): Promise<Record<K, number[]>> {
  const names = Object.keys(arms) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) out[name].push(await arms[name]());
  }
  return out;
}

/** The median of the per-round ratios `a[i] / b[i]`: each ratio compares two runs made moments apart. */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  return median(ratios(a, b));
}

/** The per-round ratios `a[i] / b[i]`. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

/**
 * A 95 % confidence interval of the median of `xs`, free of any assumption about their distribution: the
 * order statistics k and n − 1 − k (from 0) with k the binomial's 2.5 % point (its normal approximation).
 * Narrow when the rounds agree; a run whose interval holds the target has not decided it.
 */
export function medianInterval(xs: readonly number[]): [number, number] {
  const sorted = [...xs].sort((a, b) => a - b);
  const n = sorted.length;
  const k = Math.max(0, Math.floor((n - 1.96 * Math.sqrt(n)) / 2));
  return [sorted[k]!, sorted[n - 1 - k]!];
}

/** Rounds to `digits` decimals (the JSON keeps figures readable). */
export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The median time of `n` sequential calls, in ms. */
export async function medianMs(call: () => Promise<unknown>, n: number): Promise<number> {
  const ms: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    ms[i] = performance.now() - t0;
  }
  return median(ms);
}
