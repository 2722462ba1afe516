// Locators as data: what a spec asks for (a text, a description, a resource id, a query of the vendor's engine),
// the engine query it becomes, and how a text is found among words read from the screen. Pure: no I/O.
import { UsageError } from './errors.js';
import type { Rect } from './screen.js';

/** What a locator looks for. */
export type LocatorQuery =
  | { by: 'text'; text: string | RegExp; exact: boolean }
  | { by: 'description'; text: string | RegExp; exact: boolean }
  | { by: 'id'; id: string }
  | { by: 'query'; query: string };

/** A word read from the screen, where it is. */
export interface ReadWord extends Rect {
  text: string;
}

/** A line of words read from the screen. */
export interface ReadLine {
  words: ReadWord[];
}

/** A text found among the words read: what was read there, where, and how far its spelling is from the one asked. */
export interface TextHit {
  /** The words as read, joined by one space. */
  read: string;
  box: Rect;
  /** Letters to change to make one the other (spaces and case aside); 0 for the text itself. */
  distance: number;
}

/** Longest text a locator takes: a label, not a page. */
const MAX_TEXT = 500;

/** The locator as a spec wrote it, for messages and steps: `getByText('Sign in')`, `getById('.login')`. */
export function describeLocator(q: LocatorQuery): string {
  const arg = (v: string | RegExp) => (typeof v === 'string' ? `'${v.replace(/'/g, "\\'")}'` : String(v));
  switch (q.by) {
    case 'text':
      return `getByText(${arg(q.text)}${q.exact ? ', { exact: true }' : ''})`;
    case 'description':
      return `getByDescription(${arg(q.text)}${q.exact ? ', { exact: true }' : ''})`;
    case 'id':
      return `getById(${arg(q.id)})`;
    case 'query':
      return `getByQuery(${arg(q.query)})`;
  }
}

/**
 * Checks what a spec gave a locator, before anything is read: a text of 1 to 500 characters or a RegExp; a
 * resource id (`com.example:id/login`, or `.login` for the app in front); a query of `KEY:value` terms.
 */
export function checkLocator(q: LocatorQuery): LocatorQuery {
  if (q.by === 'text' || q.by === 'description') {
    const t = q.text;
    if (!(t instanceof RegExp) && (typeof t !== 'string' || t.trim() === '' || t.length > MAX_TEXT)) {
      throw new UsageError(`invalid ${q.by} ${JSON.stringify(String(t).slice(0, 60))}: expected 1 to ${MAX_TEXT} characters, or a RegExp`);
    }
  } else if (q.by === 'id') {
    if (typeof q.id !== 'string' || !/^([A-Za-z][\w.]*:id\/|\.)[A-Za-z_][\w.]*$/.test(q.id)) {
      throw new UsageError(`invalid resource id ${JSON.stringify(String(q.id).slice(0, 80))}: expected com.example.app:id/login, or .login for the app in front`);
    }
  } else if (typeof q.query !== 'string' || !/^[A-Z]{1,3}:/.test(q.query.trim())) {
    throw new UsageError(`invalid query ${JSON.stringify(String(q.query).slice(0, 80))}: expected terms such as T:OK&&C:.Button`, { hint: 'T: text, D: description, R: resource id, C: class, IX: index' });
  }
  return q;
}

/**
 * The vendor engine's query for a locator, or undefined where the engine cannot say it (a RegExp: the
 * elements with any text are asked for, and tested here). Texts are globbed unless exact, as a substring.
 */
export function engineQuery(q: LocatorQuery): string | undefined {
  if (q.by === 'query') return q.query.trim();
  if (q.by === 'id') return `R:${q.id}`;
  const key = q.by === 'text' ? 'T' : 'D';
  if (q.text instanceof RegExp) return `${key}:*`;
  return q.exact ? `${key}:${q.text}` : `${key}:*${q.text}*`;
}

/** Whether an element's text (or description) is what the locator asks for: exact, or as a substring ignoring case and spaces. */
export function textMatches(q: Extract<LocatorQuery, { by: 'text' | 'description' }>, text: string): boolean {
  if (q.text instanceof RegExp) {
    q.text.lastIndex = 0;
    return q.text.test(text);
  }
  return q.exact ? squeeze(text) === squeeze(q.text) : fold(text).includes(fold(q.text));
}

/**
 * Finds a text among the lines of words read from the screen: the shortest runs of words on one line that hold it
 * (a substring unless exact, a RegExp's match), best first. OCR misreads a letter now and then, and runs words
 * together ("Signin"): spaces never count, case counts only when exact, and (unless exact) a run within one
 * letter in six of the text is a hit with its distance, which the caller must say; nothing further is. Never a
 * text that is not there.
 * @param lines the lines read, each its words left to right
 */
export function findText(lines: readonly ReadLine[], want: string | RegExp, exact: boolean): TextHit[] {
  const hits: TextHit[] = [];
  for (const line of lines) {
    const words = line.words;
    for (let i = 0; i < words.length; i++) {
      for (let j = i; j < words.length; j++) {
        const run = words.slice(i, j + 1);
        const read = run.map((w) => w.text).join(' ');
        const distance = runDistance(read, want, exact);
        if (distance === undefined) continue;
        hits.push({ read, box: boxOf(run), distance });
        // The shortest run that holds it: a longer one from the same start holds it too, and says no more.
        break;
      }
    }
  }
  // Drop a run that contains a better or equal hit (it repeats it with more words around it).
  const kept = hits.filter((h) => !hits.some((o) => o !== h && contains(h.box, o.box) && o.distance <= h.distance && (o.box.width < h.box.width || o.distance < h.distance)));
  return kept.sort((a, b) => a.distance - b.distance || a.box.y - b.box.y || a.box.x - b.box.x);
}

/** How far a run of words is from the text wanted, or undefined when it is not a hit. */
function runDistance(read: string, want: string | RegExp, exact: boolean): number | undefined {
  if (want instanceof RegExp) {
    want.lastIndex = 0;
    return want.test(read) ? 0 : undefined;
  }
  const [have, need] = exact ? [squeeze(read), squeeze(want)] : [fold(read), fold(want)];
  if (exact ? have === need : have.includes(need)) return 0;
  // Exact is exact: spaces aside, no letter may differ.
  if (exact) return undefined;
  const allowed = Math.floor(need.length / 6);
  if (allowed === 0 || Math.abs(have.length - need.length) > allowed) return undefined;
  const d = levenshtein(have, need, allowed);
  return d <= allowed ? d : undefined;
}

/** Spaces out (OCR runs words together, or splits them), case kept. */
function squeeze(s: string): string {
  return s.replace(/\s+/g, '');
}

/** Spaces out and lower case: how a text compares unless exact. */
function fold(s: string): string {
  return squeeze(s).toLowerCase();
}

/** Edit distance, giving up (returning max + 1) once every path is past `max`. */
function levenshtein(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The smallest rectangle holding every word given. */
export function boxOf(words: readonly Rect[]): Rect {
  const x = Math.min(...words.map((w) => w.x));
  const y = Math.min(...words.map((w) => w.y));
  const right = Math.max(...words.map((w) => w.x + w.width));
  const bottom = Math.max(...words.map((w) => w.y + w.height));
  return { x, y, width: right - x, height: bottom - y };
}

function contains(outer: Rect, inner: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}
