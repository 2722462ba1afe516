import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { AbortedError, PhonewrightError, ProtocolError, TimeoutError, UnreachableError } from '../core/errors.js';
import { redact, redactTokenParam } from '../core/redact.js';

/** Timeouts and retry policy of one server's transport. */
export interface TransportOptions {
  /**
   * Longest wait for one attempt's answer (headers, then each gap in the body), in ms.
   * @default 10_000
   */
  attemptTimeout?: number;
  /**
   * Longest time one call may take, retries and backoff included, in ms.
   * @default 30_000
   */
  totalTimeout?: number;
  /**
   * Further attempts after the first, for idempotent reads that failed transiently.
   * @default 4
   */
  retries?: number;
  /**
   * First backoff delay in ms; each retry doubles it, up to `backoffMax`, with jitter.
   * @default 100
   */
  backoffBase?: number;
  /** @default 2_000 */
  backoffMax?: number;
  /**
   * Keep-alive connections to the server; concurrent reads beyond it queue.
   * @default 32
   */
  connections?: number;
  /** Called after every attempt with a description in which no secret appears. */
  onCall?: (event: CallEvent) => void;
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

/** An answer as it came: HTTP status, body text, one header. */
export interface Reply {
  status: number;
  text: string;
  retryAfter: string | undefined;
}

/**
 * Thrown by a decoder to say "this answer is transient, try again" (a 5xx, a 429, a body that is not JSON).
 * When the retries are used up, `final` is what the caller sees.
 */
export class RetryableReply extends Error {
  readonly final: PhonewrightError;
  readonly retryAfter: string | undefined;
  constructor(final: PhonewrightError, retryAfter?: string) {
    super(final.message);
    this.final = final;
    this.retryAfter = retryAfter;
  }
}

export interface SendOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** The request body, made anew for each attempt. */
  body?: () => Dispatcher.DispatchOptions['body'];
  signal?: AbortSignal | undefined;
  /** Retry transient failures. Only for reads, and for requests that can be sent again. */
  idempotent: boolean;
  /**
   * Retry a refused connection even when not idempotent: nothing was sent, so nothing can be stored twice
   * (field notes: "retry an upload only when the connection was refused before any byte was sent").
   */
  retryRefused?: boolean;
  /** Per-attempt timeout override (uploads wait longer). */
  headersTimeout?: number;
  /**
   * No total deadline: an upload's time grows with its size, so only the per-attempt waits bound it (undici
   * starts the headers timeout once the body is sent).
   */
  unbounded?: boolean;
}

/** Network failures undici's retry handler treats as transient (STYLE.md: the same list). */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
/**
 * The largest answer read: 1,000 notifications per phone of a large lab fit many times over; anything larger
 * is not the interface, and reading it whole would cost the runner its memory.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULTS = { attemptTimeout: 10_000, totalTimeout: 30_000, retries: 4, backoffBase: 100, backoffMax: 2_000, connections: 32 };

/**
 * One keep-alive pool to one server, with per-attempt and total timeouts and retries of transient failures.
 * It knows nothing of tokens or envelopes: the client decodes, and says through {@link RetryableReply} which
 * answers deserve another attempt.
 */
export class Transport {
  readonly origin: string;
  readonly basePath: string;
  #pool: Pool;
  #options: typeof DEFAULTS & Pick<TransportOptions, 'onCall'>;
  #secrets: () => Iterable<string | undefined>;

