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
  /**
   * Where a sample that fails keeps the pixels it did read, so that the next sample of the same region reads
   * only the rest. A check that samples again after a failed read (a phone that dropped off for a moment)
   * then costs the pixels it lacks, not the whole region again. A sample that completes empties it.
   */
  resume?: PartialRegion;
}

/** The pixels of a region read so far by samples that failed: see {@link SampleOptions.resume}. */
export class PartialRegion {
  readonly data: Uint8Array;
  /** 1 where the pixel at that index has been read. */
  readonly #have: Uint8Array;
  /** Counts the complete images taken: a read that a failed sample left in flight lands only in its own. */
  #taken = 0;

  constructor(readonly rect: Rect) {
    this.data = new Uint8Array(rect.width * rect.height * 4);
    this.#have = new Uint8Array(rect.width * rect.height);
  }

  has(i: number): boolean {
    return this.#have[i] === 1;
  }

  /** Which image a read now belongs to: pass it back to {@link set}. */
  get epoch(): number {
    return this.#taken;
  }

  set(i: number, px: Rgb, epoch: number): void {
    if (epoch !== this.#taken) return;
    const o = i * 4;
    this.data[o] = px.r;
    this.data[o + 1] = px.g;
    this.data[o + 2] = px.b;
    this.data[o + 3] = 255;
    this.#have[i] = 1;
  }

  /** The complete image, leaving this empty for the next sample. */
  take(): Image {
    const image = { width: this.rect.width, height: this.rect.height, data: this.data.slice() };
    this.#have.fill(0);
    this.#taken++;
    return image;
  }
}

/** Largest region sampled: a region costs one service call per pixel. */
export const MAX_REGION_PIXELS = 256 * 256;

/**
 * Reads a rectangle of a phone's screen, one pixel per call, the calls issued concurrently, each under the
 * client's resilience policy and within the caller's deadline. The first read that fails for good fails the
 * sample (an assertion samples again, as it reads again after any failed read); with `resume`, the pixels
 * read before it are kept for that next sample.
 * @param client the logged-in client
 * @param device the phone
 * @param rect the region; at most {@link MAX_REGION_PIXELS} pixels
 */
export async function sampleRegion(client: Pick<DeviceClient, 'pixel'>, device: DeviceId, rect: Rect, options: SampleOptions = {}): Promise<Image> {
  checkRect(rect);
  const { resume, concurrency = 32, ...call } = options;
  if (resume && !sameRect(resume.rect, rect)) throw new UsageError(`a partial sample of ${JSON.stringify(resume.rect)} cannot resume ${JSON.stringify(rect)}`);
  const partial = resume ?? new PartialRegion(rect);
  const { width } = rect;
  const total = width * rect.height;
  const epoch = partial.epoch;
  let next = 0;
  let failed = false;
  const worker = async () => {
    // Once a read fails the sample has failed: the other lanes stop rather than read the rest for nothing.
    for (let i = next++; i < total && !failed; i = next++) {
      if (partial.has(i)) continue;
      try {
        partial.set(i, await client.pixel(device, rect.x + (i % width), rect.y + Math.floor(i / width), call), epoch);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = Math.max(1, Math.min(concurrency, total));
  await Promise.all(Array.from({ length: lanes }, worker));
  return partial.take();
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
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
