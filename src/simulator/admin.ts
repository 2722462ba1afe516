import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPhonewrightError } from '../core/errors.js';
import { checkBehaviour } from './behaviour.js';
import { checkObject, type Fail } from './check.js';
import { checkFaults } from './faults.js';
import { checkLab, OFFSET_HINT } from './lab.js';
import { sendJson } from './respond.js';
import type { DrawnScreenInput, ElementInput, TextInput } from './scenario-types.js';
import { screenInfo } from './screen-info.js';
import { applySettings } from './settings-input.js';
import type { NotificationPost, RectFill, SimulatorState } from './state.js';
import { secretsEqual } from './tokens.js';
import { ADMIN_KEY_HEADER, ADMIN_PREFIX } from './admin-routes.js';

export { ADMIN_KEY_HEADER, ADMIN_PREFIX };

/** A PNG of the largest phone fits; anything bigger is a mistake. */
const MAX_ADMIN_BODY = 64 * 1024 * 1024;

class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const FAIL: Fail = (where, what) => {
  throw new AdminError(400, `${where} ${what}`);
};

/**
 * Serves `/_sim/…`: changes to the phones, messages, behaviour and faults, for tests and demos. Refused with
 * 403 without the admin key. Answers `{"ok": true, …}` or `{"ok": false, "error": "…"}`.
 *
 * GET state · GET stats · POST reset · POST tokens/expire · PUT faults (JSON) · DELETE faults ·
 * PATCH behaviour (JSON) · PUT lab (true, false, {} or the settings) · DELETE lab ·
 * POST notifications ({device, app, text, time?}) ·
 * PUT phones/<id>/screen (a PNG body, or a JSON drawn screen) · GET phones/<id>/screen (PNG) ·
 * GET phones/<id>/elements (the screen shown: its name, elements and texts) ·
 * POST phones/<id>/rect ({x, y, width, height, color}) · PATCH phones/<id>/settings (wire names) ·
 * PATCH phones/<id>/clock ({offsetMs}) · POST phones/<id>/online · POST phones/<id>/offline ·
 * POST phones/<id>/freeze · POST phones/<id>/thaw · PUT phones/<id>/clipboard ({text})
 * @param pathname the request path, without the query
 */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, pathname: string, state: SimulatorState, adminKey: string): Promise<void> {
  const key = req.headers[ADMIN_KEY_HEADER];
  if (typeof key !== 'string' || !secretsEqual(key, adminKey)) {
    req.resume();
    return sendJson(res, { ok: false, error: `admin key missing or wrong: send the header ${ADMIN_KEY_HEADER} (phonewright sim prints the key)` }, 403);
  }
  try {
    const result = await route(req, res, pathname.slice(ADMIN_PREFIX.length), state);
    if (result !== undefined) sendJson(res, { ok: true, ...result });
  } catch (e) {
    req.resume();
    const status = e instanceof AdminError ? e.status : isPhonewrightError(e, 'PW_USAGE') ? 400 : 500;
    sendJson(res, { ok: false, error: (e as Error).message }, status);
  }
}

async function route(req: IncomingMessage, res: ServerResponse, path: string, state: SimulatorState): Promise<object | undefined> {
  const method = req.method ?? 'GET';
  const on = (m: string) => {
    if (method !== m) throw new AdminError(405, `use ${m} for ${ADMIN_PREFIX}${path}`);
  };
  switch (path) {
    case 'state':
      on('GET');
      state.catchUp();
      return { phones: state.info(), main: state.main, behaviour: state.behaviour, faults: state.faults.spec, lab: state.lab ?? false, stats: state.stats, startMs: state.startMs };
    case 'stats':
      on('GET');
      return { stats: state.stats };
    case 'acts':
      on('GET');
      return { acts: state.acts };
    case 'reset':
      on('POST');
      state.reset();
      return {};
    case 'tokens/expire':
      on('POST');
      state.tokens.clear();
      return {};
    case 'faults':
      if (method === 'DELETE') {
        state.setFaults(undefined);
        return {};
      }
      on('PUT');
      state.setFaults(await readJson(req, (raw) => checked(checkFaults(raw))));
      return { faults: state.faults.spec };
    case 'behaviour':
      on('PATCH');
      state.setBehaviour(await readJson(req, (raw) => checked(checkBehaviour(raw, 'behaviour'))));
      return { behaviour: state.behaviour };
    case 'lab':
      if (method === 'DELETE') {
        state.setLab(undefined);
        return { lab: false };
      }
      on('PUT');
      state.setLab(await readJson(req, (raw) => checked(checkLab(raw, 'lab'))));
      return { lab: state.lab ?? false, phones: state.info() };
    case 'notifications':
      on('POST');
      return { notification: state.postNotification(await readJson(req, notificationPost)) };
  }
  const m = /^phones\/([^/]+)\/(screen|elements|rect|settings|clock|clipboard|freeze|thaw|online|offline)$/.exec(path);
  if (!m) throw new AdminError(404, `no admin route ${method} ${ADMIN_PREFIX}${path}`);
  let device: string;
  try {
    device = decodeURIComponent(m[1]!);
  } catch {
    throw new AdminError(404, `no phone ${JSON.stringify(m[1])}`);
  }
  const phone = state.find(device);
  if (!phone) throw new AdminError(404, `no phone ${JSON.stringify(device)}; the phones are ${[...state.phones.keys()].join(', ')}`);
  switch (m[2]) {
    case 'screen':
      if (method === 'GET') {
        const png = state.screenOf(phone).toPng();
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        res.end(png);
        return undefined;
      }
      on('PUT');
      state.setScreen(device, isJson(req) ? await readJson(req, drawnScreen) : await readBody(req));
      return { phone: phone.info(state.main) };
    case 'elements':
      on('GET');
      return screenInfo(state, phone);
    case 'rect':
      on('POST');
      state.fillRect(device, await readJson(req, (raw) => rectFill(raw, 'rect')));
      return {};
    case 'settings':
      on('PATCH');
      // Checked by applying them over the phone's settings, as the state does: the same checks, the same messages.
      state.setSettings(device, await readJson(req, (raw) => applySettings(raw, 'settings', phone.settings, FAIL)));
      return { settings: phone.settings };
    case 'clock': {
      on('PATCH');
      state.setClockOffset(device, await readJson(req, clockOffset));
      return { phone: phone.info(state.main) };
    }
    case 'clipboard':
      on('PUT');
      state.setClipboard(device, await readJson(req, clipboardText));
      return {};
    case 'freeze':
    case 'thaw':
      on('POST');
      state.setFrozen(device, m[2] === 'freeze');
      return { phone: phone.info(state.main) };
    default:
      on('POST');
      state.setOnline(device, m[2] === 'online');
      return { phone: phone.info(state.main) };
  }
}

