import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { redactTokenParam } from '../core/redact.js';
import type { RouteMatch } from '../core/routes.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import type { FaultDecision } from './faults.js';
import { hold, serve } from './handlers.js';
import type { MissingRouteForm } from './options.js';
import { failure, sendInternalError, sendText } from './respond.js';
import { findRoute, type RouteTable } from './route-table.js';
import type { SimulatorState } from './state.js';
import type { UploadContext } from './storage.js';

/** What the request handler needs. */
export interface DispatchContext {
  state: SimulatorState;
  /** The routes served, under which roots, and those not offered. */
  table: RouteTable;
  /** `<user>:<password>` the login accepts. */
  credentials: string;
  adminKey: string;
  /** How a route not offered answers. */
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
  /** Whether `screen/texts` reads text on the screen (its OCR form, `rect=`). */
  ocr: boolean;
}

const NOT_JSON = '<html><body><h1>502 Bad Gateway</h1><p>injected fault: a body that is not JSON</p></body></html>';
/** Long enough to tell what was asked, short enough that 10,000 query parameters do not flood the log. */
const MAX_LOGGED_URL = 300;
/** The scheme and authority of a request target in absolute form (`http://host:8090/…`, RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The simulator's request handler: the admin API, then the routes under the API roots, with faults injected
 * first when any are set. A request target in absolute form (`GET http://host:8090/TotalControl/v1/login`,
 * which HTTP/1.1 servers must accept) is routed by its path. A path that is no route answers HTTP 404 with
 * `no such route`; a route of the vendor's the simulator does not offer answers in the missing-route form.
 * It never throws: whatever goes wrong answers a JSON 500.
 */
export function createRequestHandler(ctx: DispatchContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (ctx.log) logWhenDone(req, res, ctx.log);
    try {
      let url = req.url ?? '/';
      // Origin form starts with "/": the only check the hot path pays.
      if (url.charCodeAt(0) !== 47) url = originForm(url);
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      if (pathname.startsWith(ADMIN_PREFIX)) {
        ctx.state.stats.admin++;
        return void handleAdmin(req, res, pathname, ctx.state, ctx.adminKey).catch((e: unknown) => sendInternalError(res, e));
      }
      const method = req.method ?? 'GET';
      const match = findRoute(ctx.table, method, pathname);
      if (!match || ctx.table.missing.has(match.op)) return noRoute(req, res, method, pathname, match !== undefined, ctx);
      const { state } = ctx;
      state.count(match.op);
      const search = q < 0 ? '' : url.slice(q + 1);
      const fault = state.faults.active ? state.faults.decide(match.op) : undefined;
      // Without faults or a lab's latency, nothing here costs more than these two checks.
      if (fault !== undefined || state.latency !== undefined) return delayed(req, res, match, fault, ctx, () => serve(req, res, match, search, ctx));
      serve(req, res, match, search, ctx);
    } catch (e) {
      sendInternalError(res, e);
    }
  };
}

/**
 * A path that is no route answers HTTP 404; a route of the vendor's this simulator does not offer answers in
 * the missing-route form. Both say `no such route: <METHOD> <path>` in the failure envelope, never that a
 * phone is missing.
 * @param offeredElsewhere the path is a route of the vendor's, not offered here
 */
function noRoute(req: IncomingMessage, res: ServerResponse, method: string, pathname: string, offeredElsewhere: boolean, ctx: DispatchContext): void {
  ctx.state.stats.notFound++;
  req.resume();
  const said = failure(`no such route: ${method} ${pathname.slice(0, 200)}`);
  const form = offeredElsewhere ? ctx.missingRoutes : 404;
  sendText(res, form === 'envelope' ? 200 : form, said);
}

/** The path and query of a request target in absolute form; a target of another form is left as it is. */
function originForm(target: string): string {
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
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
