import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteMatch } from '../core/routes.js';
import { sendAai } from './aai.js';
import { script } from './acts.js';
import { appList, appState } from './apps.js';
import { capture, serveCaptureFile } from './capture.js';
import type { DispatchContext } from './dispatch.js';
import { handleDownload } from './download.js';
import { inputs } from './inputs.js';
import * as op from './operations.js';
import { readParams } from './params.js';
import { parseQuery, type Query } from './query.js';
import { failure, sendInternalError, sendText } from './respond.js';
import { handleUpload } from './storage.js';
import { texts } from './texts.js';

/** The operations that take a body: the upload (streamed multipart), and the acts (small, read whole). */
const BODY_OPERATIONS = new Set(['upload', 'script', 'appState', 'inputs', 'texts', 'aai']);

/**
 * Serves a request of a route the simulator offers, once faults and latency have had their say: downloads,
 * login, then the parameters (a GET's from its query; a POST's from its query and its body), the token among
 * them, and the operation's handler. The pixel read, the hot path, parses its query and nothing else.
 * @param search the query, without the `?`
 */
export function serve(req: IncomingMessage, res: ServerResponse, match: RouteMatch, search: string, ctx: DispatchContext): void {
  if (match.op === 'download') return void handleDownload(req, res, ctx.upload.realRoot, match.file).catch((e: unknown) => sendInternalError(res, e));
  if (match.op === 'captureFile') return serveCaptureFile(res, ctx.state, match.file);
  const method = req.method;
  if (method !== 'GET' && !BODY_OPERATIONS.has(match.op)) {
    req.resume();
    return sendText(res, 405, '{"status":null,"value":"method not allowed: use GET"}');
  }
  if (match.op === 'login') {
    req.resume();
    const answer = op.login(ctx.state, req.headers.authorization, ctx.credentials);
    return sendText(res, answer.status, answer.body);
  }
  // The upload streams its body to disk; an act's body is a few fields, read whole for its parameters.
  if (method !== 'POST' || match.op === 'upload') return answer(req, res, match, parseQuery(search), ctx);
  readParams(req, search)
    .then((read) => {
      if (read === undefined) return;
      if ('refusal' in read) return sendText(res, 200, failure(read.refusal), read.close);
      answer(req, res, match, read.params, ctx);
    })
    .catch((e: unknown) => sendInternalError(res, e));
}

/** Takes a request and never answers it: the connection stays open until the client closes it. */
export function hold(req: IncomingMessage, res: ServerResponse, ctx: DispatchContext): void {
  // The body is read and dropped, as a server that accepted it would; the client waits for an answer only.
  req.resume();
  if (res.destroyed) return;
  ctx.held.add(res);
  res.once('close', () => ctx.held.delete(res));
}

/** Checks the token among the parameters, holds a frozen phone's requests, and answers the operation. */
function answer(req: IncomingMessage, res: ServerResponse, match: RouteMatch, params: Query, ctx: DispatchContext): void {
  const { state } = ctx;
  if (!state.tokens.check(params.token, state.now())) {
    const failed = op.tokenFailure(state.behaviour);
    // An upload's body is left unread: close the connection after the answer instead of reading it.
    if (match.op === 'upload') req.resume();
    return sendText(res, failed.status, failed.body, match.op === 'upload');
  }
  // A frozen phone's own routes; the server-wide list and the rest still answer.
  if (state.frozenCount !== 0 && 'device' in match && match.op !== 'deviceInfo' && state.isFrozen(match.device)) return hold(req, res, ctx);
  switch (match.op) {
    case 'pixel':
      return sendText(res, 200, op.pixel(state, match.device, params));
    case 'settings':
      return sendText(res, 200, op.settings(state, match.device));
    case 'notifications':
      return sendText(res, 200, op.notifications(state, params));
    case 'mainDevice':
      return sendText(res, 200, op.mainDevice(state));
    case 'deviceList':
      return sendText(res, 200, op.deviceList(state, params));
    case 'deviceInfo':
      return sendText(res, 200, op.deviceInfo(state, match.device));
    case 'capture':
      return sendText(res, 200, capture(state, match.device, params, ctx.port()));
    case 'inputs':
      return sendText(res, 200, inputs(state, match.device, params));
    case 'texts':
      return sendText(res, 200, texts(state, match.device, params, ctx.ocr));
    case 'script':
      return sendText(res, 200, script(state, match.device, params));
    case 'appState':
      return sendText(res, 200, appState(state, match.device, match.app, params));
    case 'apps':
      return sendText(res, 200, appList(state, match.device, params));
    case 'aai':
      return sendText(res, 200, sendAai(state, match.device, params));
    case 'upload':
      return handleUpload(req, res, ctx.upload);
    case 'login':
    case 'download':
    case 'captureFile':
      // Served by serve() before any parameter is read.
      return;
  }
}
