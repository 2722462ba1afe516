import { recordAct } from './act-log.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

const CLICK = /^\[\s*(\d{1,6}(?:\.\d+)?)\s*,\s*(\d{1,6}(?:\.\d+)?)\s*(?:,\s*sigmaConst\.STATE_[A-Z]+\s*)?\]$/;
const KEY = /^sigmaConst\.(KEY_[A-Z0-9_]{1,40})$/;
const STATES = new Set(['active', 'inactive', 'restart']);

/**
 * The JS bridge (`POST devices/<id>/scripts?cmd=…&param=…`): `click` with `[x,y]` (pixels, or fractions of
 * the screen below 1, as the vendor's scripts allow) taps, `send` with `sigmaConst.KEY_…` presses a key.
 * Answers `{"status": true, "value": "0"}` as the reference example does; another function is unknown here.
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
    return '{"status":true,"value":"0"}';
  }
  if (query.cmd === 'send') {
    const m = KEY.exec(query.param ?? '');
    if (!m) return failure(`send takes a key such as sigmaConst.KEY_BACK; got ${JSON.stringify(query.param ?? null)}`);
    recordAct(state.acts, { device: phone.id, kind: 'key', key: m[1]!, at: state.now() });
    return '{"status":true,"value":"0"}';
  }
  return failure(`device.${String(query.cmd ?? '')} is not a function this simulator knows: click and send are`);
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
