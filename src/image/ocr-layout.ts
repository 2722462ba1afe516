// Where the text on a phone's screen can be: the screen cut, again and again, along rows and columns of one colour
// (the classic X-Y cut) into the blocks it is made of: a title, a label, a button, the line of text inside the
// button. Each block is recognised on its own. Read whole, a screen is one page to the OCR engine, which judges
// its ink and paper once for all of it: light text on a button (a dark block on a light page) then reads as
// paper, and a line far below the others is dropped. Pure: no I/O.
import type { Rect } from '../core/screen.js';
import type { Image } from './png.js';

/** A channel difference up to this still counts as one colour: a capture's rounding, never an anti-aliased edge. */
const SAME_COLOUR = 6;
/** How deep the cuts go: a screen, a panel, a row, a button, its text, a word group. */
const MAX_DEPTH = 6;
/** Blocks smaller than this (px) hold no text a person reads. */
const MIN_HEIGHT = 6;
const MIN_WIDTH = 4;

/**
 * The blocks of an image that may hold text, top to bottom. Rows of one colour always separate blocks; columns of
 * one colour only when the gap is at least as wide as the band is high (wider than a space between two words). A
 * screen with no such rows or columns (a photo, a gradient) is one block.
 */
export function textBlocks(image: Image): Rect[] {
  const blocks: Rect[] = [];
  const cut = (r: Rect, depth: number): void => {
    for (const band of runs(r.height, 1, (i) => rowIsOneColour(image, r.y + i, r.x, r.x + r.width))) {
      const b = { x: r.x, y: r.y + band.start, width: r.width, height: band.end - band.start };
      for (const col of runs(b.width, Math.max(8, b.height), (i) => columnIsOneColour(image, b.x + i, b.y, b.y + b.height))) {
        const c = { x: b.x + col.start, y: b.y, width: col.end - col.start, height: b.height };
        const same = c.x === r.x && c.y === r.y && c.width === r.width && c.height === r.height;
        if (!same && depth < MAX_DEPTH) cut(c, depth + 1);
        else if (c.height >= MIN_HEIGHT && c.width >= MIN_WIDTH) blocks.push(c);
      }
    }
  };
  cut({ x: 0, y: 0, width: image.width, height: image.height }, 0);
  return blocks;
}

/** A block cut out of an image with a margin of `pad` pixels (inside the image): its own image, and where it was. */
export function cropWithMargin(image: Image, r: Rect, pad: number): { image: Image; at: Rect } {
  const x0 = Math.max(0, r.x - pad);
  const y0 = Math.max(0, r.y - pad);
  const x1 = Math.min(image.width, r.x + r.width + pad);
  const y1 = Math.min(image.height, r.y + r.height + pad);
  const width = x1 - x0;
  const height = y1 - y0;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) data.set(image.data.subarray(((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x1) * 4), y * width * 4);
  return { image: { width, height, data }, at: { x: x0, y: y0, width, height } };
}

/** The runs of `n` lines that are not one colour, split where at least `minGap` lines in a row are. */
function runs(n: number, minGap: number, oneColour: (i: number) => boolean): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = -1;
  let end = 0;
  let gap = 0;
  for (let i = 0; i < n; i++) {
    if (!oneColour(i)) {
      if (start < 0) start = i;
      end = i + 1;
      gap = 0;
    } else if (start >= 0 && ++gap >= minGap) {
      out.push({ start, end });
      start = -1;
    }
  }
  if (start >= 0) out.push({ start, end });
  return out;
}

function rowIsOneColour(image: Image, y: number, x0: number, x1: number): boolean {
  const o = (y * image.width + x0) * 4;
  for (let x = x0 + 1; x < x1; x++) if (!same(image.data, o, (y * image.width + x) * 4)) return false;
  return true;
}

function columnIsOneColour(image: Image, x: number, y0: number, y1: number): boolean {
  const o = (y0 * image.width + x) * 4;
  for (let y = y0 + 1; y < y1; y++) if (!same(image.data, o, (y * image.width + x) * 4)) return false;
  return true;
}

function same(d: Uint8Array, a: number, b: number): boolean {
  return Math.abs(d[a]! - d[b]!) <= SAME_COLOUR && Math.abs(d[a + 1]! - d[b + 1]!) <= SAME_COLOUR && Math.abs(d[a + 2]! - d[b + 2]!) <= SAME_COLOUR;
}
