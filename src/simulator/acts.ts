import { offScreen, parsePath, performPath } from './gesture.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

const CLICK = /^\[\s*(\d{1,6}(?:\.\d+)?)\s*,\s*(\d{1,6}(?:\.\d+)?)\s*(?:,\s*sigmaConst\.STATE_[A-Z]+\s*)?\]$/;
const KEY = /^sigmaConst\.(KEY_[A-Z0-9_]{1,40})$/;
const OK = '{"status":true,"value":"0"}';

/**
 * The JS bridge (`POST devices/<id>/scripts?cmd=…&param=…`): `click` with `[x,y]` (pixels, or fractions of
 * the screen below 1, as the vendor's scripts allow) taps, `send` with `sigmaConst.KEY_…` presses a key,
 * `swipe` with `[[x,y,ms],…]` acts a path out as `screen/inputs`' `coord` does (every point the same: a long
 * press, held for the sum of the ms; else a swipe that moves the screen's scrolling rectangles), `inputText`
 * with a quoted string types it (recorded; into the field a tap focused, if any). Answers `{"status": true, "value": "0"}` as the
 * reference example does; another function is unknown here. Every act is recorded `via: 'script'`.
 */
export function script(state: SimulatorState, device: string, query: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const { width, height } = phone.size;
  if (query.cmd === 'click') {
    const m = CLICK.exec(query.param ?? '');
    if (!m) return failure(`click takes [x,y]; got ${JSON.stringify(query.param ?? null)}`);
    const [x, y] = [Number(m[1]), Number(m[2])].map((n, i) => (n < 1 && m[i + 1]!.includes('.') ? Math.floor(n * (i ? height : width)) : n)) as [number, number];
    if (!Number.isInteger(x) || !Number.isInteger(y) || x >= width || y >= height) return failure(offScreen(m[1], m[2], phone.size));
    phone.finger = undefined;
    state.record({ device: phone.id, via: 'script', kind: 'tap', x, y, at: state.now() });
    return OK;
  }
  if (query.cmd === 'send') {
    const m = KEY.exec(query.param ?? '');
    if (!m) return failure(`send takes a key such as sigmaConst.KEY_BACK; got ${JSON.stringify(query.param ?? null)}`);
    state.record({ device: phone.id, via: 'script', kind: 'key', key: m[1]!, at: state.now() });
    return OK;
  }
  if (query.cmd === 'swipe') {
    const points = parsePath(query.param ?? '', phone.size, { name: 'swipe', ms: 'required', fractions: true });
    if (typeof points === 'string') return failure(points);
    performPath(state, phone, points, 'script');
    return OK;
  }
  if (query.cmd === 'inputText') {
    const text = quoted(query.param ?? '');
    if (text === undefined) return failure(`inputText takes a quoted string such as "hello"; got ${JSON.stringify(query.param ?? null)}`);
    state.record({ device: phone.id, via: 'script', kind: 'text', text, at: state.now() });
    return OK;
  }
  return failure(`device.${String(query.cmd ?? '')} is not a function this simulator knows: click, send, swipe and inputText are`);
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
