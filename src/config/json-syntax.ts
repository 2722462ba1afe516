/**
 * Where a JSON text breaks, by line and column, and what is wrong there. JSON.parse says only "at position
 * N", and for some mistakes (a bare word, a trailing comma in a list) not even that, but quotes the text
 * instead, which may hold what the file should not show. This walks the grammar of RFC 8259 once, after
 * JSON.parse has refused the text, and stops at the first character that cannot continue it.
 */

/** The first syntax error of a JSON text. */
export interface JsonSyntaxError {
  /** From 1. */
  line: number;
  /** From 1, in characters (a tab is one). */
  column: number;
  /** What is wrong, e.g. `expected ',' or '}' after a property, found '"'`. */
  problem: string;
}

/**
 * Finds the first syntax error of a JSON text; undefined when there is none.
 * @param text the whole text, without a byte order mark
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const at = scan(text);
  return at && { ...lineAndColumn(text, at.offset), problem: at.problem };
}

interface Failure {
  offset: number;
  problem: string;
}

/** What may come next: a value, a property name, or what follows a value. */
type Want = 'value' | 'first-value' | 'key' | 'first-key' | 'after';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const LITERALS = new Set(['true', 'false', 'null']);

/** The grammar, walked without recursion: a deeply nested text cannot overflow the stack. */
function scan(text: string): Failure | undefined {
  const open: ('{' | '[')[] = [];
  let want: Want = 'value';
  let i = 0;
  const fail = (problem: string): Failure => ({ offset: i, problem });
  for (;;) {
    i = skipSpace(text, i);
    const c = text[i];
    const top = open.at(-1);
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return fail('a comment: JSON has none');
    if (c === "'") return fail('a single quote: JSON quotes names and text with double quotes only');
    if (want === 'after') {
      if (top === undefined) return c === undefined ? undefined : fail(`more after the end of the JSON, found ${show(text, i)}`);
      const close = top === '{' ? '}' : ']';
      if (c === close) open.pop();
      else if (c !== ',') return fail(c === undefined ? `the file ends inside ${top === '{' ? 'an object' : 'a list'}` : `expected ',' or '${close}' after ${top === '{' ? 'a property' : 'an element'}, found ${show(text, i)}`);
      else want = top === '{' ? 'key' : 'value';
      i++;
    } else if (want === 'key' || want === 'first-key') {
      if (c === '}' && want === 'first-key') {
        open.pop();
        want = 'after';
        i++;
        continue;
      }
      if (c === '}') return fail("a comma before '}': JSON allows none after the last property");
      if (c !== '"') return fail(c === undefined ? 'the file ends inside an object' : `expected a property name in double quotes, found ${show(text, i)}`);
      const end = scanString(text, i);
      if (typeof end !== 'number') return end;
      i = skipSpace(text, end);
      if (text[i] !== ':') return fail(text[i] === undefined ? 'the file ends inside an object' : `expected ':' after the property name, found ${show(text, i)}`);
      want = 'value';
      i++;
    } else if (c === ']' && want === 'first-value') {
      open.pop();
      want = 'after';
      i++;
    } else if (c === ']' && top === '[') {
      return fail("a comma before ']': JSON allows none after the last element");
    } else if (c === '{' || c === '[') {
      open.push(c);
      want = c === '{' ? 'first-key' : 'first-value';
      i++;
    } else {
      const end = c === '"' ? scanString(text, i) : scanBare(text, i, open.length > 0);
      if (typeof end !== 'number') return end;
      want = 'after';
      i = end;
    }
  }
}

/** A number, or true, false or null; else what is wrong with what stands where a value should. */
function scanBare(text: string, i: number, nested: boolean): number | Failure {
  const c = text[i];
  if (c === undefined) return { offset: i, problem: nested ? 'the file ends where a value should be' : 'the file is empty' };
  NUMBER.lastIndex = i;
  if ((c === '-' || (c >= '0' && c <= '9')) && NUMBER.test(text)) return NUMBER.lastIndex;
  WORD.lastIndex = i;
  const word = WORD.exec(text)?.[0];
  if (word !== undefined && LITERALS.has(word)) return i + word.length;
  if (word !== undefined) return { offset: i, problem: 'unquoted text: a text value needs double quotes (only true, false and null go without)' };
  return { offset: i, problem: `expected a value, found ${show(text, i)}` };
}

/** The end of the string that opens at `i` (just past its closing quote), or what is wrong in it. */
function scanString(text: string, i: number): number | Failure {
  for (let j = i + 1; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (code === 0x22) return j + 1;
    if (code < 0x20) return { offset: j, problem: code === 0x0a ? 'a line break inside a text: close its quote on the same line, or write \\n' : `the control character ${show(text, j)} inside a text: write it escaped` };
    if (code !== 0x5c) continue;
    const next = text[j + 1];
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) j += 5;
    else if (next !== undefined && '"\\/bfnrt'.includes(next)) j += 1;
    else return { offset: j, problem: `the escape \\${next ?? ''} is not one of JSON's: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX` };
  }
  return { offset: i, problem: 'a text whose closing quote never comes (it opens here)' };
}

/** JSON's whitespace is these four only: a no-break space is an error like any other character. */
function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** A character for messages: quoted, or U+XXXX when it would not show. */
function show(text: string, i: number): string {
  const point = text.codePointAt(i)!;
  const c = String.fromCodePoint(point);
  return point < 0x20 || point === 0x7f || /\s/.test(c) ? `U+${point.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/** Line and column of an offset; columns count characters (code points), as editors do. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const start = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: [...before.slice(start)].length + 1 };
}
