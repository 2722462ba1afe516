/** A request's query, first occurrence of each name wins; names are never looked up on a prototype. */
export type Query = Record<string, string | undefined>;

/**
 * Parses a query string by hand: the pixel route is the hot path, and `new URL()` per request costs more than
 * the rest of the answer. Bad percent-encoding leaves the value as sent (it then matches nothing).
 * @param search the part after `?`, without it
 */
export function parseQuery(search: string): Query {
  const out: Query = Object.create(null) as Query;
  let start = 0;
  const len = search.length;
  while (start < len) {
    let end = search.indexOf('&', start);
    if (end < 0) end = len;
    if (end > start) {
      const eq = search.indexOf('=', start);
      const split = eq < 0 || eq > end ? end : eq;
      const name = decode(search.slice(start, split));
      if (out[name] === undefined) out[name] = split === end ? '' : decode(search.slice(split + 1, end));
    }
    start = end + 1;
  }
  return out;
}

/**
 * Reads a notification filter: a JSON-style bracketed list of quoted strings (`["a","b"]`), or one plain value.
 * Returns undefined for "any" (absent or empty), or an Error naming what is wrong.
 * @param value the raw query value
 */
export function parseListParam(value: string | undefined): readonly string[] | undefined | Error {
  if (value === undefined || value === '') return undefined;
  if (!value.startsWith('[')) return [value];
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    return new Error(`${JSON.stringify(value.slice(0, 60))} is not a list: write ["a","b"] (quoted strings)`);
  }
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
    return new Error(`${JSON.stringify(value.slice(0, 60))} is not a list of strings: write ["a","b"]`);
  }
  return list.length === 0 ? undefined : (list as string[]);
}

/**
 * Reads a non-negative decimal integer written with digits only, or returns -1.
 * @param value the raw query value
 */
export function parseCount(value: string | undefined): number {
  if (value === undefined || value.length === 0 || value.length > 9) return -1;
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function decode(text: string): string {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
