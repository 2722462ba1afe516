/**
 * Runs `work(i)` for every `i` below `count`, in order, at most `lanes` at once: the reads of a region sample or of
 * the elements' texts, each one request. A failure is thrown once every lane has stopped; after it the lanes start
 * nothing more (a failed read fails the whole, the rest would be read for nothing), unless `readOn`: then they read
 * on, and what they read is kept, for the caller to resume with.
 */
export async function inLanes(count: number, lanes: number, work: (i: number) => Promise<void>, readOn = false): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    for (let i = next++; i < count && !(failure && !readOn); i = next++) {
      try {
        await work(i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, count)) }, lane));
  if (failure) throw failure.error;
}
