import type { Dispatcher, Pool } from 'undici';
import { AbortedError, PhonewrightError, ProtocolError, TimeoutError, UnreachableError } from '../core/errors.js';
import { redact, redactTokenParam } from '../core/redact.js';
import { DEADLINE_PASSED, type Deadline } from './deadline.js';
import { TRANSIENT_NETWORK } from './resilience.js';

/**
 * undici, loaded when the first transport is made rather than with this module: a CLI command that sends
 * nothing (`--help`, `init`, `review`) is spared ~0.1 s of CPU, a fifth of its start (docs/performance.md).
 */
let undici: typeof import('undici') | undefined;
let loading: Promise<typeof import('undici')> | undefined;
function loadUndici(): Promise<typeof import('undici')> {
  return (loading ??= import('undici').then((m) => (undici = m)));
}

/** Timeouts and pool size of one server's transport. */
export interface TransportOptions {
  /**
   * Longest wait for one attempt's answer (headers, then each gap in the body), in ms; cut to what remains
   * of the call's deadline.
   * @default 10_000
   */
  attemptTimeout?: number;
  /**
   * Keep-alive connections to the server; concurrent reads beyond it queue.
   * @default 32
   */
  connections?: number;
  /** Called after every attempt with a description in which no secret appears. */
  onCall?: (event: CallEvent) => void;
  /**
   * Ends every call for good once it aborts, requests in flight included, each failing with the signal's
   * reason: the fixtures abort it when the phone's lease is lost, so no request reaches a phone not held.
   */
  signal?: AbortSignal | undefined;
  /**
   * Where the URL and the credentials came from, named by the hints of messages (`--url`, `PHONEWRIGHT_URL`,
   * `the url of server "lab-a" in phonewright.config.json`…).
   * @default the flags and variables that can set them
   */
  sources?: Partial<Record<'url' | 'user' | 'password', string>> | undefined;
}

/** One attempt of one service call, described for logs and report steps (secrets redacted). */
export interface CallEvent {
  operation: string;
  /** e.g. `GET http://127.0.0.1:8090/TotalControl/v1/devices/main?token=***` */
  request: string;
  status?: number;
  attempt: number;
  ms: number;
  error?: string;
}

/** An answer as it came: HTTP status, body text (or bytes, when asked for), one header. */
export interface Reply {
  status: number;
  text: string;
  retryAfter: string | undefined;
  /** The body as it came, for an attempt that asked for `bytes` (then `text` is empty). */
  bytes?: Buffer;
}

/** One request. */
export interface Attempt {
  operation: string;
  /** The path and query under the base URL (API root included), or an absolute URL (a download). */
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Dispatcher.DispatchOptions['body'];
  deadline: Deadline;
  /** Which attempt of its call this is, for the call log. @default 1 */
  attempt?: number;
  /** Longest wait for the answer's headers once the body is sent (an upload's server stores the file first). */
  headersTimeout?: number;
  /** Keep the answer as bytes (an image) rather than text. */
  bytes?: boolean;
}

/**
 * The largest answer read: 1,000 notifications per phone of a large lab fit many times over; anything larger
 * is not the interface, and reading it whole would cost the runner its memory.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A path that is a whole URL. */
