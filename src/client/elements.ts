// The vendor's UI-element engine (`POST devices/<id>/sendAai`): FindNode queries over the phone's accessibility
// tree, as the vendor's public clients send them (a form body holding the token and `params`, a JavaScript
// object literal such as `{query:"T:OK",action:"getBounds"}`). Reads only: a locator taps through the acts.
import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { Routes } from '../core/routes.js';
import type { Rect } from '../core/screen.js';
import type { CallOptions, Operation } from './caller.js';
import type { Deadline } from './deadline.js';
import { isObject, malformed, type Answer } from './envelope.js';
import type { Extensions } from './extensions.js';

/** An element's action the client asks for, and what it reads from the answer's `value`. */
type ElementAction = 'getCount' | 'getBounds' | 'getText' | 'getDescription';

/** Longest query taken: a locator's query is a few terms; anything longer is a mistake. */
const MAX_QUERY = 1_000;

/**
 * A phone's UI elements through the vendor's engine, a capability of {@link Extensions} (`aai`): a server
 * without it fails each call with one line, and the locators read the screen's text instead.
 */
export class Elements {
  #ext: Extensions;
  #routes: Routes;

  constructor(extensions: Extensions, routes: Routes) {
    this.#ext = extensions;
    this.#routes = routes;
  }

  /** How many elements the query matches on the screen now. */
  async count(device: string, query: string, options: CallOptions): Promise<number> {
    const answer = await this.#send(parseDeviceId(device), query, 'getCount', options);
    return readValue(answer, 'count', (v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0, 'a count of elements');
  }

  /**
   * Where each element the query matches is, in screen pixels, in the engine's order; none when it matches none.
   * A real server answers a query that finds nothing with its failure envelope (`{"status": null, "value":
   * "node not found"}`), as it answers a query it refuses: a count of the same query tells them apart, and only
   * its `{"count": 0}` makes the envelope an empty list.
   */
  async bounds(device: string, query: string, options: CallOptions): Promise<Rect[]> {
    const id = parseDeviceId(device);
    const answer = await this.#send(id, query, 'getBounds', options, (deadline) => this.#matchesNone(id, query, deadline));
    if (!answer.ok) return [];
    const bounds = readValue(answer, 'bounds', (v): v is unknown[] => Array.isArray(v), 'a list of bounds');
    return bounds.map((b) => {
      if (!Array.isArray(b) || b.length !== 4 || !b.every((n) => typeof n === 'number' && Number.isFinite(n))) throw malformed(answer.ctx, `a bound ${JSON.stringify(b)} is not [left, top, right, bottom]`, answer.text);
      const [left, top, right, bottom] = b as [number, number, number, number];
      return { x: left, y: top, width: right - left, height: bottom - top };
    });
  }

  /** The text (or, with `description`, the content description) of the first element the query matches. */
  async text(device: string, query: string, options: CallOptions, what: 'text' | 'description' = 'text'): Promise<string> {
    const answer = await this.#send(parseDeviceId(device), query, what === 'text' ? 'getText' : 'getDescription', options);
    const v = answer.body.value;
    // Clients read `retval`; an engine that answers the string itself is taken as well.
    if (typeof v === 'string') return v;
    return readValue(answer, 'retval', (r): r is string => typeof r === 'string', 'the element\'s text');
  }

  /** @param none asked when the engine answers with its failure envelope: whether that meant the query matched nothing */
  #send(id: DeviceId, query: string, action: ElementAction, options: CallOptions, none?: (deadline: Deadline) => Promise<boolean>): Promise<Answer> {
    checkQuery(query);
    const op = this.#operation(id, query, action);
    return this.#ext.call('aai', options, none ? { ...op, nothingFound: (_, deadline) => none(deadline) } : op);
  }

  /**
   * Whether the engine counts no element for the query, asked once within the call's deadline. A count that is
   * refused too (a query the engine cannot read, a server without the engine) says nothing: the first answer
   * stays a failure, for the policy and the capability's probe to weigh as before.
   */
  async #matchesNone(id: DeviceId, query: string, deadline: Deadline): Promise<boolean> {
    const answer = await this.#ext.ask('aai', this.#operation(id, query, 'getCount'), deadline);
    return answer !== undefined && isObject(answer.body.value) && answer.body.value.count === 0;
  }

  #operation(id: DeviceId, query: string, action: ElementAction): Operation {
    const params = encodeURIComponent(`{query:${JSON.stringify(query)},action:${JSON.stringify(action)}}`);
    return {
      operation: 'UI elements',
      path: () => this.#routes.aai(id),
      device: id,
      request: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: (t) => `params=${params}&token=${t}` },
    };
  }
}

/** Checks a FindNode query given by a user: terms `KEY:value` joined by `&&`. */
export function checkQuery(query: string): void {
  if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_QUERY || !/^[A-Z]{1,3}:/.test(query.trim())) {
    throw new UsageError(`invalid element query ${JSON.stringify(String(query).slice(0, 80))}: expected terms such as T:OK or R:.login joined by &&`, {
      hint: 'T: text, D: description, R: resource id, C: class, IX: index; e.g. T:Sign in&&C:.Button',
    });
  }
}

/** `value.<key>` of an answer, checked; a malformed answer otherwise. */
function readValue<T>(answer: Answer, key: string, ok: (v: unknown) => v is T, what: string): T {
  const value = answer.body.value;
  const v = isObject(value) ? value[key] : undefined;
  if (!ok(v)) throw malformed(answer.ctx, `"value.${key}" is not ${what}`, answer.text);
  return v;
}
