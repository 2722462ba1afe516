import type { Rgb } from '../core/color.js';
import type { Image } from './png.js';

/** Screen pixels on each side of a neighbourhood: the point and four around it each way. */
export const NEIGHBOURHOOD = 9;
/** Side of one screen pixel in the evidence images, so a reviewer sees each one. */
export const CELL = 24;

/** The screen around a point, read once a check has failed. */
export interface Neighbourhood {
  /** The screen pixel of the top-left cell. */
  x0: number;
  y0: number;
  /** The point checked. */
  x: number;
  y: number;
  /** Row by row, {@link NEIGHBOURHOOD} × {@link NEIGHBOURHOOD}; undefined where the read failed or ran out of time. */
  cells: (Rgb | undefined)[];
}

/** The neighbourhood's window: centred on the point, moved in from the top and left edges of the screen. */
export function neighbourhoodOrigin(x: number, y: number): { x0: number; y0: number } {
  const half = Math.floor(NEIGHBOURHOOD / 2);
  return { x0: Math.max(0, x - half), y0: Math.max(0, y - half) };
}

/**
 * The neighbourhood of a point cut out of a whole screen already captured: no read at all. Cells past the
 * screen's right or bottom edge are empty.
 * @param screen the phone's whole screen, from (0, 0)
 */
export function neighbourhoodOf(screen: Image, x: number, y: number): Neighbourhood {
  const { x0, y0 } = neighbourhoodOrigin(x, y);
  const cells = Array.from({ length: NEIGHBOURHOOD * NEIGHBOURHOOD }, (_, i) => {
    const px = x0 + (i % NEIGHBOURHOOD);
    const py = y0 + Math.floor(i / NEIGHBOURHOOD);
    if (px >= screen.width || py >= screen.height) return undefined;
    const o = (py * screen.width + px) * 4;
    return { r: screen.data[o]!, g: screen.data[o + 1]!, b: screen.data[o + 2]! };
  });
  return { x0, y0, x, y, cells };
}

/**
 * The evidence of a failed pixel check as three images for the report's image-diff viewer, each screen pixel a
 * {@link CELL}-sided square and the point ringed (black inside white, seen on any colour): `actual` is the
 * neighbourhood with the point in the colour the check received; `expected` the same with the point in the
 * colour it asked for; `diff` the neighbourhood faded, the point red where the colours differ. A cell that
 * could not be read is a grey checkerboard.
 * @param differs whether the received colour is outside the check's tolerance
 */
export function pixelEvidence(n: Neighbourhood, expected: Rgb, actual: Rgb, differs: boolean): { expected: Image; actual: Image; diff: Image } {
  const centre = (n.y - n.y0) * NEIGHBOURHOOD + (n.x - n.x0);
  const fade = (c: Rgb | undefined) => c && { r: faded(c.r), g: faded(c.g), b: faded(c.b) };
  const withCentre = (c: Rgb) => n.cells.map((cell, i) => (i === centre ? c : cell));
  return {
    actual: render(withCentre(actual), centre),
    expected: render(withCentre(expected), centre),
    diff: render(
      n.cells.map((cell, i) => (i === centre ? (differs ? RED : fade(actual)) : fade(cell))),
      centre,
    ),
  };
}

const RED: Rgb = { r: 255, g: 0, b: 0 };
const faded = (v: number) => Math.round(255 - (255 - v) * 0.1);
const CHECKER = [0xc0, 0xe0];
/** The ring around the point: a black line inside a white one, each this wide. */
const RING = 2;

function render(cells: (Rgb | undefined)[], centre: number): Image {
  const side = NEIGHBOURHOOD * CELL;
  const data = new Uint8Array(side * side * 4);
  const cx = (centre % NEIGHBOURHOOD) * CELL;
  const cy = Math.floor(centre / NEIGHBOURHOOD) * CELL;
  for (let py = 0; py < side; py++) {
    for (let px = 0; px < side; px++) {
      const cell = cells[Math.floor(py / CELL) * NEIGHBOURHOOD + Math.floor(px / CELL)];
      const o = (py * side + px) * 4;
      const ring = ringAt(px - cx, py - cy);
      let r: number, g: number, b: number;
      if (ring !== undefined) r = g = b = ring;
      else if (cell) ({ r, g, b } = cell);
      else r = g = b = CHECKER[(Math.floor(px / 6) + Math.floor(py / 6)) % 2]!;
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
      data[o + 3] = 255;
    }
  }
  return { width: side, height: side, data };
}

/** The ring's shade at (dx, dy) from the point's cell's top-left corner: white outside, black inside, or none. */
function ringAt(dx: number, dy: number): number | undefined {
  const outside = Math.max(-dx, -dy, dx - (CELL - 1), dy - (CELL - 1));
  // outside > 0: beyond the cell by that many pixels; ≤ 0: inside it, that far from its edge.
  if (outside > 0 && outside <= RING) return 255;
  if (outside <= 0 && outside > -RING) return 0;
  return undefined;
}
