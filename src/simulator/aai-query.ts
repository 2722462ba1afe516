import type { Bounds, Element } from './elements.js';
import type { Screen } from './screen.js';

/** Which nodes of the tree a query searches: each template holds the one after it. */
export type Template = 'all' | 'more' | 'basic' | 'reduced';

/** The templates, widest first. */
export const TEMPLATES: readonly Template[] = ['all', 'more', 'basic', 'reduced'];

/** The template of a query that names none: `basic`, so a query for a bare view needs `TP:more`, as clients retry. */
export const DEFAULT_TEMPLATE: Template = 'basic';

/** A node of the tree the engine searches: an element, or (under `TP:all`) the screen's root layout. */
export interface AaiNode {
  /** Unique on the screen shown: the node's place in the tree, root first, as `getIds` answers and `ID:` takes. */
  nodeId: string;
  text: string;
  description: string;
  id: string;
  className: string;
  bounds: Bounds;
  clickable: boolean;
  editable: boolean;
  /** The element, or undefined for the root. */
  element: Element | undefined;
}

/** A query read: its template, its tests (all must hold), and the index among the matches (`IX:`). */
export interface AaiQuery {
  template: Template;
  tests: ((node: AaiNode) => boolean)[];
  index: number | undefined;
}

const KEYS = 'T (text), D (description), R (resource id), C (class), BP (editable or clickable), ID (a node id from getIds), IX (index), TP (template)';
const ROOT_CLASS = 'android.widget.FrameLayout';

/**
 * Reads a FindNode query: `KEY:value` terms joined by `&&` (spaces around a term are dropped). `T:` text, `D:`
 * description, `R:` resource id, `C:` class: the whole value, case and all, or a glob where `*` stands for any
 * run of characters. `R:.x` is `<package>:id/x` for the app in front (any package with none in front), `R:x`
 * with no `:` also matches the id's name after `:id/`; `C:.Button` is `android.widget.Button`. `BP:editable`,
 * `BP:clickable`; `ID:<node id>`; `IX:n` the n-th match from 0; `TP:all|more|basic|reduced` the template.
 * @param foreground the package of the app in front ('' for none)
 * @returns the query, or what is wrong with it
 */
export function parseAaiQuery(text: string, foreground: string): AaiQuery | string {
  const query: AaiQuery = { template: DEFAULT_TEMPLATE, tests: [], index: undefined };
  const seen = new Set<string>();
  if (text.trim() === '') return query;
  for (const raw of text.split('&&')) {
    const term = raw.trim();
    const colon = term.indexOf(':');
    if (colon <= 0) return `${JSON.stringify(term)} is not a term KEY:value (${KEYS}), joined by &&`;
    const key = term.slice(0, colon);
    const value = term.slice(colon + 1);
    if ((key === 'TP' || key === 'IX') && seen.has(key)) return `${key}: is given twice`;
    seen.add(key);
    switch (key) {
      case 'T':
        query.tests.push(matcher(value, (n) => n.text));
        break;
      case 'D':
        query.tests.push(matcher(value, (n) => n.description));
        break;
      case 'R':
        query.tests.push(resourceId(value, foreground));
        break;
      case 'C':
        query.tests.push(matcher(value.startsWith('.') ? `android.widget${value}` : value, (n) => n.className));
        break;
      case 'BP':
        if (value !== 'editable' && value !== 'clickable') return `BP:${value} is not a property this simulator knows: BP:editable or BP:clickable`;
        query.tests.push((n) => n[value]);
        break;
      case 'ID':
        query.tests.push((n) => n.nodeId === value);
        break;
      case 'IX':
        if (!/^\d{1,6}$/.test(value)) return `IX:${value} is not an index: write IX:0 for the first match, IX:1 for the second…`;
        query.index = Number(value);
        break;
      case 'TP':
        if (!TEMPLATES.includes(value as Template)) return `TP:${value} is not a template this simulator knows: ${TEMPLATES.join(', ')}`;
        query.template = value as Template;
        break;
      default:
        return `${key}: is not a query key this simulator knows: ${KEYS}`;
    }
  }
  return query;
}

/** The nodes of a screen a query finds, in the tree's order (the first is what `click` acts on). */
export function findNodes(screen: Screen, query: AaiQuery): AaiNode[] {
  const found = nodesOf(screen, query.template).filter((node) => query.tests.every((test) => test(node)));
  if (query.index === undefined) return found;
  const one = found[query.index];
  return one ? [one] : [];
}

/**
 * The tree a template searches: `reduced` the elements with a text or a description (what a user reads or
 * hears), `basic` those and the clickable or editable ones, `more` every element, `all` those and the root
 * layout that holds them (the whole screen, an `android.widget.FrameLayout`, node id 0).
 */
export function nodesOf(screen: Screen, template: Template): AaiNode[] {
  const root: AaiNode = { nodeId: '0', text: '', description: '', id: '', className: ROOT_CLASS, bounds: [0, 0, screen.width, screen.height], clickable: false, editable: false, element: undefined };
  const elements = screen.elements.map((e, i): AaiNode => ({ nodeId: String(i + 1), text: e.text, description: e.description, id: e.id, className: e.className, bounds: e.bounds, clickable: e.clickable, editable: e.editable, element: e }));
  if (template === 'all') return [root, ...elements];
  if (template === 'more') return elements;
  const said = (n: AaiNode) => n.text !== '' || n.description !== '';
  return elements.filter(template === 'basic' ? (n) => said(n) || n.clickable || n.editable : said);
}

function resourceId(value: string, foreground: string): (node: AaiNode) => boolean {
  if (value.startsWith('.')) return matcher(`${foreground === '' ? '*' : foreground}:id/${value.slice(1)}`, (n) => n.id);
  const whole = matcher(value, (n) => n.id);
  if (value.includes(':')) return whole;
  const name = matcher(`*:id/${value}`, (n) => n.id);
  return (n) => whole(n) || name(n);
}

/** A test of one of a node's fields: equal to the value, or matching it as a glob when it holds `*`. */
function matcher(value: string, field: (node: AaiNode) => string): (node: AaiNode) => boolean {
  if (!value.includes('*')) return (n) => field(n) === value;
  const pattern = new RegExp(`^${value.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
  return (n) => pattern.test(field(n));
}
