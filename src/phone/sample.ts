import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { CallOptions, DeviceClient } from '../client/index.js';
import type { Image } from '../image/png.js';
import { MAX_REGION_PIXELS, PartialRegion, RegionGrid, type GridOptions, type Rect } from '../image/region.js';
import { inLanes } from './lanes.js';

export interface SampleOptions extends CallOptions, GridOptions {
  /**
   * Pixel reads in flight at once. The interface reads one pixel per call, so a region costs one round trip
   * per pixel; overlapping them over the keep-alive pool divides the wall time by about this much.
   * @default 32
   */
  concurrency?: number;
  /**
   * Where a sample that fails keeps the pixels it did read, so that the next sample of the same region reads
   * only the rest. A check that samples again after a failed read (a phone that dropped off for a moment)
   * then costs the pixels it lacks, not the whole region again. A sample that completes empties it. Its grid
   * (step, mask) is the sample's.
   */
  resume?: PartialRegion;
}

/**
 * Reads a rectangle of a phone's screen, one pixel per call (every `step`-th, the masked ones not at all), the
 * calls issued concurrently, each under the client's resilience policy and within the caller's deadline. A
 * read that fails for good fails the sample (an assertion samples again, as it reads again after any failed
 * read); with `resume`, every pixel read is kept for that next sample, which reads only the ones that failed.
 * @param client the logged-in client
 * @param device the phone
 * @param rect the region; at most {@link MAX_REGION_PIXELS} pixels read
 */
export async function sampleRegion(client: Pick<DeviceClient, 'pixel'>, device: DeviceId, rect: Rect, options: SampleOptions = {}): Promise<Image> {
  const { resume, concurrency = 32, step, mask, maskColor, ...call } = options;
  const grid = resume?.grid ?? new RegionGrid(rect, { step, mask, maskColor });
  const r = grid.rect;
  if (r.x !== rect.x || r.y !== rect.y || r.width !== rect.width || r.height !== rect.height) {
    throw new UsageError(`a partial sample of ${JSON.stringify(r)} cannot resume a sample of ${JSON.stringify(rect)}`);
  }
  const total = grid.width * grid.height;
  if (total > MAX_REGION_PIXELS) {
    throw new UsageError(`region ${rect.width}×${rect.height}${grid.step > 1 ? ` at step ${grid.step}` : ''} is ${total} pixel reads: too many, each is one service call on a server without screen capture`, {
      hint: `sample at most ${MAX_REGION_PIXELS} pixels: a smaller region, or a larger { step }`,
    });
  }
  const partial = resume ?? new PartialRegion(grid);
  if (grid.masked) for (let i = 0; i < total; i++) if (grid.masked[i]) partial.set(i, grid.maskColor);
  // Without `resume` a failed read fails the sample; with it, the lanes read on, and the next sample reads only what failed.
  await inLanes(
    total,
    concurrency,
    async (i) => {
      if (partial.has(i)) return;
      const { x, y } = grid.point(i);
      partial.set(i, await client.pixel(device, x, y, call));
    },
    resume !== undefined,
  );
  return partial.take();
}
