import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { redactTokenParam } from '../core/redact.js';
import { EXTENSION_OPERATIONS, matchRoute, type RouteMatch, type Routes } from '../core/routes.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { appState, script } from './acts.js';
import { capture, serveCaptureFile } from './capture.js';
import { handleDownload } from './download.js';
import type { FaultDecision } from './faults.js';
import * as op from './operations.js';
import type { Capabilities, MissingRouteForm } from './options.js';
import { parseQuery } from './query.js';
import { failure, sendText } from './respond.js';
import type { SimulatorState } from './state.js';
import { handleUpload, type UploadContext } from './storage.js';

/** What the request handler needs. */
export interface DispatchContext {
  state: SimulatorState;
  routes: Routes;
  /** `<user>:<password>` the login accepts. */
  credentials: string;
  adminKey: string;
  /** `seed`: the vendor's routes beyond the interface answer as routes the server does not have. */
  capabilities: Capabilities;
  /** How those routes answer under `seed`. */
  missingRoutes: MissingRouteForm;
  upload: UploadContext;
  log: ((line: string) => void) | undefined;
  /** Latency timers in flight, cleared when the simulator closes. */
  timers: Set<NodeJS.Timeout>;
  /**
   * Requests taken and never answered (a frozen phone, the hang fault), until their client gives up; the
   * simulator destroys them when it closes, so none keeps the process alive.
   */
  held: Set<ServerResponse>;
  /** The port the simulator listens on, for the URLs of screen captures. */
  port: () => number;
}

/** The vendor's routes beyond the interface: a `seed` simulator has none of them. */
const EXTENSIONS = new Set(EXTENSION_OPERATIONS);

const NOT_JSON = '<html><body><h1>502 Bad Gateway</h1><p>injected fault: a body that is not JSON</p></body></html>';
/** Long enough to tell what was asked, short enough that 10,000 query parameters do not flood the log. */
const MAX_LOGGED_URL = 300;

/**
 * The simulator's request handler: the admin API, then the interface's routes under the API root, with
 * faults injected first when any are set. It never throws: whatever goes wrong answers a JSON 500.
 */
export function createRequestHandler(ctx: DispatchContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (ctx.log) logWhenDone(req, res, ctx.log);
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      if (pathname.startsWith(ADMIN_PREFIX)) {
        ctx.state.stats.admin++;
        return void handleAdmin(req, res, pathname, ctx.state, ctx.adminKey).catch((e: unknown) => internalError(res, e));
      }
      const method = req.method ?? 'GET';
      const match = matchRoute(ctx.routes, method, pathname);
      if (!match || (ctx.capabilities === 'seed' && EXTENSIONS.has(match.op))) {
        ctx.state.stats.notFound++;
        req.resume();
        const said = failure(`no such route: ${method} ${pathname.slice(0, 200)}`);
        // Under seed the vendor's routes answer in the form the options name; any other path is not found.
        const form = match ? ctx.missingRoutes : 404;
        return sendText(res, form === 'envelope' ? 200 : form, said);
      }
      const { state } = ctx;
      state.count(match.op);
      const search = q < 0 ? '' : url.slice(q + 1);
      const fault = state.faults.active ? state.faults.decide(match.op) : undefined;
      // Without faults or a lab's latency, nothing here costs more than these two checks.
      if (fault !== undefined || state.latency !== undefined) return delayed(req, res, match, fault, ctx, () => serve(req, res, match, search, ctx));
      serve(req, res, match, search, ctx);
    } catch (e) {
      internalError(res, e);
    }
  };
}

