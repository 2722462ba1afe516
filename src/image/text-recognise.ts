// What a line of text says: the input a CRNN/SVTR recogniser (PaddleOCR's PP-OCR recogniser) takes for a line
// box, and the text read back from its per-column character scores by CTC's greedy decoding (Graves et
// al., 2006: the best character of each column, repeats merged, blanks dropped). Each character's column says
// where it is, so a line comes back as words with their own boxes. Pure: no I/O.
import type { Rect } from '../core/screen.js';
import { resizeToPlanes } from './text-detect.js';
import type { Image } from './png.js';

/** A word read: its text and box in screen pixels, and the recogniser's mean confidence (0–1). */
export interface ReadToken extends Rect {
  text: string;
  confidence: number;
}

/** A line box as the recogniser's input: scaled to its height, keeping its proportions. */
export interface RecogniseInput {
  data: Float32Array;
  /** The input's width: the box's once scaled, rounded up to whole columns; the columns past `scaledWidth` are padding. */
  width: number;
  /** The box's width once scaled, in input pixels. */
  scaledWidth: number;
}

/** The recogniser's input height, fixed by the model. */
export const LINE_HEIGHT = 48;
/** Input pixels per output column: the model's horizontal stride. */
const COLUMN = 8;
/** A character whose best score is below this is dropped: the column is noise, an icon's edge. */
const MIN_CHAR_SCORE = 0.3;

/**
 * The recogniser's input for one line box of an image: cut out, scaled to {@link LINE_HEIGHT} keeping its
 * proportions. One box a run: PaddleOCR batches six, padded to the widest, and on one thread the padding is read like
 * text (the corpus's lines took 5.9 s in batches of six, 3.8 s one by one).
 */
export function recogniseInput(image: Image, box: Rect): RecogniseInput {
  const scaledWidth = Math.max(COLUMN, Math.ceil((LINE_HEIGHT * box.width) / Math.max(1, box.height)));
  const width = Math.ceil(scaledWidth / COLUMN) * COLUMN;
  return { data: resizeToPlanes(image, box, scaledWidth, LINE_HEIGHT, (v) => v / 127.5 - 1, width), width, scaledWidth };
}

/**
 * The words of one line from the recogniser's scores: CTC's greedy decoding, the line split at spaces (a run of
 * Chinese characters, which has none, is one word), each word boxed from the columns of its first and last
 * character.
 * @param scores the line's scores, `columns` × `alphabet.length + 2` (blank first, space last)
 * @param alphabet the model's characters, in its order
 * @param box the line's box on the screen
 * @param scaledWidth the box's width in input pixels
 * @param spelt per class of the alphabet (blank first and space last aside), what it is read as in the screen's
 * languages: itself, the plain letters of a letter they lack (é as e), or undefined where they have nothing like it
 * (a Chinese character on an English screen), and the column's next best class is taken
 */
export function decodeLine(scores: Float32Array, columns: number, alphabet: readonly string[], box: Rect, scaledWidth: number, spelt?: readonly (string | undefined)[]): ReadToken[] {
  const classes = alphabet.length + 2;
  const space = classes - 1;
  const chars: { text: string; from: number; to: number; score: number }[] = [];
  let prev = 0;
  for (let t = 0; t < columns; t++) {
    let best = 0;
    let score = scores[t * classes]!;
    for (let c = 1; c < classes; c++) {
      const s = scores[t * classes + c]!;
      if (s > score && (!spelt || c === space || spelt[c - 1] !== undefined)) [best, score] = [c, s];
    }
    // Repeats merge by the class read, before it is spelt: "ée" read as e and e stays two letters.
    if (best !== 0 && best === prev) chars[chars.length - 1]!.to = t;
    else if (best !== 0 && score >= MIN_CHAR_SCORE) chars.push({ text: best === space ? ' ' : (spelt?.[best - 1] ?? alphabet[best - 1]!), from: t, to: t, score });
    prev = best;
  }
  // Columns to screen pixels: a column covers COLUMN input pixels of the box scaled to scaledWidth.
  const px = (t: number) => box.x + Math.min(box.width, Math.max(0, Math.round((t * COLUMN * box.width) / scaledWidth)));
  const runs: (typeof chars)[] = [[]];
  for (const c of chars) {
    if (c.text === ' ') runs.push([]);
    else runs[runs.length - 1]!.push(c);
  }
  const kept = runs.filter((r) => r.length);
  // A character's column is where its score peaks, inside the letter, not at its edge: the line's words meet
  // halfway between one's last character and the next one's first, and the first and last reach the line's ends.
  const edges = kept.map((r, i) => {
    const left = i === 0 ? box.x : px((kept[i - 1]!.at(-1)!.to + 1 + r[0]!.from) / 2);
    const right = i === kept.length - 1 ? box.x + box.width : px((r.at(-1)!.to + 1 + kept[i + 1]![0]!.from) / 2);
    return [left, Math.max(left + 1, right)] as const;
  });
  const words: ReadToken[] = kept.map((r, i) => {
    const [left, right] = edges[i]!;
    return { text: r.map((c) => c.text).join(''), x: left, y: box.y, width: right - left, height: box.height, confidence: r.reduce((s, c) => s + c.score, 0) / r.length };
  });
  return words;
}
