// The bands of a screen that hold anything: rows of one colour cut it into them, as they cut a page into its
// blocks (the classic X-Y cut, along rows only). A screen drawn in flat colour (a form, a settings list) is mostly
// empty rows, and the text detector then looks at its bands alone rather than at the whole screen; a photo or a
// gradient is one band, the whole screen. Pure: no I/O.
import type { Image } from './png.js';

/** A horizontal band of an image: its first row and its height. */
export interface Band {
  y: number;
  height: number;
}

/** A channel difference up to this still counts as one colour: a capture's rounding, never an anti-aliased edge. */
const SAME_COLOUR = 6;
/** Empty rows that end a band: fewer is the space between two lines of one paragraph, kept in one band. */
const GAP = 24;
/** Rows of margin kept around a band's content, so the detector sees each line with space around it. */
const MARGIN = 8;

/** The bands of an image that hold anything but their row's colour, top to bottom, with a margin around each. */
export function contentBands(image: Image): Band[] {
  const bands: Band[] = [];
  let start = -1;
  let end = 0;
  for (let y = 0; y < image.height; y++) {
    if (!rowIsOneColour(image, y)) {
      if (start < 0) start = y;
      end = y + 1;
    } else if (start >= 0 && y - end >= GAP) {
      bands.push(band(start, end, image.height));
      start = -1;
    }
  }
  if (start >= 0) bands.push(band(start, end, image.height));
  return bands;
}

function band(start: number, end: number, height: number): Band {
  const y = Math.max(0, start - MARGIN);
  return { y, height: Math.min(height, end + MARGIN) - y };
}

function rowIsOneColour(image: Image, y: number): boolean {
  const d = image.data;
  const o = y * image.width * 4;
  for (let i = o + 4, end = o + image.width * 4; i < end; i += 4) {
    if (Math.abs(d[i]! - d[o]!) > SAME_COLOUR || Math.abs(d[i + 1]! - d[o + 1]!) > SAME_COLOUR || Math.abs(d[i + 2]! - d[o + 2]!) > SAME_COLOUR) return false;
  }
  return true;
}
