import { formatResolution } from '../core/settings.js';
import type { Behaviour } from './behaviour.js';
import { parseCount, parseListParam, type Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';
import { secretsEqual } from './tokens.js';

/** An answer of the interface: HTTP status and JSON text. */
export interface Answer {
  status: number;
  body: string;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const WRONG_LOGIN = failure('wrong user name or password');

/**
 * Login: `Authorization` carries base64 of `<user>:<password>`, without a scheme word in the vendor's examples
 * (`Basic ` is accepted too). The comparison takes the same time whatever part of the guess is right. A refusal
 * is `{"status": null, "value": "wrong user name or password"}` ("null for failure", the reference page says),
 * or `{"status": false}` with the behaviour `loginFailure: 'false'`.
 * @param authorization the header as sent
 * @param credentials `<user>:<password>` the simulator accepts
 */
export function login(state: SimulatorState, authorization: string | undefined, credentials: string): Answer {
  const encoded = (authorization ?? '').replace(/^\s*basic\s+/i, '').trim();
  const presented = Buffer.from(encoded, 'base64').toString('utf8');
  if (encoded === '' || !secretsEqual(presented, credentials)) {
    return { status: 200, body: state.behaviour.loginFailure === 'message' ? WRONG_LOGIN : BODY.false };
  }
  const token = state.tokens.issue(state.now(), state.behaviour.tokenLifetimeSeconds, state.behaviour.tokenCalls);
  return { status: 200, body: `{"status":true,"value":{"token":"${token}"}}` };
}

/** The answer to a missing, wrong or expired token, in the shape the behaviour names. */
export function tokenFailure(behaviour: Behaviour): Answer {
  if (behaviour.tokenFailure === 'http401') return { status: 401, body: BODY.invalidToken };
  return { status: 200, body: behaviour.tokenFailure === 'false' ? BODY.false : BODY.invalidToken };
}

/** Main device: `{"id": "device@…"}` with no `status` key, as in the vendor's example. */
export function mainDevice(state: SimulatorState): string {
  return `{"id":${JSON.stringify(state.main)}}`;
}

/** Notifications: `position` (≥ 1), `count` (omitted: 1), and the device/app/match filters. */
export function notifications(state: SimulatorState, query: Query): string {
  const position = parseCount(query.position);
  if (position < 1) return failure(`position must be an integer of 1 or more (got ${JSON.stringify(query.position ?? null)})`);
  const count = query.count === undefined ? 1 : parseCount(query.count);
  if (count < 0) return failure(`count must be an integer of 0 or more (got ${JSON.stringify(query.count)})`);
  const device = parseListParam(query.device);
  const app = parseListParam(query.app);
  const match = parseListParam(query.match);
  for (const [name, value] of [['device', device], ['app', app], ['match', match]] as const) {
    if (value instanceof Error) return failure(`${name} filter ${value.message}`);
  }
  const devices = device as readonly string[] | undefined;
  if (devices?.some((id) => !state.find(id)?.online)) return BODY.deviceNotFound;
  state.catchUp();
  const page = state.notes.read({ position, count, device: devices, app: app as readonly string[] | undefined, match: match as readonly string[] | undefined }, state.behaviour);
  if (page === 'past-end') return state.behaviour.positionPastEnd === 'false' ? BODY.false : BODY.emptyList;
  return JSON.stringify({ status: true, value: page });
}

/** Display settings of one phone, in the wire forms the behaviour names. */
export function settings(state: SimulatorState, device: string): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const s = phone.settings;
  const { hwDecode, resolution } = state.behaviour;
  return JSON.stringify({
    status: true,
    value: {
      display_mode: s.display_mode,
      display_quality: s.display_quality,
      display_accl: s.display_accl,
      display_hw_decode: hwDecode === 'string' ? String(s.display_hw_decode) : s.display_hw_decode,
      display_resolution_mode: s.display_resolution_mode,
      display_orientation: s.display_orientation,
      display_resolution: resolution === 'object' ? { w: s.display_resolution.w, h: s.display_resolution.h } : formatResolution(s.display_resolution),
    },
  });
}

/** The colour of one pixel; `{"status": false}` for an unknown or offline phone, a bad query or a point off screen. */
export function pixel(state: SimulatorState, device: string, query: Query): string {
  const phone = state.find(device);
  if (!phone?.online || query.q !== 'color') return BODY.false;
  const x = parseCount(query.x);
  const y = parseCount(query.y);
  if (x < 0 || y < 0) return BODY.false;
  const c = state.screenOf(phone).colorAt(x, y);
  if (c < 0) return BODY.false;
  const r = c >> 16;
  const g = (c >> 8) & 0xff;
  const b = c & 0xff;
  return `{"status":true,"value":{"r":${r},"g":${g},"b":${b},"rgb":"0x${HEX[r]}${HEX[g]}${HEX[b]}"}}`;
}

/**
 * The vendor's device list: `{"ids": [...]}` with no `status` key, the phones connected now: all of them
 * (`q=all`, or no `q`), the one with a name (`q=name&name=…`), or a group's (`q=group&name=…`). A name or group
 * no phone connected has is no phones, `{"ids": []}`, the answer of an empty lab.
 */
export function deviceList(state: SimulatorState, query: Query): string {
  const q = query.q ?? 'all';
  if (q !== 'all' && q !== 'name' && q !== 'group') return failure(`q ${JSON.stringify(q)} is not all, name (a phone by its name) or group (a group's phones)`);
  if (q !== 'all' && !query.name) return failure(`q=${q} needs name=<${q === 'name' ? "the phone's name" : "the group's name"}>`);
  const online = [...state.phones.values()].filter((p) => p.online);
  const listed = q === 'all' ? online : online.filter((p) => (q === 'name' ? p.name : p.group) === query.name);
  return JSON.stringify({ ids: listed.map((p) => p.id) });
}

/**
 * A phone's properties, in the shape of the vendor's example: its size as its screen shows now, the Android
 * release as text and the SDK level as a number, `orientation` 0 portrait and 1 landscape.
 */
export function deviceInfo(state: SimulatorState, device: string): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const { width, height } = phone.size;
  const n = state.numberOf(phone);
  return JSON.stringify({
    status: true,
    value: {
      name: phone.name,
      IP: `10.0.2.${10 + n}`,
      DPI: '420',
      No: n,
      width,
      height,
      androidVersionRelease: phone.about.android,
      androidVersionSdkInt: phone.about.sdk,
      manufacturer: phone.about.manufacturer,
      model: phone.about.model,
      id: phone.id,
      orientation: width > height ? 1 : 0,
      foregroundapp: phone.foreground,
      sdcard: '/sdcard',
      tmp_path: '/data/local/tmp',
    },
  });
}