const ABSOLUTE = /^https?:\/\//i;
const DEFAULTS = { attemptTimeout: 10_000, connections: 32 };
/** Network failures after which the server is taken for unreachable (the rest of undici's are its own words). */
const NETWORK_CODES: ReadonlySet<string> = new Set([...TRANSIENT_NETWORK, 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * One keep-alive pool to one server. It sends one request at a time as it is told, bounded by the call's
 * deadline, and turns what went wrong on the wire into typed errors. It neither decodes nor retries: the
 * client decodes, the resilience policy decides what is tried again.
 */
export class Transport {
  readonly origin: string;
  readonly basePath: string;
  /** The pool of connections to the server, opened on the first request. */
  #pool: Pool | undefined;
  #closed = false;
  /** Pools to other origins (an image a capture names on another port), opened on first use. */
  #others = new Map<string, Pool>();
  #options: typeof DEFAULTS & Pick<TransportOptions, 'onCall' | 'signal' | 'sources'>;
  #secrets: () => Iterable<string | undefined>;

  /**
   * @param baseUrl the server's base URL; a path in it (a reverse proxy's prefix) goes before the API root
   * @param secrets the secrets to scrub from every description (token, password, Authorization value)
   */
  constructor(baseUrl: string, options: TransportOptions, secrets: () => Iterable<string | undefined>) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.#options = {
      attemptTimeout: options.attemptTimeout ?? DEFAULTS.attemptTimeout,
      connections: options.connections ?? DEFAULTS.connections,
      onCall: options.onCall,
      signal: options.signal,
      sources: options.sources,
    };
    this.#secrets = secrets;
    // Loading from now on, so the first request seldom waits for it; a failure shows on that request.
    loadUndici().catch(() => {});
  }

  /** Describes a request for messages: method and URL, token and secrets redacted. */
  describe(method: string, path: string): string {
    return redact(`${method} ${ABSOLUTE.test(path) ? '' : this.origin + this.basePath}${redactTokenParam(path)}`, this.#secrets());
  }

  /** Scrubs the secrets from any text (a server's message, a body excerpt). */
  clean(text: string): string {
    return redact(redactTokenParam(text), this.#secrets());
  }

  /**
   * Sends one request and reads its answer whole. Each wait is cut to what remains of the deadline, and the
   * deadline's signal aborts the request in flight.
   * @throws UnreachableError, TimeoutError (`attempt` or `deadline`), AbortedError, ProtocolError (too large)
   */
  async send(a: Attempt): Promise<Reply> {
    const t0 = performance.now();
    const method = a.method ?? 'GET';
    let status: number | undefined;
    // A deadline with a signal ends the request itself, to the millisecond. One without (a call's own budget)
    // is held by undici's timeouts cut to what remains; those run on undici's coarse timers, so a cut wait
    // that runs out is taken for the deadline passing, even when it fires a moment before or after it.
    let cut = false;
    const stop = this.#options.signal;
    try {
      // An absolute URL on this server goes through the pool; one elsewhere (a capture's image) on its own.
      const url = ABSOLUTE.test(a.path) ? new URL(a.path) : undefined;
      const pool = await this.#poolOf(url !== undefined && url.origin !== this.origin ? url.origin : undefined);
      // After the pool, which may wait for undici's load: a deadline that passed meanwhile sends nothing.
      if (stop?.aborted) throw stop.reason;
      if (a.deadline.passed) throw a.deadline.cancelled ? a.deadline.signal!.reason : DEADLINE_PASSED;
      const headersTimeout = a.headersTimeout ?? this.#options.attemptTimeout;
      const remaining = a.deadline.signal ? Infinity : Math.max(1, Math.min(Math.floor(a.deadline.remaining()), 2 ** 31 - 1));
      cut = remaining <= Math.max(headersTimeout, this.#options.attemptTimeout);
      const res = await pool.request({
        method,
        path: url ? url.pathname + url.search : this.basePath + a.path,
        headers: a.headers,
        body: a.body,
        signal: stop ? (a.deadline.signal ? AbortSignal.any([a.deadline.signal, stop]) : stop) : a.deadline.signal,
        headersTimeout: Math.min(headersTimeout, remaining),
        bodyTimeout: Math.min(this.#options.attemptTimeout, remaining),
      });
      status = res.statusCode;
      const retryAfter = res.headers['retry-after'];
      const body = await readLimited(res.body, res.headers['content-length'], MAX_BODY_BYTES, a.bytes === true && status === 200);
      this.#report(a, method, t0, status);
      const reply: Reply = { status, text: typeof body === 'string' ? body : '', retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
      if (typeof body !== 'string') reply.bytes = body;
      return reply;
    } catch (error) {
      const typed = this.#typed(a, method, error, cut);
      this.#report(a, method, t0, status, typed);
      throw typed;
    }
  }

  /** Closes the pools: idle keep-alive sockets go at once, requests in flight finish first. */
  async close(): Promise<void> {
    this.#closed = true;
    const pools = [this.#pool, ...this.#others.values()].filter((p) => p !== undefined);
    await Promise.all(pools.map((p) => (p.closed ? undefined : p.close())));
  }

  /** The server's pool, or (given another origin the server's answers point to) a pool of a few connections to it. */
  async #poolOf(origin: string | undefined): Promise<Pool> {
    const { Pool, errors } = undici ?? (await loadUndici());
    // As a closed pool would answer: a request after close() is not sent.
    if (this.#closed) throw new errors.ClientDestroyedError();
    if (origin === undefined) {
      const o = this.#options;
      return (this.#pool ??= new Pool(this.origin, { connections: o.connections, headersTimeout: o.attemptTimeout, bodyTimeout: o.attemptTimeout, keepAliveTimeout: 30_000 }));
    }
    let pool = this.#others.get(origin);
    if (!pool) this.#others.set(origin, (pool = new Pool(origin, { connections: 4, keepAliveTimeout: 30_000 })));
    return pool;
  }

  #report(a: Attempt, method: string, t0: number, status?: number, error?: Error): void {
    const onCall = this.#options.onCall;
    if (!onCall) return;
    const event: CallEvent = { operation: a.operation, request: this.describe(method, a.path), attempt: a.attempt ?? 1, ms: Math.round(performance.now() - t0) };
    if (status !== undefined) event.status = status;
    if (error !== undefined) event.error = this.clean(error.message);
    onCall(event);
  }

  #typed(a: Attempt, method: string, error: unknown, cut: boolean): PhonewrightError {
    if (error instanceof PhonewrightError) return error;
    // The client's own signal ended the request: its reason is the error, however undici wrapped it.
    const stop = this.#options.signal;
    if (stop?.aborted && stop.reason instanceof PhonewrightError) return stop.reason;
    const what = this.describe(method, a.path);
    const op = a.operation;
    if (error instanceof BodyTooLarge) {
      return new ProtocolError(op, `${op}: ${error.message}, not an answer of the interface: ${what}`, { hint: 'check the URL and API root point at the device-control service' });
    }
    // The deadline passed, or the wait it bounds was cut to what remained of it.
    const code = (error as { code?: string } | undefined)?.code;
    const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    if (error === DEADLINE_PASSED || (a.deadline.passed && !a.deadline.cancelled) || (timedOut && cut)) {
      return a.deadline.expired(op, `: ${what}`, error === DEADLINE_PASSED ? undefined : error);
    }
    if (a.deadline.cancelled || code === 'UND_ERR_ABORTED' || (error as Error)?.name === 'AbortError') {
      return new AbortedError(`${op} aborted: ${what}`, { cause: error });
    }
    if (timedOut) {
      return new TimeoutError(`${op}: no answer in time from ${what}`, { reason: 'attempt', hint: 'check that the server is not overloaded, or raise the timeout', cause: error });
    }
    if (code && NETWORK_CODES.has(code)) {
      return new UnreachableError(`${op}: cannot reach the server (${code}): ${what}`, {
        networkCode: code,
        hint: `is the server running and the URL right? check ${this.#options.sources?.url ?? '--url or PHONEWRIGHT_URL'}`,
        cause: error,
      });
    }
    if (undici && error instanceof undici.errors.UndiciError) return new UnreachableError(`${op}: ${this.clean(error.message)}: ${what}`, { networkCode: code, cause: error });
    // Anything else is a bug of ours: not retried, reported as it is (ky's rule).
    throw error;
  }
}

/**
 * Reads a body as UTF-8 text (or as bytes), refusing one larger than `limit` bytes (the rest is not read). A
 * declared length within the limit takes undici's own fast path.
 */
async function readLimited(body: Dispatcher.ResponseData['body'], length: string | string[] | undefined, limit: number, bytes: boolean): Promise<string | Buffer> {
  const declared = typeof length === 'string' ? Number(length) : Number.NaN;
  if (declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit);
  }
  if (declared >= 0) return bytes ? Buffer.from(await body.arrayBuffer()) : body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw new BodyTooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  const all = Buffer.concat(chunks, size);
  return bytes ? all : all.toString('utf8');
}

/** An answer larger than {@link MAX_BODY_BYTES}: not the interface. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit / 1024 / 1024} MiB`);
  }
}
