// Globs of phonewright.config.json's `testMatch` and `testIgnore`: spec files by path, relative to the file's
// folder, compiled to the regular expressions a Playwright project takes. Pure: no I/O.

/** Either kind of path separator: Playwright matches a project's patterns against the platform's absolute path. */
const SEP = '[\\\\/]';
/** Characters a regular expression gives a meaning to, written as themselves. */
const SPECIAL = /[.+^$()|\\]/;

/**
 * Checks a glob and returns the regular expression source it stands for (no anchors). `*` is any name or part of
 * one, `**` any number of folders, `?` one character, `{a,b}` either, `[abc]` and `[!abc]` a character of a set
 * (or not). A glob names files, or folders and every file under them (`specs/lab-a` is `specs/lab-a/**`).
 * Throws an Error saying what is wrong: an absolute path, `\`, `.` or `..` folders, an unclosed `{` or `[`.
 * @param glob e.g. `specs/lab-a/**`, `specs/*.lab.spec.ts`
 */
export function globSource(glob: string): string {
  if (glob.trim() === '') throw new Error('an empty glob matches no file');
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob)) throw new Error(`${JSON.stringify(glob)} is absolute: a glob is relative to the config file's folder`);
  if (glob.includes('\\')) throw new Error(`${JSON.stringify(glob)} has a "\\": folders are separated by "/" on every system`);
  const parts = glob.replace(/\/+$/, '').split('/');
  if (parts.some((p) => p === '.' || p === '..' || p === '')) throw new Error(`${JSON.stringify(glob)} has an empty, "." or ".." folder: a glob names files inside the config file's folder`);
  return parts.map((part, i) => segment(part, glob, i === parts.length - 1)).join('') + `(?:${SEP}.*)?`;
}

/**
 * One regular expression for files of `dir` matching any of `globs` (checked by {@link globSource}).
 * @param dir the absolute folder the globs are relative to
 */
export function globsRegExp(dir: string, globs: readonly string[]): RegExp {
  const root = dir.replace(/[\\/]+$/, '').split(/[\\/]/).map(escape).join(SEP);
  return new RegExp(`^${root}(?:${globs.map(globSource).join('|')})$`);
}

/**
 * The regular expression for files of `dir` that match none of `globs`: a project's `testIgnore` that keeps it to
 * those files, beside the `testMatch` it inherits (Playwright's spec files, or the config's).
 */
export function outsideGlobs(dir: string, globs: readonly string[]): RegExp {
  const inside = globsRegExp(dir, globs).source;
  return new RegExp(`^(?!${inside})`);
}

/** A folder of the glob, with the separator before it: `**` alone spans any number of folders, none included. */
function segment(part: string, glob: string, last: boolean): string {
  // Last, `**` is any file under the folders before it: what every glob's folder suffix already says.
  if (part === '**') return last ? '' : `(?:${SEP}[^\\\\/]+)*`;
  return SEP + name(part, glob);
}

/** A folder's or file's name: `*`, `?`, `{a,b}` and `[set]` as globs; anything else as itself. */
function name(part: string, glob: string): string {
  let out = '';
  let inBraces = false;
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === '*') {
      out += '[^\\\\/]*';
      while (part[i + 1] === '*') i++;
    } else if (c === '?') out += '[^\\\\/]';
    else if (c === '[') {
      const end = part.indexOf(']', i + 2);
      if (end < 0) throw new Error(`${JSON.stringify(glob)} opens a "[" it does not close`);
      const set = part.slice(i + 1, end);
      const negated = set.startsWith('!');
      // A set never takes a folder's separator, as `*` and `?` do not.
      out += `[${negated ? '^\\\\/' : ''}${(negated ? set.slice(1) : set).replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') {
      if (inBraces) throw new Error(`${JSON.stringify(glob)} has a "{" inside "{…}": one level of alternatives only`);
      inBraces = true;
      out += '(?:';
    } else if (c === '}') {
      if (!inBraces) throw new Error(`${JSON.stringify(glob)} closes a "}" it did not open`);
      inBraces = false;
      out += ')';
    } else if (c === ',' && inBraces) out += '|';
    else out += escape(c);
  }
  if (inBraces) throw new Error(`${JSON.stringify(glob)} opens a "{" it does not close`);
  return out;
}

function escape(text: string): string {
  return [...text].map((c) => (SPECIAL.test(c) || '*?[]{}'.includes(c) ? `\\${c}` : c)).join('');
}
