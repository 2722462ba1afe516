import { findNodes, parseAaiQuery, type AaiNode, type AaiQuery } from './aai-query.js';
import { parseLiteral, type Literal } from './aai-literal.js';
import type { Phone } from './phone.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { Screen } from './screen.js';
import type { SimulatorState } from './state.js';

const PARAMS_KEYS = ['query', 'action', 'actions'];
const ACTIONS = ['getCount', 'getBounds', 'getText', 'getDescription', 'getIds', 'click', 'setText'];
const EXAMPLE = '{query:"T:OK",action:"click"}';
/** `name` or `name(arguments)`. */
const CALL = /^([A-Za-z]+)(?:\((.*)\))?$/s;

/** What one action answers inside `value`, or the failure's message. */
type Outcome = { value: Record<string, unknown> } | { error: string };

/**
 * The vendor's UI-element engine, `POST devices/<id>/sendAai` with `params`, a JavaScript object literal
 * (`{query:"T:OK",action:"click"}`): runs the query once over the tree of the screen shown, then its actions
 * on what it found, answering `{"status": true, "value": {…}}`. No action, or `getCount`: `{count}`;
 * `getBounds`: `{bounds: [[l,t,r,b],…]}` of every match; `getText`, `getDescription`: `{retval}` of the first;
 * `getIds`: `{ids}`; `click`: a tap at the first match's centre, recorded `via: 'aai'` and acting as any tap,
 * `{retval: true}`; `setText(text)` (the text bare or quoted): the first match's text, drawn, recorded as a text
 * `via: 'aai'`, `{retval: true}`. One action, or a list of one: its answer; `actions:[…]` (or `action` with more
 * than one): `{count, list}`, one answer each. Nothing found for an action that needs an element, a query or an
 * action this simulator does not know, `params` that do not read: the failure envelope saying which.
 * @param params the request's parameters: query, then form or JSON body
 */
export function sendAai(state: SimulatorState, device: string, params: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  if (params.params === undefined) return failure(`sendAai takes params, a JavaScript object literal such as ${EXAMPLE}`);
  const read = parseLiteral(params.params);
  if ('error' in read) return failure(`params ${JSON.stringify(params.params.slice(0, 80))} is not a JavaScript object literal: ${read.error}; write e.g. ${EXAMPLE}`);
  const request = readRequest(read.value);
  if (typeof request === 'string') return failure(request);
  const screen = state.screenOf(phone);
  const query = parseAaiQuery(request.query, phone.app);
  if (typeof query === 'string') return failure(`bad query ${JSON.stringify(request.query)}: ${query}`);
  const found = findNodes(screen, query);
  const answers: Record<string, unknown>[] = [];
  for (const [i, action] of request.actions.entries()) {
    const outcome = act(state, phone, screen, action, found, request.query, query);
    if ('error' in outcome) return failure(request.wrapped ? `action ${i + 1} of ${request.actions.length}, ${outcome.error}` : outcome.error);
    answers.push(outcome.value);
  }
  const value = request.wrapped ? { count: answers.length, list: answers } : answers[0];
  return JSON.stringify({ status: true, value });
}

/** The query and the actions of `params`; `wrapped`: the answers go in `{count, list}`. */
function readRequest(value: Literal): { query: string; actions: string[]; wrapped: boolean } | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `params must be an object such as ${EXAMPLE}`;
  for (const key of Object.keys(value)) {
    if (key === 'preAction' || key === 'postAction') return `params.${key} is not supported by this simulator: write the steps as a list, actions:[…]`;
    if (!PARAMS_KEYS.includes(key)) return `params.${key} is not a key sendAai knows here: write query, action or actions`;
  }
  const { query = '', action, actions } = value;
  if (typeof query !== 'string') return 'params.query must be a string such as "T:OK&&C:.Button"';
  if (action !== undefined && actions !== undefined) return 'params has both action and actions: give one';
  const steps = actions ?? action ?? 'getCount';
  const list = Array.isArray(steps) ? steps : [steps];
  if (list.length === 0 || list.some((s) => typeof s !== 'string')) return `params.${actions !== undefined ? 'actions' : 'action'} must be an action such as "click", or a non-empty list of them`;
  return { query, actions: list as string[], wrapped: actions !== undefined || list.length > 1 };
}

/** Runs one action on what the query found. */
function act(state: SimulatorState, phone: Phone, screen: Screen, action: string, found: AaiNode[], text: string, query: AaiQuery): Outcome {
  const call = CALL.exec(action.trim());
  const name = call?.[1] ?? '';
  if (!call || !ACTIONS.includes(name)) return { error: `${JSON.stringify(action)} is not an action this simulator knows: ${ACTIONS.join(', ')}` };
  const args = call[2];
  if (name !== 'setText' && args !== undefined && args.trim() !== '') return { error: `${name} takes no arguments; got ${JSON.stringify(action)}` };
  if (name === 'getCount') return { value: { count: found.length } };
  if (name === 'getBounds') return { value: { bounds: found.map((n) => [...n.bounds]) } };
  if (name === 'getIds') return { value: { ids: found.map((n) => n.nodeId) } };
  const first = found[0];
  if (!first) return { error: `${name}: no element matches ${JSON.stringify(text)} (template ${query.template}) on ${phone.id}'s screen; try TP:more, or a wider query (T:*part*)` };
  // The element as it is now: an action before this one in the list may have set its text.
  if (name === 'getText') return { value: { retval: first.element?.text ?? first.text } };
  if (name === 'getDescription') return { value: { retval: first.description } };
  if (name === 'click') {
    const [left, top, right, bottom] = first.bounds;
    state.record({ device: phone.id, via: 'aai', kind: 'tap', x: Math.floor((left + right) / 2), y: Math.floor((top + bottom) / 2), at: state.now() });
    return { value: { retval: true } };
  }
  const typed = setTextArgument(args);
  if (typed === undefined) return { error: `setText takes the text, bare or quoted: setText(hello) or setText('hello'); got ${JSON.stringify(action)}` };
  if (!first.element?.editable) return { error: `setText: the element found (${describe(first)}) is not editable; find a text field, e.g. with BP:editable or C:.EditText` };
  screen.setElementText(first.element, typed);
  state.record({ device: phone.id, via: 'aai', kind: 'text', text: typed, at: state.now() });
  return { value: { retval: true } };
}

/** The text of `setText(…)`: bare, or one string literal in quotes. */
function setTextArgument(args: string | undefined): string | undefined {
  if (args === undefined) return undefined;
  const trimmed = args.trim();
  if (!/^(['"]).*\1$/s.test(trimmed)) return args;
  const read = parseLiteral(trimmed);
  return 'value' in read && typeof read.value === 'string' ? read.value : undefined;
}

function describe(node: AaiNode): string {
  const said = [node.className, node.id && `id ${node.id}`, node.text && `text ${JSON.stringify(node.text)}`, node.description && `description ${JSON.stringify(node.description)}`];
  return said.filter(Boolean).join(', ');
}
