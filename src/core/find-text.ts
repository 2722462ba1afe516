// How a text is found among the lines read from a screen (OCR), as Playwright's getByText finds it among a page's
// elements, a line read standing for an element: a substring, case and whitespace aside, unless exact, which is
// the whole line (whitespace aside, case kept); a RegExp tested on each line. What is found is located by its own
// characters, not by the line or by whole words. Pure: no I/O.
import type { Rect } from './screen.js';

/** A word read from the screen, where it is: a token as the engine gave it (a run of Chinese may be one). */
export interface ReadWord extends Rect {
  text: string;
}

/** A line of words read from the screen. */
export interface ReadLine {
  words: ReadWord[];
}

/** A text found among the lines read: what was read there, on which line, where, and how far its spelling is from the one asked. */
export interface TextHit {
  /** The characters found, as read; a space where a word starts among them. */
  read: string;
  /** The whole line they are on, its words joined by one space: the text of what was found, as an element's is. */
  line: string;
  /** Where the characters found are. */
  box: Rect;
  /** Letters to change, add or drop to make one the other (whitespace and case aside); 0 for the text itself. */
  distance: number;
}

/**
 * How many letters of the text asked may be misread: one in six, rounded down, so none for a text of five
 * characters or fewer. OCR misreads a letter now and then; any more, and neighbours that differ by one letter
 * ("Item 12a", "Item 12b") would stand in for each other.
 */
const LETTERS_PER_MISREAD = 6;

/** The characters drawn as one upright stroke in a sans-serif font. */
const STROKE = new Set(['I', 'l', '|']);

/** An edit the spelling distance never makes: a digit changed, added or dropped ("09:08" is not "09:06"). */
const NEVER = 1 << 20;

/**
 * Finds a text among the lines read from the screen, top to bottom then left to right. A string is a substring of
 * a line, case and whitespace aside (OCR splits words and runs them together: "Signin"; Chinese is matched
 * character by character, without spaces), every place it is; `exact` asks for the whole line, case kept,
 * whitespace aside, never part of a longer line. A RegExp is tested on each line's words joined by one space,
 * every match. Each hit is boxed by its own characters, a word's box shared evenly among its characters.
 *
 * A string that is read exactly nowhere, and is not `exact`, is found where it is read a few letters off
 * ({@link LETTERS_PER_MISREAD}), digits never: only the hits nearest it, each with its distance, which the caller
 * must say. A text read exactly anywhere wins over every misread one. Never a text that is not there.
 * @param lines the lines read, each its words left to right
 * @param want the text asked, or a RegExp
 * @param exact the whole line, case kept @default false
 */
export function findText(lines: readonly ReadLine[], want: string | RegExp, exact = false): TextHit[] {
  const read = lines.map(charsOf);
  const found = read.flatMap((line) => (want instanceof RegExp ? matchesOf(line, want) : exact ? wholeLine(line, want) : occurrences(line, want)));
  if (found.length || exact || want instanceof RegExp) return ordered(found);
  const misread = read.flatMap((line) => nearby(line, want));
  const least = Math.min(...misread.map((h) => h.distance));
  return ordered(misread.filter((h) => h.distance === least));
}

