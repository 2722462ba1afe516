// The vendor's UI-element engine (sendAai) for the fake server, as a real server answers it: a query that finds
// no node is answered with the failure envelope, HTTP 200 `{"status": null, "value": "node not found"}` (the
// vendor documents no body for nothing found; its public clients take any status but true for a failure), while
// `getCount` answers `{"count": 0}`. A query the engine cannot read is refused with the same envelope.
import type { Rect } from '../../src/core/screen.js';
import { formOf, type FakeReply, type FakeRequest } from './fake-server.js';

/** An element on the phone's screen as the engine lists it. */
export interface FakeNode {
  text: string;
  box: Rect;
}

/** What the engine answers when the query matched nothing: the generic failure shape of every vendor route. */
export const NOTHING_FOUND: FakeReply = { json: { status: null, value: 'node not found' } };

/** `T:*Sign*` as a test: `*` any run of characters, the rest as written. */
const glob = (pattern: string, value: string) => value !== '' && new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(value);

/**
 * A handler of the fake server's `aai` route over `nodes` (read at each request, so a test may change them):
 * `T:` and `IX:` terms; `getCount`, `getBounds`, `getText`. Any other key is refused, naming it.
 */
export function findNode(nodes: () => readonly FakeNode[]): (req: FakeRequest) => Promise<FakeReply> {
  return async (req) => {
    const params = (await formOf(req)).get('params') ?? '';
    const query = /query:"((?:[^"\\]|\\.)*)"/.exec(params)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
    const action = /action:"(\w+)"/.exec(params)?.[1] ?? 'getCount';
    let found = [...nodes()];
    for (const term of query.split('&&')) {
      const [key, value] = [term.slice(0, term.indexOf(':')).trim(), term.slice(term.indexOf(':') + 1)];
      if (key === 'T') found = found.filter((n) => glob(value, n.text));
      else if (key === 'IX') found = found.slice(Number(value), Number(value) + 1);
      else return { json: { status: null, value: `invalid query: key ${key} is not one the engine reads` } };
    }
    if (action === 'getCount') return { json: { status: true, value: { count: found.length } } };
    if (!found.length) return NOTHING_FOUND;
    if (action === 'getBounds') return { json: { status: true, value: { bounds: found.map(({ box: b }) => [b.x, b.y, b.x + b.width, b.y + b.height]) } } };
    if (action === 'getText') return { json: { status: true, value: { retval: found[0]!.text } } };
    return { json: { status: null, value: `unknown action ${action}` } };
  };
}

/** The query and action of each sendAai request the server saw, in order: `getBounds T:Goodbye`. */
export async function aaiCalls(requests: readonly FakeRequest[]): Promise<string[]> {
  return Promise.all(
    requests
      .filter((r) => r.op === 'aai')
      .map(async (r) => {
        const params = (await formOf(r)).get('params') ?? '';
        return `${/action:"(\w+)"/.exec(params)?.[1]} ${/query:"((?:[^"\\]|\\.)*)"/.exec(params)?.[1]}`;
      }),
  );
}
