import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPhonewrightError } from '../core/errors.js';
import { checkObject, type Fail } from './check.js';
import { sendJson } from './respond.js';
import type { SimulatorState } from './state.js';
import { secretsEqual } from './tokens.js';

/** The admin API lives beside the interface, never under its API root. */
export const ADMIN_PREFIX = '/_sim/';
/** The header that carries the admin key. */
export const ADMIN_KEY_HEADER = 'x-sim-admin-key';
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
 * POST phones/<id>/rect ({x, y, width, height, color}) · PATCH phones/<id>/settings (wire names) ·
 * PATCH phones/<id>/clock ({offsetMs}) · POST phones/<id>/online · POST phones/<id>/offline ·
 * POST phones/<id>/freeze · POST phones/<id>/thaw
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
      state.setFaults((await readJson(req)) as never);
      return { faults: state.faults.spec };
    case 'behaviour':
      on('PATCH');
      state.setBehaviour((await readJson(req)) as never);
      return { behaviour: state.behaviour };
    case 'lab':
      if (method === 'DELETE') {
        state.setLab(undefined);
        return { lab: false };
      }
      on('PUT');
      state.setLab((await readJson(req)) as never);
      return { lab: state.lab ?? false, phones: state.info() };
    case 'notifications':
      on('POST');
      return { notification: state.postNotification((await readJson(req)) as never) };
  }
  const m = /^phones\/([^/]+)\/(screen|rect|settings|clock|freeze|thaw|online|offline)$/.exec(path);
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
      state.setScreen(device, isJson(req) ? ((await readJson(req)) as never) : await readBody(req));
      return { phone: phone.info(state.main) };
    case 'rect':
      on('POST');
      state.fillRect(device, (await readJson(req)) as never);
      return {};
    case 'settings':
      on('PATCH');
      state.setSettings(device, (await readJson(req)) as never);
      return { settings: phone.settings };
    case 'clock': {
      on('PATCH');
      const body = checkObject(await readJson(req), 'clock', ['offsetMs'], FAIL);
      state.setClockOffset(device, body.offsetMs as number);
      return { phone: phone.info(state.main) };
    }
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

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new AdminError(400, `the body is not JSON: ${(e as Error).message}`);
  }
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
