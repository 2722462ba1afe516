// A phone's screen made small enough for a model to read: its long side at most a given length, each pixel of
// the picture the mean of the phone's pixels it covers (a box filter: text stays legible, no colour is made up).
import type { Image } from '../image/index.js';

/** The long side of a screen sent to a model unless asked: what vision models read without resizing again. */
export const MAX_SIDE = 1280;

/**
 * The image scaled so that its long side is at most `maxSide`, and the scale (picture pixels per phone pixel,
 * ≤ 1); the image itself, scale 1, when it fits.
 * @param image an RGBA image
 * @param maxSide the longest side allowed
 */
export function fitImage(image: Image, maxSide: number): { image: Image; scale: number } {
  const long = Math.max(image.width, image.height);
  if (long <= maxSide) return { image, scale: 1 };
  const scale = maxSide / long;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const data = new Uint8Array(width * height * 4);
  const src = image.data;
  // Each target pixel averages the source pixels whose top-left corner falls in its box.
  const xs = bounds(image.width, width);
  const ys = bounds(image.height, height);
  for (let ty = 0; ty < height; ty++) {
    const y0 = ys[ty]!;
    const y1 = ys[ty + 1]!;
    for (let tx = 0; tx < width; tx++) {
      const x0 = xs[tx]!;
      const x1 = xs[tx + 1]!;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = y0; y < y1; y++) {
        let i = (y * image.width + x0) * 4;
        for (let x = x0; x < x1; x++, i += 4) {
          r += src[i]!;
          g += src[i + 1]!;
          b += src[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (ty * width + tx) * 4;
      data[o] = Math.round(r / n);
      data[o + 1] = Math.round(g / n);
      data[o + 2] = Math.round(b / n);
      data[o + 3] = 255;
    }
  }
  return { image: { width, height, data }, scale: Math.round((width / image.width) * 10_000) / 10_000 };
}

/** Where each of `to` boxes starts along a side of `from` pixels, and where the last ends: every box at least one pixel. */
function bounds(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = 0; i <= to; i++) out.push(Math.min(from, Math.max(i, Math.floor((i * from) / to))));
  for (let i = 1; i <= to; i++) if (out[i]! <= out[i - 1]!) out[i] = Math.min(from, out[i - 1]! + 1);
  return out;
}
