import { formatColor } from '../core/color.js';
import type { DeviceId } from '../core/device-id.js';
import { AuthError, ProtocolError, ServiceError } from '../core/errors.js';
import type { Rgb } from '../core/color.js';
import type { Reply } from './transport.js';
import { TRANSIENT_STATUSES } from './resilience.js';

/** A pixel's colour as the server gives it, `rgb` printed as `0xrrggbb`. */
export interface Pixel extends Rgb {
  rgb: string;
}

/** An answer's envelope, read strictly: `status` true, false or null, and the whole body. */
export type Envelope =
  | { status: true; body: Record<string, unknown> }
  | { status: false; body: Record<string, unknown> }
  | { status: null; body: Record<string, unknown>; message: string };

/**
 * An answer the resilience policy let through, for its operation to decode: `{"status": true}` (or a documented
 * answer without `status`), a `{"status": false}` the operation takes as its answer (`acceptsBareFalse`), or a
 * failure envelope it found out meant nothing found (`nothingFound`). Failures, rejected tokens and phones gone
 * never get this far: the caller's attempt turns them into typed errors for the policy.
 */
export interface Answer {
  /** False only for a `{"status": false}` the operation accepted, or a failure envelope it took for "nothing found". */
  ok: boolean;
  /** The whole JSON body. */
  body: Record<string, unknown>;
  /** The body as it came: a malformed answer's message quotes it (redacted). */
  text: string;
  ctx: DecodeContext;
}

/** What the client needs to know to decode: who it is, and how to describe and clean text. */
export interface DecodeContext {
  operation: string;
  /** The request, described with secrets redacted. */
  request: string;
  user: string;
  clean(text: string): string;
}

const EXCERPT = 160;

/**
 * Reads an answer into an envelope, or throws the typed error it amounts to: a rejected token (HTTP 401, or
 * `{"status": null}` with a message about the token) an AuthError `token-rejected`; a 429 or 5xx a
 * ServiceError `busy`; a body that is not JSON a ProtocolError `not-json`; anything else off the interface a
 * ProtocolError `off-interface`. The resilience policy decides what to do with each.
 * @param reply the answer
 * @param ctx the operation and request, for messages
 * @param statusOptional true for `devices/main`, whose documented answer has no `status` key
 */
