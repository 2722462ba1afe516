import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { redactTokenParam } from '../core/redact.js';
import { matchRoute, type RouteMatch, type Routes } from '../core/routes.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { handleDownload } from './download.js';
import type { FaultDecision } from './faults.js';
import * as op from './operations.js';
import { parseQuery } from './query.js';
import { sendText } from './respond.js';
import type { SimulatorState } from './state.js';
import { handleUpload, type UploadContext } from './storage.js';

/** What the request handler needs. */
export interface DispatchContext {
  state: SimulatorState;
  routes: Routes;
  /** `<user>:<password>` the login accepts. */
  credentials: string;
  adminKey: string;
  upload: UploadContext;
  log: ((line: string) => void) | undefined;
  /** Latency timers in flight, cleared when the simulator closes. */
  timers: Set<NodeJS.Timeout>;
}

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
      if (!match) {
        ctx.state.stats.notFound++;
        req.resume();
        return sendText(res, 404, JSON.stringify({ status: null, value: `no such route: ${method} ${pathname.slice(0, 200)}` }));
      }
      ctx.state.count(match.op);
      const search = q < 0 ? '' : url.slice(q + 1);
      const fault = ctx.state.faults.active ? ctx.state.faults.decide(match.op) : undefined;
      if (fault) return injectFault(req, res, fault, ctx, () => serve(req, res, match, search, ctx));
      serve(req, res, match, search, ctx);
    } catch (e) {
      internalError(res, e);
    }
  };
}

function serve(req: IncomingMessage, res: ServerResponse, match: RouteMatch, search: string, ctx: DispatchContext): void {
  const { state } = ctx;
  if (match.op === 'download') return void handleDownload(req, res, ctx.upload.realRoot, match.file).catch((e: unknown) => internalError(res, e));
  const method = req.method;
  if (match.op !== 'upload' && method !== 'GET') {
    req.resume();
    return sendText(res, 405, '{"status":null,"value":"method not allowed: use GET"}');
  }
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
  switch (match.op) {
    case 'pixel':
      return sendText(res, 200, op.pixel(state, match.device, query));
    case 'settings':
      return sendText(res, 200, op.settings(state, match.device));
    case 'notifications':
      return sendText(res, 200, op.notifications(state, query));
    case 'mainDevice':
      return sendText(res, 200, op.mainDevice(state));
    case 'upload':
      return handleUpload(req, res, ctx.upload);
  }
}

function injectFault(req: IncomingMessage, res: ServerResponse, fault: FaultDecision, ctx: DispatchContext, go: () => void): void {
  const act = () => {
    if (fault.action === 'reset') return void req.socket.destroy();
    if (fault.action === 'error') {
      req.resume();
      return sendText(res, fault.status, JSON.stringify({ status: null, value: `injected fault: HTTP ${fault.status}` }), req.method === 'POST');
    }
    if (fault.action === 'notJson') {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(NOT_JSON) });
      return void res.end(NOT_JSON);
    }
    go();
  };
  if (fault.latencyMs <= 0) return act();
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    if (!res.destroyed) act();
  }, fault.latencyMs);
  ctx.timers.add(timer);
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
  sendText(res, 500, JSON.stringify({ status: null, value: `simulator error: ${(e as Error)?.message ?? String(e)}` }), true);
}
