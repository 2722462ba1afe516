// The inspector's API, as the page calls it: each route checks what the page sent, makes the server calls
// (the CLI's client: the page never sees the password or the service's token) and answers JSON or a PNG.
import path from 'node:path';
import { checkKey, type CallOptions, type DeviceClient } from '../client/index.js';
import { isPhonewrightError, ServiceError, UsageError } from '../core/errors.js';
import { checkPointOnScreen } from '../core/screen.js';
import type { Rect } from '../image/index.js';
import { checkRequest } from '../web/bodies.js';
import { INSPECTOR_REQUESTS, LARGEST } from './bodies.js';
import { readEveryPhone } from './every.js';
import { FileExists, fixturesImportFor, writeGolden, writeNew } from './files.js';
import { checkGoldenName, checkSpecName, specFile } from './naming.js';
import { suggestLocator, textsOnScreen } from './locators.js';
import { phoneById, type InspectedPhone } from './phones.js';
import { readPoint, ScreenCapturer } from './reads.js';
import { specSource } from './spec-source.js';
import { checkImageName, writeTemplate } from './templates.js';
import { checkPointName, tableSource, type TableRow } from './table.js';
import type { ApiAnswer, ApiRequest } from '../web/server.js';

/** What the routes work with: the command's client and phones, where files go, and how to scrub a message. */
export interface InspectorContext {
  client: DeviceClient;
  phones: readonly InspectedPhone[];
  /** The phone the command was given: the page opens on it. */
  selected: InspectedPhone;
  /** The server in words: `the embedded simulator` or its URL. */
  server: string;
  /** The working folder; files are named relative to it. */
  cwd: string;
  /** The specs folder (absolute): the device matrix's testDir. */
  specsDir: string;
  /** Each call's options: the command's stop signal. */
  call: CallOptions;
  /** Scrubs every secret (password, token) from a text before the page sees it. */
  clean: (text: string) => string;
}

type Route = (ctx: InspectorContext, req: ApiRequest, capturer: ScreenCapturer) => Promise<ApiAnswer>;

const ROUTES: Record<string, Route> = {
  'GET phones': async (ctx) => ok({ server: ctx.server, selected: ctx.selected.id, specs: rel(ctx, ctx.specsDir), phones: ctx.phones.map(phoneJson) }),
  'GET screen': async (ctx, req, capturer) => ({ status: 200, png: await capturer.capture(phone(ctx, req.query.get('phone')), ctx.call) }),
  'GET pixel': async (ctx, req) => {
    const p = phone(ctx, req.query.get('phone'));
    const x = whole('x', req.query.get('x'));
    const y = whole('y', req.query.get('y'));
    checkPointOnScreen(sized(p), x, y);
    return ok(await readPoint(ctx.client, p.id, x, y, ctx.call, p.screen));
  },
  'GET locator': async (ctx, req) => {
    const p = phone(ctx, req.query.get('phone'));
    const x = whole('x', req.query.get('x'));
    const y = whole('y', req.query.get('y'));
    checkPointOnScreen(sized(p), x, y);
    return ok({ suggestion: (await suggestLocator(ctx.client, p, x, y, ctx.call)) ?? null });
  },
  'GET texts': async (ctx, req) => ok(await textsOnScreen(ctx.client, phone(ctx, req.query.get('phone')), ctx.call)),
  'POST tap': async (ctx, req) => {
    const p = phone(ctx, req.body.phone);
    const x = whole('x', req.body.x);
    const y = whole('y', req.body.y);
    checkPointOnScreen(sized(p), x, y);
    await ctx.client.tap(p.id, x, y, ctx.call);
    return ok({ ok: true });
  },
  'POST press': async (ctx, req) => {
    const p = phone(ctx, req.body.phone);
    const key = String(req.body.key);
    checkKey(key);
    await ctx.client.press(p.id, key, ctx.call);
    return ok({ ok: true });
  },
  'POST golden': async (ctx, req) => {
    const p = phone(ctx, req.body.phone);
    const spec = checkSpecName(req.body.spec);
    const mask = Array.isArray(req.body.mask) ? req.body.mask.map((m, i) => rect(`mask[${i}]`, m)) : [];
    const request = { specsDir: ctx.specsDir, specFile: spec, name: checkGoldenName(req.body.name), rect: rect('rect', req.body.rect), mask, replace: req.body.replace === true };
    const written = await writeGolden(ctx.client, p, request, ctx.call);
    return ok({ file: rel(ctx, written.file), width: written.width, height: written.height, project: p.project });
  },
  'POST template': async (ctx, req) => {
    const p = phone(ctx, req.body.phone);
    const request = { specsDir: ctx.specsDir, specFile: checkSpecName(req.body.spec), name: checkImageName(req.body.name), rect: rect('rect', req.body.rect), replace: req.body.replace === true };
    const written = await writeTemplate(ctx.client, p, request, ctx.call);
    return ok({ file: rel(ctx, written.file), image: written.image, width: written.width, height: written.height });
  },
  'POST spec': async (ctx, req) => {
    const spec = checkSpecName(req.body.spec);
    const source = specSource({ title: String(req.body.title ?? ''), lines: req.body.lines as string[], fixtures: fixturesImportFor(ctx.specsDir, spec) });
    const file = specFile(ctx.specsDir, spec);
    await writeNew(ctx.specsDir, file, source, 'choose another name: a spec is never replaced from the page');
    return ok({ file: rel(ctx, file), source });
  },
  'POST every': async (ctx, req) => {
    const from = phone(ctx, req.body.phone);
    const raw = Array.isArray(req.body.points) ? req.body.points : [];
    if (!raw.length) throw new UsageError('no point to read on every phone', { hint: 'pick a point on the phone first' });
    const points = raw.map((pt: unknown, i) => {
      const o = object(`points[${i}]`, pt);
      return { name: checkPointName(o.name), x: whole('x', o.x), y: whole('y', o.y) };
    });
    const clean = (e: unknown) => ctx.clean(isPhonewrightError(e) ? e.message : String(e));
    return ok({ rows: await readEveryPhone(ctx.client, ctx.phones, from, points, clean, ctx.call) });
  },
  'POST table': async (ctx, req) => {
    const from = phone(ctx, req.body.phone);
    const rows = (Array.isArray(req.body.rows) ? req.body.rows : []).map((r: unknown, i) => object(`rows[${i}]`, r) as unknown as TableRow);
    const source = tableSource(rows, label(from));
    if (req.body.file === undefined) return ok({ source });
    const file = specFile(ctx.specsDir, checkSpecName(req.body.file, '.ts'));
    await writeNew(ctx.specsDir, file, source, 'choose another name: a table is never replaced from the page');
    return ok({ source, file: rel(ctx, file) });
  },
};

