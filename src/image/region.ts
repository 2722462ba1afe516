import type { Rgb } from '../core/color.js';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { CallOptions, DeviceClient } from '../client/index.js';
import type { Image } from './png.js';

/** A rectangle of the screen, in pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SampleOptions extends CallOptions {
  /**
   * Pixel reads in flight at once. The interface reads one pixel per call, so a region costs one round trip
   * per pixel; overlapping them over the keep-alive pool divides the wall time by about this much.
   * @default 32
   */
  concurrency?: number;
}

/** Largest region sampled: a region costs one service call per pixel. */
export const MAX_REGION_PIXELS = 256 * 256;

/**
 * Reads a rectangle of a phone's screen, one pixel per call, the calls issued concurrently, each under the
 * client's resilience policy and within the caller's deadline. The first read that fails for good fails the
 * sample (an assertion samples again, as it reads again after any failed read).
 * @param client the logged-in client
 * @param device the phone
 * @param rect the region; at most {@link MAX_REGION_PIXELS} pixels
 */
export async function sampleRegion(client: Pick<DeviceClient, 'pixel'>, device: DeviceId, rect: Rect, options: SampleOptions = {}): Promise<Image> {
  checkRect(rect);
  const { width, height } = rect;
  const total = width * height;
  const data = new Uint8Array(total * 4);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // Once a read fails the sample has failed: the other lanes stop rather than read the rest for nothing.
    for (let i = next++; i < total && !failed; i = next++) {
      let px: Rgb;
      try {
        px = await client.pixel(device, rect.x + (i % width), rect.y + Math.floor(i / width), options);
      } catch (error) {
        failed = true;
        throw error;
      }
      const o = i * 4;
      data[o] = px.r;
      data[o + 1] = px.g;
      data[o + 2] = px.b;
      data[o + 3] = 255;
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 32, total));
  await Promise.all(Array.from({ length: lanes }, worker));
  return { width, height, data };
}

/** Checks a rectangle given by a user: whole numbers, non-negative, not empty, not huge. */
export function checkRect(rect: Rect): void {
  const parts = [rect?.x, rect?.y, rect?.width, rect?.height];
  if (!parts.every((n) => Number.isInteger(n) && n >= 0) || rect.width < 1 || rect.height < 1) {
    throw new UsageError(`invalid region ${JSON.stringify(rect)}: expected whole numbers { x, y, width, height } with width and height ≥ 1`);
  }
  if (rect.width * rect.height > MAX_REGION_PIXELS) {
    throw new UsageError(`region ${rect.width}×${rect.height} is too large: each pixel is one service call`, {
      hint: `sample at most ${MAX_REGION_PIXELS} pixels (e.g. 256×256), or several smaller regions`,
    });
  }
}
