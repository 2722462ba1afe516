import { parseDeltaE } from '../core/delta-e.js';
import { UsageError } from '../core/errors.js';
import type { Rgb } from '../core/color.js';
import { markDifferences } from './diff-image.js';
import { aligned, pixels32, pixelsBeyond } from './perceptual.js';
import type { Image } from './png.js';

/** How different two images may be and still match: per pixel in ΔE00, as a point check, and how many pixels. */
export interface CompareOptions {
  /**
   * The largest CIEDE2000 distance (sRGB, D65) at which a pixel still counts as the golden's colour: below 1
   * no one sees a difference, 2.3 is just noticeable, 0 asks for the same bytes. A pixel beyond it that is
   * an anti-aliased edge (pixelmatch's detector) does not count.
   * @default 2.3
   */
  deltaE?: number;
  /** Pixels allowed to differ. @default 0 */
  maxDiffPixels?: number;
  /** Share of pixels allowed to differ, 0 to 1. @default 0 */
  maxDiffPixelRatio?: number;
  /**
   * @deprecated Refused with a UsageError: pixelmatch's YIQ threshold passed a hue swap of equal brightness
   * (blue turned brown). Regions compare in ΔE00: give `deltaE` instead.
   */
  threshold?: never;
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

/** The just-noticeable difference in ΔE00: a region's default bound, as a point's advice. */
export const DEFAULT_DELTA_E = 2.3;

/**
 * Compares two images pixel by pixel in CIEDE2000, with Playwright's image comparator's shape: "not equal" is
 * a result, not an exception. A pixel counts as different when it is farther than `deltaE` from the golden's
 * and is not an anti-aliased edge. Returns null when no more pixels differ than the options allow.
 * @param expected the golden image
 * @param actual the image just taken
 * @param ignored pixels never compared, whatever either image holds there
 */
export function compareImages(expected: Image, actual: Image, options: CompareOptions = {}, ignored?: Ignored): Mismatch | null {
  const { deltaE: bound = DEFAULT_DELTA_E, maxDiffPixels = 0, maxDiffPixelRatio = 0 } = checkCompareOptions(options);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    return {
      errorMessage: `Expected an image ${expected.width}px by ${expected.height}px, received ${actual.width}px by ${actual.height}px.`,
      diffPixels: Math.max(expected.width * expected.height, actual.width * actual.height),
      diff: undefined,
    };
  }
  const { width, height } = expected;
  const allowed = Math.max(maxDiffPixels, Math.floor(maxDiffPixelRatio * width * height));
  const golden = aligned(expected.data);
  const beyond = pixelsBeyond(pixels32(golden), pixels32(actual.data), bound, ignored?.masked);
  // Edges only take pixels off the count: within the allowance without them, the images match.
  if (beyond.count <= allowed) return null;
  const compared = ignored ? withPixelsOf(golden, actual.data, ignored.masked) : aligned(actual.data);
  const marked = markDifferences(golden, compared, width, height, beyond);
  if (marked.counted <= allowed) return null;
  if (ignored) paint(marked.diff, ignored);
  const ratio = Math.round((marked.counted / (width * height)) * 10_000) / 100;
  const edges = marked.antialiased ? ` ${marked.antialiased} more on anti-aliased edges, not counted.` : '';
  return {
    errorMessage: `${marked.counted} pixels (${ratio}% of ${width}×${height}) are different by more than ΔE00 ${bound} (largest ${marked.largest.toFixed(1)}); ${allowed} allowed.${edges}`,
    diffPixels: marked.counted,
    diff: { width, height, data: marked.diff },
  };
}

/** Refuses options no comparison can use, before any work is done. */
export function checkCompareOptions(options: CompareOptions): CompareOptions {
  const { deltaE, maxDiffPixels, maxDiffPixelRatio } = options;
  const threshold: unknown = options.threshold;
  if (threshold !== undefined) {
    throw new UsageError(
      `threshold ${String(threshold)} is no longer read: it was pixelmatch's YIQ threshold, which passes a blue turned brown of equal brightness; a region compares each pixel in ΔE00, as a point does`,
      { hint: `replace threshold with deltaE, the largest CIEDE2000 distance a pixel may be off: { deltaE: ${DEFAULT_DELTA_E} } (the default, just noticeable), { deltaE: 0 } for the same bytes` },
    );
  }
  if (deltaE !== undefined) parseDeltaE(deltaE);
  if (maxDiffPixels !== undefined && !(Number.isInteger(maxDiffPixels) && maxDiffPixels >= 0)) {
    throw new UsageError(`invalid maxDiffPixels ${String(maxDiffPixels)}: expected a whole number ≥ 0`);
  }
  if (maxDiffPixelRatio !== undefined && !(typeof maxDiffPixelRatio === 'number' && maxDiffPixelRatio >= 0 && maxDiffPixelRatio <= 1)) {
    throw new UsageError(`invalid maxDiffPixelRatio ${String(maxDiffPixelRatio)}: expected a number from 0 to 1`);
  }
  return options;
}

/** A copy of `actual`'s pixels, with `expected`'s where `masked` says: those compare equal. */
function withPixelsOf(expected: Uint8Array, actual: Uint8Array, masked: Uint8Array): Uint8Array {
  const out = new Uint8Array(actual);
  for (let i = 0; i < masked.length; i++) if (masked[i]) out.set(expected.subarray(i * 4, i * 4 + 4), i * 4);
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