function isJson(req: IncomingMessage): boolean {
  return /^application\/json/i.test(req.headers['content-type'] ?? '');
}

/**
 * Reads a JSON body and checks it into the type a state method takes; bad input is the API's 400.
 * @param parse checks the parsed JSON, throwing through {@link FAIL} (or an AdminError) what is wrong
 */
async function readJson<T>(req: IncomingMessage, parse: (raw: unknown) => T): Promise<T> {
  const body = await readBody(req);
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new AdminError(400, `the body is not JSON: ${(e as Error).message}`);
  }
  return parse(raw);
}

/** The checked value of one of the simulator's checkers, which return the problem as text. */
function checked<T>(result: T | string): T {
  if (typeof result === 'string') throw new AdminError(400, result);
  return result;
}

// The shapes below are checked for types only: the state checks the values (ranges, colours, phones) itself.

function notificationPost(raw: unknown): NotificationPost {
  const p = checkObject(raw, 'notification', ['device', 'app', 'text', 'time'], FAIL);
  const field = fields(p, 'notification');
  return {
    device: field.text('device', 'must be the id of a phone, e.g. "device@1116106541"'),
    app: field.text('app', 'must be a package name, e.g. "com.example.chat"'),
    text: field.text('text', 'must be the message text (a string)'),
    ...(p.time === undefined ? {} : { time: field.number('time', 'must be milliseconds since the epoch') }),
  };
}

function rectFill(raw: unknown, at: string): RectFill {
  const field = fields(checkObject(raw, at, ['x', 'y', 'width', 'height', 'color'], FAIL), at);
  const side = (key: string) => field.number(key, 'must be an integer number of pixels');
  return { x: side('x'), y: side('y'), width: side('width'), height: side('height'), color: field.text('color', 'must be a colour such as "0x25425c"') };
}

/** A drawn screen (a PNG comes as the body itself, not as JSON); its texts and elements are checked by the state. */
function drawnScreen(raw: unknown): DrawnScreenInput {
  const s = checkObject(raw, 'screen', ['width', 'height', 'fill', 'rects', 'texts', 'elements'], FAIL);
  const field = fields(s, 'screen');
  const screen: DrawnScreenInput = { width: field.number('width', 'must be the width in pixels'), height: field.number('height', 'must be the height in pixels') };
  if (s.fill !== undefined) screen.fill = field.text('fill', 'must be a colour such as "0x25425c"');
  if (s.rects !== undefined) {
    if (!Array.isArray(s.rects)) return FAIL('screen.rects', 'must be a list of rectangles {x, y, width, height, color}');
    screen.rects = s.rects.map((r: unknown, i) => rectFill(r, `screen.rects[${i}]`));
  }
  if (s.texts !== undefined) screen.texts = s.texts as TextInput[];
  if (s.elements !== undefined) screen.elements = s.elements as ElementInput[];
  return screen;
}

function clockOffset(raw: unknown): number {
  const body = checkObject(raw, 'clock', ['offsetMs'], FAIL);
  return fields(body, '').number('offsetMs', `is ${JSON.stringify(body.offsetMs)}; ${OFFSET_HINT}`);
}

function clipboardText(raw: unknown): string {
  return fields(checkObject(raw, 'clipboard', ['text'], FAIL), 'clipboard').text('text', 'must be the text to put on the clipboard (a string)');
}

/** Typed reads of an object's fields: a value of another type is a 400 naming the field and what to write. */
function fields(o: Record<string, unknown>, at: string) {
  const where = (key: string) => (at ? `${at}.${key}` : key);
  return {
    text: (key: string, what: string): string => {
      const v = o[key];
      return typeof v === 'string' ? v : FAIL(where(key), what);
    },
    number: (key: string, what: string): number => {
      const v = o[key];
      return typeof v === 'number' ? v : FAIL(where(key), what);
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ADMIN_BODY) throw new AdminError(413, `the body is larger than ${MAX_ADMIN_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
