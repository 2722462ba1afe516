import { EXTENSION_OPERATIONS, matchRoute, routesFor, type Operation, type RouteMatch, type Routes } from '../core/routes.js';
import type { ActsOffered, Capabilities } from './options.js';

/** The routes a simulator serves: under which API roots, and which of the vendor's it lacks. */
export interface RouteTable {
  /** The routes under the API root given (`--api-root`): the URLs the simulator hands out name this root. */
  readonly primary: Routes;
  /** The primary routes first, then those of the sibling roots. */
  readonly all: readonly Routes[];
  /** The operations this simulator does not offer: their routes answer in the missing-route form. */
  readonly missing: ReadonlySet<Operation>;
}

/** A root of the vendor's versioned form, `…/v1`: its siblings `…/v1` and `…/v2` are served beside it. */
const VERSIONED = /^(.*\/v)\d$/;

/**
 * The route table of a simulator. When the API root ends in `/v<digit>`, the sibling roots `/v1` and `/v2`
 * are served too, with the same tokens (public clients log in on v1 and call v2): `/TotalControl/v1` serves
 * `/TotalControl/v2` as well. `capabilities: 'seed'` lacks every route beyond the interface; `acts` says
 * which of the two ways to act is offered: `screen/inputs` with `screen/texts`, the JS bridge, or both;
 * without `elements`, the UI-element engine (`sendAai`) is not offered.
 */
export function routeTable(apiRoot: string, capabilities: Capabilities, acts: ActsOffered, elements = true): RouteTable {
  const primary = routesFor(apiRoot);
  const versioned = VERSIONED.exec(primary.apiRoot);
  const siblings = versioned ? ['1', '2'].map((v) => `${versioned[1]}${v}`).filter((root) => root !== primary.apiRoot) : [];
  const missing = new Set<Operation>();
  if (capabilities === 'seed') for (const op of EXTENSION_OPERATIONS) missing.add(op);
  if (acts === 'scripts') ['inputs', 'texts'].forEach((op) => missing.add(op as Operation));
  if (acts === 'inputs') missing.add('script');
  if (!elements) missing.add('aai');
  return { primary, all: [primary, ...siblings.map((root) => routesFor(root))], missing };
}

/**
 * The operation a request path names under any of the table's roots, the primary first (its requests pay
 * for one match, as before there were siblings).
 */
export function findRoute(table: RouteTable, method: string, pathname: string): RouteMatch | undefined {
  for (const routes of table.all) {
    const match = matchRoute(routes, method, pathname);
    if (match) return match;
  }
  return undefined;
}
