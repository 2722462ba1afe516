import type { Rgb } from '../core/color.js';
import { UsageError } from '../core/errors.js';
import type { Image } from './png.js';

import type { Rect } from '../core/screen.js';

export type { Rect };

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
  #read = 0;

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
    if (this.#have[i] === 0) this.#read++;
    this.#have[i] = 1;
    this.lastReadAt = performance.now();
  }

  /** When the last pixel was read (performance.now()), to tell a server still answering from one that stopped. */
  lastReadAt = 0;

  /** Pixels read so far of the sample under way. */
  get read(): number {
    return this.#read;
  }

  /** The complete image, leaving this empty for the next sample. */
  take(): Image {
    const image = { width: this.grid.width, height: this.grid.height, data: this.data.slice() };
    this.#have.fill(0);
    this.#read = 0;
    return image;
  }
}

/** Checks a rectangle given by a user: whole numbers, non-negative, not empty. */
function checkRect(rect: Rect, what: string): void {
  const parts = [rect?.x, rect?.y, rect?.width, rect?.height];
  if (!parts.every((n) => Number.isInteger(n) && n >= 0) || rect.width < 1 || rect.height < 1) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(rect)}: expected whole numbers { x, y, width, height } with width and height ≥ 1`);
  }
}