  /**
   * @param baseUrl the server's base URL; a path in it (a reverse proxy's prefix) goes before the API root
   * @param options timeouts, retries, pool size
   * @param secrets the secrets to scrub from every description (token, password, Authorization value)
   */
  constructor(baseUrl: string, options: TransportOptions, secrets: () => Iterable<string | undefined>) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.#options = { ...DEFAULTS, ...definedOnly(options) };
    this.#secrets = secrets;
    this.#pool = new Pool(this.origin, {
      connections: this.#options.connections,
      headersTimeout: this.#options.attemptTimeout,
      bodyTimeout: this.#options.attemptTimeout,
      keepAliveTimeout: 30_000,
    });
  }

  /** Describes a request for messages: method and URL, token and secrets redacted. */
  describe(method: string, path: string): string {
    return redact(`${method} ${this.origin}${this.basePath}${redactTokenParam(path)}`, this.#secrets());
  }

  /** Scrubs the secrets from any text (a server's message, a body excerpt). */
  clean(text: string): string {
    return redact(redactTokenParam(text), this.#secrets());
  }

  /**
   * Sends one request and decodes the answer, retrying transient failures when `idempotent`.
   * @param operation the interface operation, for messages
   * @param path the path and query under the base URL (API root included)
   * @param decode turns the answer into a result; throws {@link RetryableReply} to ask for another attempt
   */
  async send<T>(operation: string, path: string, options: SendOptions, decode: (reply: Reply) => T): Promise<T> {
    const started = performance.now();
    const deadline = options.unbounded ? Number.POSITIVE_INFINITY : started + this.#options.totalTimeout;
    const maxAttempts = this.#options.retries + 1;
    const method = options.method ?? 'GET';
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      let status: number | undefined;
      try {
        const remaining = Math.max(1, Math.min(Math.floor(deadline - t0), 2 ** 31 - 1));
        const timeout = Math.min(options.headersTimeout ?? this.#options.attemptTimeout, remaining);
        const res = await this.#pool.request({
          method,
          path: this.basePath + path,
          headers: options.headers,
          body: options.body?.(),
          signal: options.signal,
          headersTimeout: timeout,
          bodyTimeout: Math.min(this.#options.attemptTimeout, remaining),
        });
        status = res.statusCode;
        const retryAfter = res.headers['retry-after'];
        const text = await readLimited(res.body, res.headers['content-length'], MAX_BODY_BYTES);
        const value = decode({ status, text, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined });
        this.#report(operation, method, path, attempt, t0, status);
        return value;
      } catch (error) {
        this.#report(operation, method, path, attempt, t0, status, error);
        const final = this.#finalError(operation, method, path, error, options.signal);
        const retryable = options.idempotent
          ? error instanceof RetryableReply || isTransientNetworkError(error)
          : options.retryRefused === true && (error as { code?: string }).code === 'ECONNREFUSED';
        const delay = this.#backoff(attempt, error instanceof RetryableReply ? error.retryAfter : undefined);
        if (!retryable || attempt >= maxAttempts || performance.now() + delay >= deadline) {
          throw attempt > 1 ? withAttempts(final, attempt, performance.now() - started) : final;
        }
        try {
          await sleep(delay, undefined, { signal: options.signal });
        } catch {
          throw new AbortedError(`${operation} aborted while waiting to retry ${this.describe(method, path)}`);
        }
      }
    }
  }

  /** Closes the pool: idle keep-alive sockets go at once, requests in flight finish first. */
  async close(): Promise<void> {
    if (!this.#pool.closed) await this.#pool.close();
  }

  #report(operation: string, method: string, path: string, attempt: number, t0: number, status?: number, error?: unknown): void {
    const onCall = this.#options.onCall;
    if (!onCall) return;
    const event: CallEvent = { operation, request: this.describe(method, path), attempt, ms: Math.round(performance.now() - t0) };
    if (status !== undefined) event.status = status;
    if (error !== undefined) event.error = this.clean(error instanceof Error ? error.message : String(error));
    onCall(event);
  }

  #backoff(attempt: number, retryAfter: string | undefined): number {
    const seconds = retryAfter !== undefined ? Number(retryAfter) : Number.NaN;
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, this.#options.backoffMax);
    const capped = Math.min(this.#options.backoffMax, this.#options.backoffBase * 2 ** (attempt - 1));
    // Jitter spreads the retries of many workers hitting the same failing server.
    return capped / 2 + Math.random() * (capped / 2);
  }

  #finalError(operation: string, method: string, path: string, error: unknown, signal?: AbortSignal): PhonewrightError {
    if (error instanceof RetryableReply) return error.final;
    if (error instanceof PhonewrightError) return error;
    if (error instanceof BodyTooLarge) {
      return new ProtocolError(operation, `${operation}: ${error.message}, not an answer of the interface: ${this.describe(method, path)}`, {
        hint: 'check the URL and API root point at the device-control service',
      });
    }
    const what = this.describe(method, path);
    const code = (error as { code?: string } | undefined)?.code;
    if (signal?.aborted || code === 'UND_ERR_ABORTED' || (error as Error)?.name === 'AbortError') {
      return new AbortedError(`${operation} aborted: ${what}`, { cause: error });
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(`${operation}: no answer in time from ${what}`, {
        hint: 'check that the server is not overloaded, or raise the timeout',
        cause: error,
      });
    }
    if (code && (TRANSIENT_CODES.has(code) || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')) {
      return new UnreachableError(`${operation}: cannot reach the server (${code}): ${what}`, {
        hint: 'is the server running and the URL right? check --url or PHONEWRIGHT_URL',
        cause: error,
      });
    }
    if (error instanceof undiciErrors.UndiciError) {
      return new UnreachableError(`${operation}: ${this.clean(error.message)}: ${what}`, { cause: error });
    }
    // Anything else is a bug of ours or of the decoder: not retried, reported as it is (ky's rule).
    throw error;
  }
}

/**
 * Reads a body as UTF-8 text, refusing one larger than `limit` bytes (the rest is not read). A declared
 * length within the limit takes undici's own fast path.
 */
async function readLimited(body: Dispatcher.ResponseData['body'], length: string | string[] | undefined, limit: number): Promise<string> {
  const declared = typeof length === 'string' ? Number(length) : Number.NaN;
  if (declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit);
  }
  if (declared >= 0) return body.text();
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
  return Buffer.concat(chunks, size).toString('utf8');
}

/** An answer larger than {@link MAX_BODY_BYTES}: not the interface. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit / 1024 / 1024} MiB`);
  }
}

/** True for the network failures worth another attempt (undici's retry list). */
export function isTransientNetworkError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code !== undefined && TRANSIENT_CODES.has(code);
}

function withAttempts(error: PhonewrightError, attempts: number, ms: number): PhonewrightError {
  // Keep the class, code and cause; say how hard we tried, before the hint.
  const tried = ` (after ${attempts} attempts in ${Math.round(ms)} ms)`;
  const suffix = error.hint ? `; try: ${error.hint}` : '';
  const base = suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
  Object.defineProperty(error, 'message', { value: `${base}${tried}${suffix}`, configurable: true, writable: true });
  return error;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
