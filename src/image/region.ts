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

/** How a region is sampled: every `step`-th pixel on both axes, the pixels under `mask` not read. */
export interface GridOptions {
  /**
   * Reads every n-th pixel on both axes: a large area for a fraction of the reads. The image is
   * ⌈width/n⌉ × ⌈height/n⌉. @default 1
   */
  step?: number;
  /** Parts of the screen (screen coordinates) left out: not read, painted `maskColor`, never compared. */
  mask?: Rect[];
  /** What masked pixels show in the images. @default magenta, 0xff00ff, as Playwright's */
  maskColor?: Rgb;
}

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

/** Largest sample read pixel by pixel (each read is one service call); a screen capture has no such limit. */
export const MAX_REGION_PIXELS = 256 * 256;
export const MASK_COLOR: Rgb = { r: 255, g: 0, b: 255 };

/** The pixels a region's sample holds: which screen pixel each one is, and which are masked. */
export class RegionGrid {
  readonly width: number;
  readonly height: number;
  readonly step: number;
  /** 1 where the image's pixel is masked; undefined without a mask. */
  readonly masked: Uint8Array | undefined;
  readonly maskColor: Rgb;

  constructor(
    readonly rect: Rect,
    options: GridOptions = {},
  ) {
    checkRect(rect, 'region');
    this.maskColor = options.maskColor ?? MASK_COLOR;
    const step = (this.step = options.step ?? 1);
    if (!Number.isInteger(step) || step < 1) throw new UsageError(`invalid step ${String(step)}: expected a whole number ≥ 1 (1 reads every pixel, 4 every fourth on both axes)`);
    this.width = Math.ceil(rect.width / step);
    this.height = Math.ceil(rect.height / step);
    if (options.mask !== undefined) {
      if (!Array.isArray(options.mask)) throw new UsageError(`invalid mask ${JSON.stringify(options.mask)}: expected a list of rectangles [{ x, y, width, height }]`);
      this.masked = new Uint8Array(this.width * this.height);
      for (const m of options.mask) {
        checkRect(m, 'mask rectangle');
        if (m.x >= rect.x + rect.width || m.y >= rect.y + rect.height || m.x + m.width <= rect.x || m.y + m.height <= rect.y) {
          throw new UsageError(`mask rectangle ${JSON.stringify(m)} lies outside the region ${JSON.stringify(rect)}`, { hint: 'masks are in screen coordinates, like the region' });
        }
        for (let i = 0; i < this.masked.length; i++) {
          const { x, y } = this.point(i);
          if (x >= m.x && x < m.x + m.width && y >= m.y && y < m.y + m.height) this.masked[i] = 1;
        }
      }
    }
  }

  /** The screen pixel the image's pixel `i` (row by row) shows. */
  point(i: number): { x: number; y: number } {
    return { x: this.rect.x + (i % this.width) * this.step, y: this.rect.y + Math.floor(i / this.width) * this.step };
  }
}

/** The pixels of a region read so far by samples that failed: see {@link SampleOptions.resume}. */
export class PartialRegion {
  readonly data: Uint8Array;
  /** 1 where the pixel at that index has been read. */
  readonly #have: Uint8Array;

  constructor(readonly grid: RegionGrid) {
    this.data = new Uint8Array(grid.width * grid.height * 4);
    this.#have = new Uint8Array(grid.width * grid.height);
  }

  has(i: number): boolean {
    return this.#have[i] === 1;
  }

  set(i: number, px: Rgb): void {
    const o = i * 4;
    this.data[o] = px.r;
    this.data[o + 1] = px.g;
    this.data[o + 2] = px.b;
    this.data[o + 3] = 255;
    this.#have[i] = 1;
  }

  /** The complete image, leaving this empty for the next sample. */
  take(): Image {
    const image = { width: this.grid.width, height: this.grid.height, data: this.data.slice() };
    this.#have.fill(0);
    return image;
  }
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
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    // Without `resume` a failed read fails the sample, and the other lanes stop rather than read the rest for
    // nothing. With it, they read on: what they read is kept, and the next sample reads only what failed.
    for (let i = next++; i < total && !(failure && !resume); i = next++) {
      if (partial.has(i)) continue;
      const { x, y } = grid.point(i);
      try {
        partial.set(i, await client.pixel(device, x, y, call));
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(concurrency, total));
  await Promise.all(Array.from({ length: lanes }, worker));
  if (failure) throw failure.error;
  return partial.take();
}

/** Checks a rectangle given by a user: whole numbers, non-negative, not empty. */
function checkRect(rect: Rect, what: string): void {
  const parts = [rect?.x, rect?.y, rect?.width, rect?.height];
  if (!parts.every((n) => Number.isInteger(n) && n >= 0) || rect.width < 1 || rect.height < 1) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(rect)}: expected whole numbers { x, y, width, height } with width and height ≥ 1`);
  }
}
