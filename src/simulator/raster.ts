import type { PathCommand } from './font-types.js';

/** How much of each pixel of a box is covered, 0 to 255, rows top to bottom; (x, y) is the box's top-left pixel. */
export interface Mask {
  x: number;
  y: number;
  width: number;
  height: number;
  alpha: Uint8Array;
}

/** Samples per pixel along each axis: 16 levels of coverage, enough for text an OCR engine reads word for word. */
const SS = 4;
const FULL = SS * SS;
/** A curve is cut into straight pieces about this many pixels long (at least 2, at most 32 pieces). */
const PIECE_PX = 3;

/**
 * Fills closed outlines by the non-zero winding rule (TrueType's: Roboto's contours overlap where strokes meet,
 * which an even-odd fill would leave as holes), with 4×4 samples per pixel for antialiased edges.
 * @param commands an outline in pixels, y growing down (opentype.js's `Glyph.getPath`)
 * @returns the covered box, or an empty mask when nothing is covered (a space)
 */
export function fillOutline(commands: readonly PathCommand[]): Mask {
  const edges = flatten(commands);
  if (edges.length === 0) return { x: 0, y: 0, width: 0, height: 0, alpha: new Uint8Array(0) };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < edges.length; i += 5) {
    minX = Math.min(minX, edges[i]!, edges[i + 2]!);
    maxX = Math.max(maxX, edges[i]!, edges[i + 2]!);
    minY = Math.min(minY, edges[i + 1]!);
    maxY = Math.max(maxY, edges[i + 3]!);
  }
  const x0 = Math.floor(minX);
  const y0 = Math.floor(minY);
  const width = Math.ceil(maxX) - x0;
  const height = Math.ceil(maxY) - y0;
  const counts = new Uint8Array(width * height);
  const crossings: number[] = [];
  for (let row = 0; row < height * SS; row++) {
    const sy = y0 + (row + 0.5) / SS;
    crossings.length = 0;
    for (let i = 0; i < edges.length; i += 5) {
      const ey0 = edges[i + 1]!;
      const ey1 = edges[i + 3]!;
      if (sy < ey0 || sy >= ey1) continue;
      const ex0 = edges[i]!;
      crossings.push(ex0 + ((sy - ey0) * (edges[i + 2]! - ex0)) / (ey1 - ey0), edges[i + 4]!);
    }
    sortPairs(crossings);
    const line = Math.floor(row / SS) * width;
    let winding = 0;
    for (let c = 0; c < crossings.length - 2; c += 2) {
      winding += crossings[c + 1]!;
      if (winding === 0) continue;
      // The samples whose centres lie in [from, to): sample s of the row sits at x0 + (s + 0.5) / SS.
      const first = Math.max(0, Math.ceil((crossings[c]! - x0) * SS - 0.5));
      const end = Math.min(width * SS, Math.ceil((crossings[c + 2]! - x0) * SS - 0.5));
      for (let s = first; s < end; s++) counts[line + ((s / SS) | 0)]!++;
    }
  }
  const alpha = new Uint8Array(counts.length);
  for (let i = 0; i < counts.length; i++) alpha[i] = Math.round((Math.min(counts[i]!, FULL) * 255) / FULL);
  return { x: x0, y: y0, width, height, alpha };
}

/**
 * Adds masks together (coverage summed, at most full) into one covering all of them: glyphs into a line of text.
 * @returns an empty mask when every mask is empty
 */
export function mergeMasks(masks: readonly Mask[]): Mask {
  const drawn = masks.filter((m) => m.width > 0 && m.height > 0);
  if (drawn.length === 0) return { x: 0, y: 0, width: 0, height: 0, alpha: new Uint8Array(0) };
  const x0 = Math.min(...drawn.map((m) => m.x));
  const y0 = Math.min(...drawn.map((m) => m.y));
  const width = Math.max(...drawn.map((m) => m.x + m.width)) - x0;
  const height = Math.max(...drawn.map((m) => m.y + m.height)) - y0;
  const alpha = new Uint8Array(width * height);
  for (const m of drawn) {
    for (let y = 0; y < m.height; y++) {
      const into = (m.y - y0 + y) * width + (m.x - x0);
      for (let x = 0, from = y * m.width; x < m.width; x++, from++) alpha[into + x] = Math.min(255, alpha[into + x]! + m.alpha[from]!);
    }
  }
  return { x: x0, y: y0, width, height, alpha };
}

/** The outline as straight edges, flattened `[x0, y0, x1, y1, direction]`, top end first; flat edges dropped. */
function flatten(commands: readonly PathCommand[]): number[] {
  const edges: number[] = [];
  let [startX, startY, x, y] = [0, 0, 0, 0];
  const to = (nx: number, ny: number) => {
    if (ny > y) edges.push(x, y, nx, ny, 1);
    else if (ny < y) edges.push(nx, ny, x, y, -1);
    [x, y] = [nx, ny];
  };
  for (const c of commands) {
    if (c.type === 'M') {
      to(startX, startY);
      [startX, startY, x, y] = [c.x!, c.y!, c.x!, c.y!];
    } else if (c.type === 'L') {
      to(c.x!, c.y!);
    } else if (c.type === 'Q') {
      const [ax, ay] = [x, y];
      const n = pieces(Math.hypot(c.x1! - ax, c.y1! - ay) + Math.hypot(c.x! - c.x1!, c.y! - c.y1!));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        to(u * u * ax + 2 * u * t * c.x1! + t * t * c.x!, u * u * ay + 2 * u * t * c.y1! + t * t * c.y!);
      }
    } else if (c.type === 'C') {
      const [ax, ay] = [x, y];
      const n = pieces(Math.hypot(c.x1! - ax, c.y1! - ay) + Math.hypot(c.x2! - c.x1!, c.y2! - c.y1!) + Math.hypot(c.x! - c.x2!, c.y! - c.y2!));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        to(u * u * u * ax + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t * t * t * c.x!, u * u * u * ay + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t * t * t * c.y!);
      }
    } else {
      to(startX, startY);
    }
  }
  to(startX, startY);
  return edges;
}

function pieces(length: number): number {
  return Math.min(32, Math.max(2, Math.ceil(length / PIECE_PX)));
}

/** Sorts `[x, direction, x, direction, …]` by x: a row crosses a glyph a few times, so insertion sort. */
function sortPairs(pairs: number[]): void {
  for (let i = 2; i < pairs.length; i += 2) {
    const [x, d] = [pairs[i]!, pairs[i + 1]!];
    let j = i - 2;
    while (j >= 0 && pairs[j]! > x) {
      pairs[j + 2] = pairs[j]!;
      pairs[j + 3] = pairs[j + 1]!;
      j -= 2;
    }
    pairs[j + 2] = x;
    pairs[j + 3] = d;
  }
}
