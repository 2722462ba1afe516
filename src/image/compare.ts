import pixelmatch from 'pixelmatch';
import { UsageError } from '../core/errors.js';
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

/**
 * Compares two images the way Playwright's image comparator does: "not equal" is a result, not an exception.
 * Returns null when they match within the options.
 * @param expected the golden image
 * @param actual the image just taken
 */
export function compareImages(expected: Image, actual: Image, options: CompareOptions = {}): Mismatch | null {
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
  const diffPixels = pixelmatch(expected.data, actual.data, diff, width, height, { threshold });
  const allowed = Math.max(maxDiffPixels, Math.floor(maxDiffPixelRatio * width * height));
  if (diffPixels <= allowed) return null;
  const ratio = Math.round((diffPixels / (width * height)) * 10_000) / 100;
  return {
    errorMessage: `${diffPixels} pixels (${ratio}% of ${width}×${height}) are different; ${allowed} allowed (threshold ${threshold}).`,
    diffPixels,
    diff: { width, height, data: diff },
  };
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