export function readEnvelope(reply: Reply, ctx: DecodeContext, statusOptional = false): Envelope {
  if (reply.status === 401) throw tokenRejected(ctx, `the server answered HTTP 401 to ${ctx.request}`);
  if (TRANSIENT_STATUSES.has(reply.status)) {
    const seconds = reply.retryAfter === undefined ? Number.NaN : Number(reply.retryAfter);
    throw new ServiceError(ctx.operation, `${ctx.operation}: the server answered HTTP ${reply.status} to ${ctx.request}${excerptOf(reply.text, ctx)}`, {
      reason: 'busy',
      retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined,
      hint: 'the server is overloaded or failing; try again later',
    });
  }
  if (reply.status === 404) {
    throw new ProtocolError(ctx.operation, `${ctx.operation}: the server has no such route (HTTP 404): ${ctx.request}`, {
      reason: 'no-route',
      hint: 'check the API root (--api-root or PHONEWRIGHT_API_ROOT; default /TotalControl/v1) and the URL',
    });
  }
  if (reply.status < 200 || reply.status >= 300) {
    throw new ProtocolError(ctx.operation, `${ctx.operation}: unexpected HTTP ${reply.status} from ${ctx.request}${excerptOf(reply.text, ctx)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(reply.text);
  } catch {
    throw new ProtocolError(ctx.operation, `${ctx.operation}: the answer is not JSON: ${ctx.request}${excerptOf(reply.text, ctx) || ' (empty body)'}`, { reason: 'not-json' });
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw malformed(ctx, 'the answer is not a JSON object', reply.text);
  }
  const body = json as Record<string, unknown>;
  if (body.status === true) return { status: true, body };
  if (body.status === false) return { status: false, body };
  if (body.status === null) {
    const v = body.value;
    const message = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
    // The interface publishes no error codes; every server variant seen names the token.
    if (/token/i.test(message)) throw tokenRejected(ctx, `the server refused the token ("${ctx.clean(message)}")`);
    return { status: null, body, message };
  }
  if (statusOptional && !('status' in body)) return { status: true, body };
  throw malformed(ctx, 'status' in body ? `"status" is ${JSON.stringify(body.status)}, not true, false or null` : 'the answer has no "status"', reply.text);
}

/** A protocol error for an answer that is JSON but not the interface, with a redacted excerpt. */
export function malformed(ctx: DecodeContext, what: string, text: string): ProtocolError {
  return new ProtocolError(ctx.operation, `${ctx.operation}: ${what}: ${ctx.request}${excerptOf(text, ctx)}`);
}

/** ` — answered: "<first 160 characters>"`, secrets removed; empty for an empty body. */
export function excerptOf(text: string, ctx: Pick<DecodeContext, 'clean'>): string {
  if (!text) return '';
  // Clean before cutting: a secret cut in two by the slice would no longer be recognized, and its first
  // characters would show.
  const flat = ctx.clean(text).replace(/\s+/g, ' ');
  const cut = flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}… (${text.length} bytes)` : flat;
  return ` — answered: ${JSON.stringify(cut)}`;
}

/**
 * The error for an envelope whose status is not true: `phone-missing` when the server's message says the
 * phone is unknown or offline, `failed` for another message, `bare-false` for `{"status": false}` (a failed
 * read, or a rejected token in one server variant: the client probes the token before it trusts it).
 */
export function failure(ctx: DecodeContext, env: Envelope, device?: DeviceId): ServiceError {
  if (env.status === null) {
    const said = ctx.clean(env.message);
    // The interface publishes no error codes; the simulator and the vendor's servers say "not found"/"offline".
    const missing = device !== undefined && /not found|offline|unknown|no such|disconnected/i.test(said);
    return new ServiceError(ctx.operation, `${ctx.operation} failed${device ? ` for ${device}` : ''}: the server said "${said || '(no message)'}" — ${ctx.request}`, {
      reason: missing ? 'phone-missing' : 'failed',
      serverMessage: said,
      ...(missing ? { hint: 'check the id (phonewright main-device) and that the phone is connected' } : {}),
    });
  }
  return new ServiceError(ctx.operation, `${ctx.operation} failed${device ? ` for ${device}` : ''}: the server answered {"status": false} — ${ctx.request}`, {
    reason: 'bare-false',
  });
}

/** A rejected token: the resilience policy logs in again. */
export function tokenRejected(ctx: Pick<DecodeContext, 'operation' | 'user'>, what: string): AuthError {
  return new AuthError(ctx.user, `${ctx.operation}: ${what}`, {
    reason: 'token-rejected',
    hint: 'check that the user may use the API, or that the server has not been restarted mid-run',
  });
}

/** The `value` of a pixel answer: the object of the vendor's sample body, or the string of its field table. */
export function decodePixel(value: unknown, ctx: DecodeContext, text: string): Pixel {
  // The field table types `value` as a string; the sample body carries an object. Both are accepted.
  if (typeof value === 'string' && /^(?:0x|#)?[0-9a-f]{6}$/i.test(value)) {
    const n = Number.parseInt(value.replace(/^(0x|#)/i, ''), 16);
    const rgb = { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
    return { ...rgb, rgb: formatColor(rgb) };
  }
  if (!isObject(value)) throw malformed(ctx, 'the pixel answer has no {r, g, b, rgb} in "value"', text);
  const { r, g, b, rgb } = value;
  if (!isChannel(r) || !isChannel(g) || !isChannel(b)) throw malformed(ctx, 'the pixel channels r, g, b are not integers from 0 to 255', text);
  const expected = formatColor({ r, g, b });
  if (rgb !== undefined && (typeof rgb !== 'string' || rgb.toLowerCase() !== expected)) {
    throw malformed(ctx, `the pixel's "rgb" ${JSON.stringify(rgb)} disagrees with r, g, b (${expected})`, text);
  }
  return { r, g, b, rgb: expected };
}

function isChannel(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 255;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