/**
 * Answers one request of the API, its body or query checked first against its route's schema (bodies.ts). A
 * wrong input is 400; a route the server lacks 501; a file that is there 409; the server's own failures 502
 * (504 when it did not answer in time); each with one line that says what went wrong and what to do, secrets
 * scrubbed.
 * @param ctx the inspector's client, phones and folders
 * @param req the request
 * @param capturer the screen captures in flight
 */
export async function answer(ctx: InspectorContext, req: ApiRequest, capturer: ScreenCapturer): Promise<ApiAnswer> {
  const route = ROUTES[`${req.method} ${req.route}`];
  if (!route) return { status: 404, json: { error: `no such API route: ${req.method} /api/${req.route.slice(0, 60)}` } };
  try {
    await checkRequest(INSPECTOR_REQUESTS, req);
    return await route(ctx, req, capturer);
  } catch (error) {
    return failure(ctx, error);
  }
}

function failure(ctx: InspectorContext, error: unknown): ApiAnswer {
  if (error instanceof FileExists) return { status: 409, json: { error: ctx.clean(`${rel(ctx, error.file)} exists already; try: ${error.hint}`), reason: 'exists' } };
  if (!isPhonewrightError(error)) return { status: 500, json: { error: ctx.clean(`unexpected error: ${(error as Error)?.message ?? String(error)}`) } };
  const status = error.code === 'PW_USAGE' || error.code === 'PW_CONFIG' ? 400 : error instanceof ServiceError && error.reason === 'not-offered' ? 501 : error.code === 'PW_TIMEOUT' ? 504 : 502;
  const reason = error instanceof ServiceError ? error.reason : error.code;
  return { status, json: { error: ctx.clean(error.message), reason } };
}

function ok(json: unknown): ApiAnswer {
  return { status: 200, json };
}

function phone(ctx: InspectorContext, id: unknown): InspectedPhone {
  return phoneById(ctx.phones, id);
}

function phoneJson(p: InspectedPhone) {
  return { id: p.id, name: p.name, model: p.model ?? null, manufacturer: p.manufacturer ?? null, width: p.screen?.width ?? null, height: p.screen?.height ?? null, project: p.project, goldenSuffix: p.goldenSuffix };
}

/** A phone in messages: `galaxy-s9 (device@1116106541)`, or its id. */
function label(p: InspectedPhone): string {
  return p.name === p.id ? p.id : `${p.name} (${p.id})`;
}

function sized(p: InspectedPhone) {
  return { screen: p.screen, toString: () => label(p) };
}

function rel(ctx: InspectorContext, file: string): string {
  return path.relative(ctx.cwd, file).split(path.sep).join('/');
}

function whole(name: string, raw: unknown, min = 0): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > LARGEST) {
    throw new UsageError(`invalid ${name} ${JSON.stringify(raw ?? null)}: expected a whole number from ${min} to ${LARGEST}`);
  }
  return n;
}

function object(name: string, raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`invalid ${name}: expected an object`);
  return raw as Record<string, unknown>;
}

function rect(name: string, raw: unknown): Rect {
  const o = object(name, raw);
  return { x: whole(`${name}.x`, o.x), y: whole(`${name}.y`, o.y), width: whole(`${name}.width`, o.width, 1), height: whole(`${name}.height`, o.height, 1) };
}
