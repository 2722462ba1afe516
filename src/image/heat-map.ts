import { aligned, pixels32, pixelsBeyond } from './perceptual.js';
import type { Image } from './png.js';
import type { Rect } from './region.js';

/**
 * The colours of the heat map by ΔE00, from a change nobody sees to one anyone names differently: [ΔE00, r, g, b],
 * drawn between stops by straight lines. 2.3 is the just-noticeable difference. The review's legend draws the same.
 */
export const HEAT_STOPS: readonly (readonly [number, number, number, number])[] = [
  [0, 198, 219, 239],
  [2.3, 65, 182, 196],
  [5, 254, 217, 118],
  [10, 253, 141, 60],
  [20, 227, 26, 28],
  [40, 128, 0, 38],
];

/** What a heat map shows, besides its picture. */
export interface HeatMap {
  image: Image;
  /** Pixels whose colours differ at all (masked ones not counted). */
  changed: number;
  /** The largest ΔE00 among them (0 when none). */
  largest: number;
}

/**
 * Two images of one size compared pixel by pixel in ΔE00 (as a region check compares them), drawn as a heat map:
 * a pixel alike in both in the golden's faded grey, so the screen stays recognisable; one that differs in the
 * colour of its distance ({@link HEAT_STOPS}); a masked pixel striped in magenta, the colour masks are drawn in.
 * Undefined when the sizes differ.
 * @param masks parts left out, in the images' coordinates
 */
export function heatMap(expected: Image, actual: Image, masks: readonly Rect[] = []): HeatMap | undefined {
  const { width, height } = expected;
  if (actual.width !== width || actual.height !== height) return undefined;
  const masked = masks.length ? maskOf(width, height, masks) : undefined;
  const beyond = pixelsBeyond(pixels32(expected.data), pixels32(actual.data), 0, masked);
  const out = new Uint8Array(width * height * 4);
  const golden = aligned(expected.data);
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    if (masked?.[i]) {
      // Stripes four pixels wide, slanting down to the right.
      const x = i % width;
      const y = (i - x) / width;
      out.set((x + y) % 8 < 4 ? [255, 0, 255, 255] : [255, 214, 255, 255], o);
      continue;
    }
    const v = faded(golden[o]!, golden[o + 1]!, golden[o + 2]!);
    out[o] = out[o + 1] = out[o + 2] = v;
    out[o + 3] = 255;
  }
  let largest = 0;
  for (let k = 0; k < beyond.count; k++) {
    const d = beyond.delta[k]!;
    if (d > largest) largest = d;
    out.set(heatColour(d), beyond.index[k]! * 4);
  }
  return { image: { width, height, data: out }, changed: beyond.count, largest };
}

/**
 * The colour of a distance on the heat map, as RGBA.
 * @param d ΔE00, more than 0
 */
export function heatColour(d: number): [number, number, number, number] {
  let i = 1;
  while (i < HEAT_STOPS.length - 1 && d > HEAT_STOPS[i]![0]) i++;
  const [d0, r0, g0, b0] = HEAT_STOPS[i - 1]!;
  const [d1, r1, g1, b1] = HEAT_STOPS[i]!;
  const t = Math.max(0, Math.min(1, (d - d0) / (d1 - d0)));
  return [Math.round(r0 + (r1 - r0) * t), Math.round(g0 + (g1 - g0) * t), Math.round(b0 + (b1 - b0) * t), 255];
}

/** 1 where a pixel is masked, row by row. */
function maskOf(width: number, height: number, masks: readonly Rect[]): Uint8Array {
  const m = new Uint8Array(width * height);
  for (const r of masks) {
    for (let y = Math.max(0, r.y); y < Math.min(height, r.y + r.height); y++) {
      m.fill(1, y * width + Math.max(0, r.x), y * width + Math.min(width, r.x + r.width));
    }
  }
  return m;
}

/** The golden's luma (YIQ's Y) faded towards white, as pixelmatch draws pixels that are alike. */
function faded(r: number, g: number, b: number): number {
  const luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223;
  return Math.round(255 + (luma - 255) * 0.1);
}