function serve(req: IncomingMessage, res: ServerResponse, match: RouteMatch, search: string, ctx: DispatchContext): void {
  const { state } = ctx;
  if (match.op === 'download') return void handleDownload(req, res, ctx.upload.realRoot, match.file).catch((e: unknown) => internalError(res, e));
  if (match.op === 'captureFile') return serveCaptureFile(res, state, match.file);
  const method = req.method;
  const post = match.op === 'upload' || match.op === 'script' || match.op === 'appState';
  if (!post && method !== 'GET') {
    req.resume();
    return sendText(res, 405, '{"status":null,"value":"method not allowed: use GET"}');
  }
  // An act's body, if any, is not read: its arguments are in the query.
  if (match.op === 'script' || match.op === 'appState') req.resume();
  if (match.op === 'login') {
    const answer = op.login(state, req.headers.authorization, ctx.credentials);
    return sendText(res, answer.status, answer.body);
  }
  const query = parseQuery(search);
  if (!state.tokens.check(query.token, state.now())) {
    const answer = op.tokenFailure(state.behaviour);
    // An upload's body is left unread: close the connection after the answer instead of reading it.
    if (match.op === 'upload') req.resume();
    return sendText(res, answer.status, answer.body, match.op === 'upload');
  }
  // A frozen phone's own routes; the server-wide list and the rest still answer.
  if (state.frozenCount !== 0 && 'device' in match && match.op !== 'deviceInfo' && state.isFrozen(match.device)) return hold(req, res, ctx);
  switch (match.op) {
    case 'pixel':
      return sendText(res, 200, op.pixel(state, match.device, query));
    case 'settings':
      return sendText(res, 200, op.settings(state, match.device));
    case 'notifications':
      return sendText(res, 200, op.notifications(state, query));
    case 'mainDevice':
      return sendText(res, 200, op.mainDevice(state));
    case 'deviceList':
      return sendText(res, 200, op.deviceList(state));
    case 'deviceInfo':
      return sendText(res, 200, op.deviceInfo(state, match.device));
    case 'capture':
      return sendText(res, 200, capture(state, match.device, query, ctx.port()));
    case 'script':
      return sendText(res, 200, script(state, match.device, query));
    case 'appState':
      return sendText(res, 200, appState(state, match.device, match.app, query));
    case 'upload':
      return handleUpload(req, res, ctx.upload);
  }
}

/**
 * Holds a request back by the fault's latency plus the lab's (for a serial screen read, until the phone's
 * screen is free and its own read is done), then injects the fault's action or serves it.
 */
function delayed(req: IncomingMessage, res: ServerResponse, match: RouteMatch, fault: FaultDecision | undefined, ctx: DispatchContext, go: () => void): void {
  const act = fault?.action === undefined ? go : () => injectFault(req, res, fault, ctx, go);
  const now = performance.now();
  const device = 'device' in match ? match.device : undefined;
  const ms = (fault?.latencyMs ?? 0) + (ctx.state.latency?.delay(match.op, device, now) ?? 0);
  if (ms <= 0) return act();
  wakeAt(now + ms, ctx.timers, () => {
    if (!res.destroyed) act();
  });
}

/** Injects a fault's action: a reset, an error status, a body that is not JSON, or no answer at all. */
function injectFault(req: IncomingMessage, res: ServerResponse, fault: FaultDecision, ctx: DispatchContext, go: () => void): void {
  if (fault.action === 'reset') return void req.socket.destroy();
  if (fault.action === 'error') {
    req.resume();
    return sendText(res, fault.status, failure(`injected fault: HTTP ${fault.status}`), req.method === 'POST');
  }
  if (fault.action === 'notJson') {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(NOT_JSON) });
    return void res.end(NOT_JSON);
  }
  if (fault.action === 'hang') return hold(req, res, ctx);
  go();
}

/** Takes a request and never answers it: the connection stays open until the client closes it. */
function hold(req: IncomingMessage, res: ServerResponse, ctx: DispatchContext): void {
  // The body is read and dropped, as a server that accepted it would; the client waits for an answer only.
  req.resume();
  if (res.destroyed) return;
  ctx.held.add(res);
  res.once('close', () => ctx.held.delete(res));
}

/**
 * Runs `fn` once performance.now() reaches `due`. A timer counts from the event loop's cached time, so it can
 * fire a little before its delay; it is armed again for what is left, so no answer comes before its latency.
 */
function wakeAt(due: number, timers: Set<NodeJS.Timeout>, fn: () => void): void {
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (performance.now() < due) return wakeAt(due, timers, fn);
    fn();
  }, Math.ceil(due - performance.now()));
  timers.add(timer);
}

function logWhenDone(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = performance.now();
  res.once('close', () => {
    const url = redactTokenParam(req.url ?? '');
    const shown = url.length > MAX_LOGGED_URL ? `${url.slice(0, MAX_LOGGED_URL)}…` : url;
    const status = res.headersSent ? String(res.statusCode) : 'no answer';
    log(`sim ${req.method} ${shown} ${status} ${(performance.now() - started).toFixed(1)}ms`);
  });
}

function internalError(res: ServerResponse, e: unknown): void {
  if (res.headersSent) return void res.destroy();
  sendText(res, 500, failure(`simulator error: ${(e as Error)?.message ?? String(e)}`), true);
}
