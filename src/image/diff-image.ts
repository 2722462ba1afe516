import pixelmatch from 'pixelmatch';
import { LITTLE_ENDIAN, pixels32, type Beyond } from './perceptual.js';

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
 * anti-aliased, but it marks the others: run with threshold 0 and `diffMask`, every pixel whose bytes differ is
 * drawn in `diffColor` unless it is an edge, and nothing else is drawn. Of the pixels beyond the ΔE00 bound,
 * those left blank are edges (drawn yellow); the others count and are drawn red by their distance. Every other
 * pixel, alike or within the bound, is drawn in faded grey, as pixelmatch draws alike pixels.
 * @param expected RGBA, starting on a 4-byte boundary (pixelmatch reads it 32 bits at a time)
 * @param actual the same, with the expected pixels where pixels are masked
 * @param beyond the pixels beyond the bound ({@link pixelsBeyond} of the same images)
 */
export function markDifferences(expected: Uint8Array, actual: Uint8Array, width: number, height: number, beyond: Beyond): Marked {
  const diff = new Uint8Array(width * height * 4);
  pixelmatch(expected, actual, diff, width, height, { threshold: 0, diffMask: true, diffColor: [255, 0, 0] });
  const golden = pixels32(expected);
  const out = pixels32(diff);
  let counted = 0;
  let largest = 0;
  let next = beyond.count ? beyond.index[0]! : -1;
  let k = 0;
  let lastPixel = golden.length ? golden[0]! : 0;
  let lastGrey = golden.length ? grey(expected, 0) : 0;
  for (let i = 0; i < out.length; i++) {
    if (i === next) {
      const d = beyond.delta[k]!;
      next = ++k < beyond.count ? beyond.index[k]! : -1;
      if (diff[i * 4 + 3] === 0) {
        out[i] = YELLOW;
        continue;
      }
      counted++;
      if (d > largest) largest = d;
      // Pale red just beyond a small bound, full red from ΔE00 20 (two colours anyone names differently).
      out[i] = red(Math.round(PALEST * (1 - Math.min(1, d / FULL_RED_AT))));
      continue;
    }
    // A screen repeats its colours row after row: the golden's pixel as the one before costs no arithmetic.
    const pixel = golden[i]!;
    if (pixel !== lastPixel) {
      lastPixel = pixel;
      lastGrey = grey(expected, i * 4);
    }
    out[i] = lastGrey;
  }
  return { counted, largest, antialiased: beyond.count - counted, diff };
}

/** How much of the golden shows in the grey of alike pixels: pixelmatch's default `alpha`. */
const FADE = 0.1;
/** The green and blue of the palest red: still plain against the faded grey (229–255). */
const PALEST = 170;
const FULL_RED_AT = 20;
const YELLOW = packed(255, 255, 0);

/** pixelmatch's drawGrayPixel: the golden's luma (YIQ's Y), faded towards white, as one packed pixel. */
function grey(expected: Uint8Array, at: number): number {
  const luma = expected[at]! * 0.29889531 + expected[at + 1]! * 0.58662247 + expected[at + 2]! * 0.11448223;
  const v = Math.trunc(255 + ((luma - 255) * FADE * expected[at + 3]!) / 255);
  return packed(v, v, v);
}

function red(pale: number): number {
  return packed(255, pale, pale);
}

/** An opaque pixel as an Int32 of the platform's byte order (see {@link pixels32}). */
function packed(r: number, g: number, b: number): number {
  return LITTLE_ENDIAN ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255;
}
