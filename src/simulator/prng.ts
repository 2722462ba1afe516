/**
 * A seeded pseudo-random generator (mulberry32, Tommy Ettinger's public-domain 32-bit generator): the fault
 * injector draws from it so a test that sets a seed sees the same faults on every run.
 * @param seed any 32-bit integer
 * @default seed 1
 */
export function seededRandom(seed = 1): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
