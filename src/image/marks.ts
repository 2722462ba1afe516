import type { Image } from './png.js';
import type { Rect } from './region.js';

/** What a failure looked at, drawn on the phone's screen: points ringed, regions framed. */
export interface ScreenMarks {
  points?: { x: number; y: number }[];
  regions?: Rect[];
  /**
   * The lines of text read on the screen (OCR) for the check, each where it was read: not drawn into the PNG (it has
   * no font), but boxed and labelled over it in an SVG of their own ({@link textsSvg}).
   */
  texts?: TextRead[];
}

/** A line of text read on the screen, and its box there. */
export interface TextRead {
  text: string;
  box: Rect;
}

/** Outer and inner colours of a mark: black then white, visible on any screen, light or dark. */
const DARK = [0, 0, 0] as const;
const LIGHT = [255, 255, 255] as const;

/**
 * Draws marks on a copy of a screen: a ring around each point, leaving the point itself and a pixel around it
 * untouched so its colour can still be seen, and a frame just outside each region. Each mark is three lines
 * (dark, light, dark) so it shows on any colour. The marks grow with the screen (on a 1080-wide one a ring of
 * 45 px and lines of 4 px), so they are found at a glance in a report that shows the screen a third of its size.
 * @param screen the whole screen as captured
 */
export function markScreen(screen: Image, marks: ScreenMarks): Image {
  const out: Image = { width: screen.width, height: screen.height, data: screen.data.slice() };
  const side = Math.min(screen.width, screen.height);
  const line = Math.max(2, Math.round(side / 270));
  const radius = Math.max(6, Math.round(side / 24));
  for (const p of marks.points ?? []) ring(out, p.x, p.y, radius, line);
  for (const r of marks.regions ?? []) frame(out, r, line);
  return out;
}

/** Three concentric bands from `inner` outwards: dark, light, dark. */
function ring(img: Image, cx: number, cy: number, inner: number, line: number): void {
  const outer = inner + 3 * line;
  for (let y = Math.max(0, cy - outer); y <= Math.min(img.height - 1, cy + outer); y++) {
    for (let x = Math.max(0, cx - outer); x <= Math.min(img.width - 1, cx + outer); x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d < inner || d >= outer) continue;
      paint(img, x, y, Math.floor((d - inner) / line) === 1 ? LIGHT : DARK);
    }
  }
}

/** Three bands just outside the rectangle (clipped to the screen): dark, light, dark. */
function frame(img: Image, r: Rect, line: number): void {
  for (let band = 0; band < 3 * line; band++) {
    const colour = Math.floor(band / line) === 1 ? LIGHT : DARK;
    const x0 = r.x - 1 - band;
    const y0 = r.y - 1 - band;
    const x1 = r.x + r.width + band;
    const y1 = r.y + r.height + band;
    for (let x = x0; x <= x1; x++) {
      paint(img, x, y0, colour);
      paint(img, x, y1, colour);
    }
    for (let y = y0; y <= y1; y++) {
      paint(img, x0, y, colour);
      paint(img, x1, y, colour);
    }
  }
}

function paint(img: Image, x: number, y: number, [r, g, b]: readonly [number, number, number]): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  const o = (y * img.width + x) * 4;
  img.data[o] = r;
  img.data[o + 1] = g;
  img.data[o + 2] = b;
  img.data[o + 3] = 255;
}
