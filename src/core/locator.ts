// Locators as data: what a spec asks for (a text, a description, a resource id, a query of the vendor's engine),
// the engine query it becomes, and whether an element's text is the one asked. How a text is found among the
// lines read from the screen is find-text.ts. Pure: no I/O.
import { UsageError } from './errors.js';

/** What a locator looks for. */
export type LocatorQuery =
  | { by: 'text'; text: string | RegExp; exact: boolean }
  | { by: 'description'; text: string | RegExp; exact: boolean }
  | { by: 'id'; id: string }
  | { by: 'query'; query: string };

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

/** Whitespace out, case kept: how an exact text compares. */
function squeeze(s: string): string {
  return s.replace(/\s+/g, '');
}

/** Spaces out and lower case: how a text compares unless exact. */
function fold(s: string): string {
  return squeeze(s).toLowerCase();
}
