import pixelmatch from 'pixelmatch';
import type { Beyond } from './perceptual.js';

/** The pixels beyond the bound, sorted into differences and anti-aliased edges, and the image that shows them. */
export interface Marked {
  /** Pixels that differ beyond the bound and are not an anti-aliased edge: what the verdict counts. */
  counted: number;
  /** The largest ΔE00 among them (0 when none). */
  largest: number;
  /** Pixels beyond the bound that pixelmatch takes for an anti-aliased edge: drawn yellow, not counted. */
  antialiased: number;
  /** RGBA: faded grey where alike, red where different (the stronger, the farther), yellow on edges. */
  diff: Uint8Array;
}

/**
 * Tells a real difference from an anti-aliased edge with pixelmatch's own detector (V. Vysniauskas, "Anti-aliased
 * Pixel and Intensity Slope Detector", 2009), and draws the diff. pixelmatch does not say which pixels it found
 * anti-aliased, but it draws them: run with threshold 0, every pixel whose bytes differ is drawn either in
 * `aaColor` (an edge) or in `diffColor`, and every other pixel in faded grey. Of the pixels beyond the ΔE00
 * bound, those drawn in `aaColor` are edges; the others count and are drawn red by their distance. A pixel that
 * differs within the bound is drawn grey, as alike.
 * @param expected RGBA, starting on a 4-byte boundary (pixelmatch reads it 32 bits at a time)
 * @param actual the same, with the expected pixels where pixels are masked
 * @param beyond the pixels beyond the bound ({@link pixelsBeyond} of the same images)
 */
export function markDifferences(expected: Uint8Array, actual: Uint8Array, width: number, height: number, beyond: Beyond): Marked {
  const diff = new Uint8Array(width * height * 4);
  pixelmatch(expected, actual, diff, width, height, { threshold: 0, alpha: FADE, aaColor: YELLOW, diffColor: RED });
  let counted = 0;
  let largest = 0;
  for (let k = 0; k < beyond.count; k++) {
    const at = beyond.index[k]! * 4;
    if (diff[at + 1] === 255 && diff[at + 2] === 0) continue; // yellow: an edge
    const d = beyond.delta[k]!;
    counted++;
    if (d > largest) largest = d;
    // Pale red just beyond a small bound, full red from ΔE00 20 (two colours anyone names differently).
    const pale = Math.round(PALEST * (1 - Math.min(1, d / FULL_RED_AT)));
    diff[at] = 255;
    diff[at + 1] = pale;
    diff[at + 2] = pale;
    diff[at + 3] = 255;
  }
  redrawWithin(expected, actual, diff, beyond);
  return { counted, largest, antialiased: beyond.count - counted, diff };
}

const FADE = 0.1;
const YELLOW: [number, number, number] = [255, 255, 0];
const RED: [number, number, number] = [255, 0, 0];
/** The green and blue of the palest red: still plain against the faded grey (229–255). */
const PALEST = 170;
const FULL_RED_AT = 20;

/** Pixels that differ within the bound: pixelmatch drew them as differences; they are alike, so faded grey. */
function redrawWithin(expected: Uint8Array, actual: Uint8Array, diff: Uint8Array, beyond: Beyond): void {
  const a = new Uint32Array(expected.buffer, expected.byteOffset, expected.byteLength >> 2);
  const b = new Uint32Array(actual.buffer, actual.byteOffset, actual.byteLength >> 2);
  let next = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (next < beyond.count && beyond.index[next] === i) {
      next++;
      continue;
    }
    // pixelmatch's drawGrayPixel: the golden's luma (YIQ's Y), faded towards white.
    const at = i * 4;
    const luma = expected[at]! * 0.29889531 + expected[at + 1]! * 0.58662247 + expected[at + 2]! * 0.11448223;
    const grey = 255 + ((luma - 255) * FADE * expected[at + 3]!) / 255;
    diff[at] = grey;
    diff[at + 1] = grey;
    diff[at + 2] = grey;
    diff[at + 3] = 255;
  }
}