/** The smallest rectangle holding every rectangle given. */
export function boxOf(boxes: readonly Rect[]): Rect {
  const x = Math.min(...boxes.map((w) => w.x));
  const y = Math.min(...boxes.map((w) => w.y));
  const right = Math.max(...boxes.map((w) => w.x + w.width));
  const bottom = Math.max(...boxes.map((w) => w.y + w.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** A character of a line read, whitespace left out, with its share of its word's box. */
interface Char {
  text: string;
  /** Lower case, for a text that is not exact; per character, so that folding never moves a character. */
  folded: string;
  left: number;
  right: number;
  /** Its word's index in the line. */
  word: number;
  /** Whether whitespace, or the edge of a word read, comes before it: where a word starts. */
  gap: boolean;
}

/** A line read as characters, and as text: its words joined by one space. */
interface Line {
  words: readonly ReadWord[];
  chars: Char[];
  text: string;
  /** For each UTF-16 unit of `text`, the index of its character in `chars`; -1 for whitespace. */
  at: number[];
}

function charsOf(line: ReadLine): Line {
  const chars: Char[] = [];
  const at: number[] = [];
  line.words.forEach((w, word) => {
    if (word > 0) at.push(-1);
    // Code points, not UTF-16 units: a character outside the BMP is one character of the word's width.
    const points = Array.from(w.text);
    const share = w.width / Math.max(1, points.length);
    let gap = true;
    points.forEach((text, k) => {
      const blank = /\s/u.test(text);
      for (let u = 0; u < text.length; u++) at.push(blank ? -1 : chars.length);
      if (!blank) chars.push({ text, folded: text.toLowerCase(), left: w.x + k * share, right: w.x + (k + 1) * share, word, gap });
      gap = blank;
    });
  });
  return { words: line.words, chars, text: line.words.map((w) => w.text).join(' '), at };
}

/** The line when it is the text, case kept, whitespace aside. */
function wholeLine(line: Line, want: string): TextHit[] {
  const need = Array.from(want.replace(/\s+/gu, ''));
  const same = need.length === line.chars.length && need.every((c, i) => c === line.chars[i]!.text || oneGlyph(c, line.chars[i]!.text));
  return same ? [hit(line, 0, line.chars.length, 0)] : [];
}

/** Every place in the line the text is, case and whitespace aside, none overlapping another. */
function occurrences(line: Line, want: string): TextHit[] {
  const need = folded(want);
  const asked = Array.from(want.replace(/\s+/gu, ''));
  const hits: TextHit[] = [];
  for (let i = 0; i + need.length <= line.chars.length; ) {
    if (need.every((c, k) => c === line.chars[i + k]!.folded || oneGlyph(asked[k]!, line.chars[i + k]!.text))) {
      hits.push(hit(line, i, i + need.length, 0));
      i += need.length;
    } else i++;
  }
  return hits;
}

/** Every match of a RegExp on the line's text, boxed by the characters it covers (whitespace aside). */
function matchesOf(line: Line, re: RegExp): TextHit[] {
  // A copy, global so that every match is found, leaving the spec's RegExp and its lastIndex alone.
  const all = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  const hits: TextHit[] = [];
  for (let m = all.exec(line.text); m; m = all.exec(line.text)) {
    if (m[0] === '') {
      all.lastIndex++;
      continue;
    }
    const covered = line.at.slice(m.index, m.index + m[0].length).filter((c) => c >= 0);
    if (covered.length) hits.push(hit(line, covered[0]!, covered[covered.length - 1]! + 1, 0));
  }
  return hits;
}

/**
 * The places in the line that read the text a few letters off, digits never changed: for each start, the spelling
 * distance of every run of characters from it at once (one table, its last column). Overlapping places give way to
 * the nearer, then to the one whose length is the text's.
 *
 * A place's edges hold: a letter of the text is dropped at an edge only where the line ends there ("bijective" of
 * "bijective 1" is not "bijective A" read with its A dropped: the 1 is read where the A would be), and an edge
 * inside a word read is the text's own letter ("Setting W" of "Setting Wi-Fi" is not "Settings").
 */
function nearby(line: Line, want: string): TextHit[] {
  const need = folded(want);
  const allowed = Math.floor(need.length / LETTERS_PER_MISREAD);
  if (allowed === 0) return [];
  const chars = line.chars;
  const last = need.length;
  const found: { from: number; to: number; distance: number }[] = [];
  for (let from = 0; from < chars.length; from++) {
    if (!(chars[from]!.gap || chars[from]!.folded === need[0])) continue;
    // row[k]: the distance from the text's first k letters to the characters read so far from `from`; dropping
    // the text's first letters is free of NEVER only at the line's start.
    let row = [0];
    for (let k = 1; k <= last; k++) row[k] = from > 0 ? NEVER : row[k - 1]! + edit(need[k - 1]!);
    const longest = Math.min(chars.length - from, last + allowed);
    for (let n = 1; n <= longest; n++) {
      const c = chars[from + n - 1]!.folded;
      const next = [row[0]! + edit(c)];
      for (let k = 1; k <= last; k++) next[k] = Math.min(row[k]! + edit(c), next[k - 1]! + edit(need[k - 1]!), row[k - 1]! + swap(c, need[k - 1]!));
      const to = from + n;
      const inside = to < chars.length;
      // Where the line goes on, the place must end on a character read, not on letters of the text dropped.
      const distance = inside ? Math.min(row[last]! + edit(c), row[last - 1]! + swap(c, need[last - 1]!)) : next[last]!;
      row = next;
      if (Math.min(...row) > allowed) break;
      const edgeHolds = !inside || chars[to]!.gap || c === need[last - 1];
      if (n >= last - allowed && distance <= allowed && edgeHolds) found.push({ from, to, distance });
    }
  }
  found.sort((a, b) => a.distance - b.distance || Math.abs(a.to - a.from - last) - Math.abs(b.to - b.from - last) || a.from - b.from);
  const kept: typeof found = [];
  for (const f of found) if (kept.every((k) => f.to <= k.from || f.from >= k.to)) kept.push(f);
  return kept.map((f) => hit(line, f.from, f.to, f.distance));
}

/** A hit on characters [from, to) of a line: as read, and boxed by those characters and the words they are in. */
function hit(line: Line, from: number, to: number, distance: number): TextHit {
  const chars = line.chars.slice(from, to);
  const words = [...new Set(chars.map((c) => c.word))].map((i) => line.words[i]!);
  const top = boxOf(words);
  // Whole pixels, holding every character found.
  const x = Math.floor(Math.min(...chars.map((c) => c.left)));
  const right = Math.ceil(Math.max(...chars.map((c) => c.right)));
  const read = chars.map((c, i) => (i > 0 && c.gap ? ` ${c.text}` : c.text)).join('');
  return { read, line: line.text, box: { x, y: top.y, width: right - x, height: top.height }, distance };
}

function ordered(hits: TextHit[]): TextHit[] {
  return hits.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

/**
 * Whether two characters are one glyph in the sans-serif fonts phones draw with: a capital I, a small l and a bar
 * are the same upright stroke there (Roboto's "All" and "AII" are the same pixels), so reading one for the other is
 * reading what is shown. Nothing else is: a digit never stands for a letter.
 */
function oneGlyph(a: string, b: string): boolean {
  return STROKE.has(a) && STROKE.has(b);
}

/** A text's characters as compared unless exact: whitespace out, each in lower case. */
function folded(s: string): string[] {
  return Array.from(s.replace(/\s+/gu, '')).map((c) => c.toLowerCase());
}

/** The cost of adding or dropping a character: one letter, never a digit. */
function edit(c: string): number {
  return isDigit(c) ? NEVER : 1;
}

/** The cost of reading one character as another: one letter, never when either is a digit. */
function swap(a: string, b: string): number {
  if (a === b) return 0;
  return isDigit(a) || isDigit(b) ? NEVER : 1;
}

function isDigit(c: string): boolean {
  return /^\p{Nd}$/u.test(c);
}
