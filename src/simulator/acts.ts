import { recordAct } from './act-log.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

const CLICK = /^\[\s*(\d{1,6}(?:\.\d+)?)\s*,\s*(\d{1,6}(?:\.\d+)?)\s*(?:,\s*sigmaConst\.STATE_[A-Z]+\s*)?\]$/;
const KEY = /^sigmaConst\.(KEY_[A-Z0-9_]{1,40})$/;
const STATES = new Set(['active', 'inactive', 'restart']);

/** Most points a swipe's list may have here. */
const MAX_POINTS = 100;
const OK = '{"status":true,"value":"0"}';

/**
 * The JS bridge (`POST devices/<id>/scripts?cmd=…&param=…`): `click` with `[x,y]` (pixels, or fractions of
 * the screen below 1, as the vendor's scripts allow) taps, `send` with `sigmaConst.KEY_…` presses a key,
 * `swipe` with `[[x,y,ms],…]` swipes from its first point to its last (every point the same: a long press,
 * held for the sum of the ms) and moves the screen's scrolling rectangles by that delta, `inputText` with a
 * quoted string types it (recorded; no field is drawn). Answers `{"status": true, "value": "0"}` as the
 * reference example does; another function is unknown here.
 */
export function script(state: SimulatorState, device: string, query: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const { width, height } = phone.size;
  if (query.cmd === 'click') {
    const m = CLICK.exec(query.param ?? '');
    if (!m) return failure(`click takes [x,y]; got ${JSON.stringify(query.param ?? null)}`);
    const [x, y] = [Number(m[1]), Number(m[2])].map((n, i) => (n < 1 && m[i + 1]!.includes('.') ? Math.floor(n * (i ? height : width)) : n)) as [number, number];
    if (!Number.isInteger(x) || !Number.isInteger(y) || x >= width || y >= height) return failure(`(${m[1]}, ${m[2]}) is not on the screen (${width}×${height})`);
    recordAct(state.acts, { device: phone.id, kind: 'tap', x, y, at: state.now() });
    return OK;
  }
  if (query.cmd === 'send') {
    const m = KEY.exec(query.param ?? '');
    if (!m) return failure(`send takes a key such as sigmaConst.KEY_BACK; got ${JSON.stringify(query.param ?? null)}`);
    recordAct(state.acts, { device: phone.id, kind: 'key', key: m[1]!, at: state.now() });
    return OK;
  }
  if (query.cmd === 'swipe') {
    const points = swipePoints(query.param ?? '', width, height);
    if (typeof points === 'string') return failure(points);
    const from = points[0]!;
    const to = points[points.length - 1]!;
    const durationMs = points.reduce((sum, p) => sum + p.ms, 0);
    if (points.every((p) => p.x === from.x && p.y === from.y)) {
      recordAct(state.acts, { device: phone.id, kind: 'long-press', x: from.x, y: from.y, durationMs, at: state.now() });
    } else {
      recordAct(state.acts, { device: phone.id, kind: 'swipe', from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y }, durationMs, at: state.now() });
      phone.scroll(to.x - from.x, to.y - from.y);
    }
    return OK;
  }
  if (query.cmd === 'inputText') {
    const text = quoted(query.param ?? '');
    if (text === undefined) return failure(`inputText takes a quoted string such as "hello"; got ${JSON.stringify(query.param ?? null)}`);
    recordAct(state.acts, { device: phone.id, kind: 'text', text, at: state.now() });
    return OK;
  }
  return failure(`device.${String(query.cmd ?? '')} is not a function this simulator knows: click, send, swipe and inputText are`);
}

/** A swipe's `[[x,y,ms],…]` in pixels (fractions below 1 of the screen resolved), or what is wrong with it. */
function swipePoints(param: string, width: number, height: number): { x: number; y: number; ms: number }[] | string {
  const wrong = `swipe takes [[x,y,ms],[x,y,ms],…] with two or more points on the screen (${width}×${height}); got ${JSON.stringify(param.slice(0, 200))}`;
  let raw: unknown;
  try {
    raw = JSON.parse(param);
  } catch {
    return wrong;
  }
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > MAX_POINTS) return wrong;
  const points: { x: number; y: number; ms: number }[] = [];
  for (const p of raw) {
    if (!Array.isArray(p) || p.length !== 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return wrong;
    const [x, y] = [p[0] as number, p[1] as number].map((n, i) => (!Number.isInteger(n) && n < 1 ? Math.floor(n * (i ? height : width)) : n)) as [number, number];
    if (!Number.isInteger(x) || !Number.isInteger(y) || x >= width || y >= height || !Number.isInteger(p[2])) return wrong;
    points.push({ x, y, ms: p[2] as number });
  }
  return points;
}

/** The text of a JavaScript string literal in double quotes (JSON's form), or undefined. */
function quoted(param: string): string | undefined {
  try {
    const text: unknown = JSON.parse(param);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** An app's state (`POST devices/<id>/apps/<package>?state=active|inactive|restart`): starts or closes it. */
export function appState(state: SimulatorState, device: string, app: string, query: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const wanted = query.state ?? '';
  if (!STATES.has(wanted)) return failure(`state ${JSON.stringify(wanted)} is not active, inactive or restart`);
  recordAct(state.acts, { device: phone.id, kind: 'app', app, state: wanted as 'active' | 'inactive' | 'restart', at: state.now() });
  if (wanted === 'inactive') {
    if (phone.foreground === app) phone.foreground = '';
  } else phone.foreground = app;
  return JSON.stringify({ status: true, value: `make it ${wanted}` });
}
