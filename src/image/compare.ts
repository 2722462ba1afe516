import pixelmatch from 'pixelmatch';
import { UsageError } from '../core/errors.js';
import type { Rgb } from '../core/color.js';
import type { Image } from './png.js';

/** How different two images may be and still match (Playwright's `toHaveScreenshot` options). */
export interface CompareOptions {
  /**
   * pixelmatch's per-pixel colour threshold in YIQ space, 0 (exact) to 1.
   * @default 0.2
   */
  threshold?: number;
  /** Pixels allowed to differ. @default 0 */
  maxDiffPixels?: number;
  /** Share of pixels allowed to differ, 0 to 1. @default 0 */
  maxDiffPixelRatio?: number;
}

/** A failed comparison: why, how many pixels differ, and an image that marks them in red. */
export interface Mismatch {
  errorMessage: string;
  diffPixels: number;
  diff: Image | undefined;
}

/** Pixels a comparison leaves out (1 in `masked`, row by row), painted `color` in its diff. */
export interface Ignored {
  masked: Uint8Array;
  color: Rgb;
}

/**
 * Compares two images the way Playwright's image comparator does: "not equal" is a result, not an exception.
 * Returns null when they match within the options.
 * @param expected the golden image
 * @param actual the image just taken
 * @param ignored pixels never compared, whatever either image holds there
 */
export function compareImages(expected: Image, actual: Image, options: CompareOptions = {}, ignored?: Ignored): Mismatch | null {
  const { threshold = 0.2, maxDiffPixels = 0, maxDiffPixelRatio = 0 } = checkCompareOptions(options);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    return {
      errorMessage: `Expected an image ${expected.width}px by ${expected.height}px, received ${actual.width}px by ${actual.height}px.`,
      diffPixels: Math.max(expected.width * expected.height, actual.width * actual.height),
      diff: undefined,
    };
  }
  const { width, height } = expected;
  const diff = new Uint8Array(width * height * 4);
  const compared = ignored ? withPixelsOf(expected, actual, ignored.masked) : actual.data;
  const diffPixels = pixelmatch(expected.data, compared, diff, width, height, { threshold });
  if (ignored) paint(diff, ignored);
  const allowed = Math.max(maxDiffPixels, Math.floor(maxDiffPixelRatio * width * height));
  if (diffPixels <= allowed) return null;
  const ratio = Math.round((diffPixels / (width * height)) * 10_000) / 100;
  return {
    errorMessage: `${diffPixels} pixels (${ratio}% of ${width}×${height}) are different; ${allowed} allowed (threshold ${threshold}).`,
    diffPixels,
    diff: { width, height, data: diff },
  };
}

/** `actual`'s pixels, with `expected`'s where `masked` says: those compare equal. */
function withPixelsOf(expected: Image, actual: Image, masked: Uint8Array): Uint8Array {
  const out = actual.data.slice();
  for (let i = 0; i < masked.length; i++) if (masked[i]) out.set(expected.data.subarray(i * 4, i * 4 + 4), i * 4);
  return out;
}

function paint(data: Uint8Array, { masked, color }: Ignored): void {
  for (let i = 0; i < masked.length; i++) {
    if (!masked[i]) continue;
    data[i * 4] = color.r;
    data[i * 4 + 1] = color.g;
    data[i * 4 + 2] = color.b;
    data[i * 4 + 3] = 255;
  }
}

/** Refuses options no comparison can use, before any work is done. */
export function checkCompareOptions(options: CompareOptions): CompareOptions {
  const { threshold, maxDiffPixels, maxDiffPixelRatio } = options;
  if (threshold !== undefined && !(typeof threshold === 'number' && threshold >= 0 && threshold <= 1)) {
    throw new UsageError(`invalid threshold ${String(threshold)}: expected a number from 0 to 1`);
  }
  if (maxDiffPixels !== undefined && !(Number.isInteger(maxDiffPixels) && maxDiffPixels >= 0)) {
    throw new UsageError(`invalid maxDiffPixels ${String(maxDiffPixels)}: expected a whole number ≥ 0`);
  }
  if (maxDiffPixelRatio !== undefined && !(typeof maxDiffPixelRatio === 'number' && maxDiffPixelRatio >= 0 && maxDiffPixelRatio <= 1)) {
    throw new UsageError(`invalid maxDiffPixelRatio ${String(maxDiffPixelRatio)}: expected a number from 0 to 1`);
  }
  return options;
}
