// A failed pixel check accepted in its spec: the colour the check expects, where the failing line writes it as a
// literal (`device.expectPixel(5, 5).toBe('0x25425c')`), becomes the colour the phone showed; where the colour comes
// from elsewhere (a variable, a table in another file), the line is named and nothing is written. Pure text work.

/**
 * What accepting a pixel check would do to its line, or why it cannot: the colour comes from `elsewhere`, the line
 * writes it more than once (`twice`), or the line `changed` since the run (another colour, or no such line).
 */
export type LineChange =
  | { line: number; before: string; after: string }
  | { line: number; code: string; why: string; kind: 'elsewhere' | 'twice' | 'changed' };

/** A colour in quotes, as specs write them: `'0x25425c'`, `"#25425C"`, `` `25425c` ``. */
const LITERAL = /(['"`])(0x|0X|#)?([0-9a-fA-F]{6})\1/g;

/**
 * The failing line with the colour received in place of the one expected, or why not.
 * @param source the spec file's text
 * @param line 1-based, the check's line as the report gives it
 * @param expected `0x25425c`, as the check's facts give it
 * @param received `0xd500f9`
 */
export function pixelLine(source: string, line: number, expected: string, received: string): LineChange {
  const code = lineOf(source, line);
  if (code === undefined) return { line, code: '', why: `the spec has no line ${line} now: it changed since the run`, kind: 'changed' };
  const want = expected.replace(/^0x/, '').toLowerCase();
  const found = [...code.matchAll(LITERAL)].filter((m) => m[3]!.toLowerCase() === want);
  if (found.length > 1) return { line, code, why: `the line writes ${expected} ${found.length} times: change it by hand`, kind: 'twice' };
  if (found.length === 0) {
    const arg = /\.(?:toBe|toHavePixel)\(([^)]*)\)/.exec(code)?.[1]?.split(',').find((a, i, all) => i === all.length - 1 || /^\s*\{/.test(all[i + 1] ?? ''))?.trim();
    if (arg && new RegExp(`^${LITERAL.source}$`).test(arg)) return { line, code, why: `the line writes ${arg}, not ${expected}: it changed since the run; nothing is written`, kind: 'changed' };
    const from = arg ? `${arg}, not a literal here` : 'not written on this line';
    return { line, code, why: `the colour is ${from}: change it where it is defined (a variable, a table); nothing is written`, kind: 'elsewhere' };
  }
  const m = found[0]!;
  const hex = received.replace(/^0x/, '');
  const upper = m[3] === m[3]!.toUpperCase() && /[A-F]/.test(m[3]!);
  const literal = `${m[1]}${m[2] ?? ''}${upper ? hex.toUpperCase() : hex}${m[1]}`;
  return { line, before: code, after: code.slice(0, m.index) + literal + code.slice(m.index! + m[0].length) };
}

/**
 * The source with lines replaced, line endings kept.
 * @param changes 1-based lines and their new text
 */
export function withLines(source: string, changes: readonly { line: number; after: string }[]): string {
  const parts = source.split(/(\r?\n)/);
  for (const c of changes) parts[(c.line - 1) * 2] = c.after;
  return parts.join('');
}

function lineOf(source: string, line: number): string | undefined {
  if (!Number.isInteger(line) || line < 1) return undefined;
  return source.split(/\r?\n/)[line - 1];
}
