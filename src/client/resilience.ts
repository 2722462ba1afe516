/**
 * The one resilience policy: which failures are tried again, how often, with what pause, within which
 * deadline. Every loop that repeats a call or a read lives here; the client, the feed and the assertions
 * hand it their attempts and their deadlines, and it decides from the errors' typed codes, never from text.
 *
 * | failure (typed)                                   | calls       | again                         | bound                        |
 * |---------------------------------------------------|-------------|-------------------------------|------------------------------|
 * | connection refused (nothing was sent)             | every call  | capped exponential backoff    | `retries`, the deadline      |
 * | reset, closed, no answer in the attempt timeout   | reads       | capped exponential backoff    | `retries`, the deadline      |
 * | HTTP 429 / 5xx, a body that is not JSON           | reads       | backoff, or `Retry-After`     | `retries`, the deadline      |
 * | token rejected                                    | every call  | log in again, at once         | 3 logins; a fresh token: 1   |
 * | pixel `{"status": false}`, phone there, on screen | pixel reads | at once                       | once                         |
 * | phone unknown or offline                          | reads       | 250, 500, then 1,000 ms       | `phoneReconnectMs`, deadline |
 * | anything else (bad input, refused login, a 4xx…)  | —           | never                         | —                            |
 *
 * One more kind of wait repeats itself: for something another run or worker holds (a phone's lease, an upload's
 * lock, a pool's phone), or for the lease store to answer a renewal. {@link waitForTurn} tries again after each
 * pause until the wait's deadline.
 */
import { AbortedError, AuthError, ProtocolError, ServiceError, TimeoutError, UnreachableError, isPhonewrightError, type PhonewrightError } from '../core/errors.js';
import { Deadline, pause } from './deadline.js';

/** How hard a client tries; the client's options carry these. */
export interface RetryOptions {
  /**
   * Further attempts after the first, for transient failures of reads and refused connections. A region is
   * thousands of reads: on a server that fails one read in six, seven attempts leave one region in a hundred
   * to sample again.
   * @default 6
   */
  retries?: number;
  /**
   * First backoff pause in ms; each retry doubles it, up to `backoffMax`, with jitter.
   * @default 100
   */
  backoffBase?: number;
  /** @default 2_000 */
  backoffMax?: number;
  /**
   * How long a read waits for a phone the server says is gone to come back (a USB link that resets, a phone
   * re-plugged), within the call's deadline. The fixtures set 10 s; a one-off CLI read does not wait.
   * @default 0
   */
  phoneReconnectMs?: number;
}

/** One call, as the policy sees it. */
export interface PolicyCall {
  operation: string;
  /** Sending it again changes nothing on the server (every read; not an upload). */
  idempotent: boolean;
  deadline: Deadline;
  /**
   * Logs in again after `error` (a rejected token). Throws the AuthError that ends the call when logging in
   * again cannot help: `renewed` (the logins this call already caused) reached {@link MAX_RENEWALS}, or the
   * token was refused right after its login.
   */
  renewToken?: (error: AuthError, renewed: number) => Promise<void>;
  /** Told before each further attempt. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** A failed attempt that the policy tries again. */
export interface RetryEvent {
  operation: string;
  error: PhonewrightError;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** The pause before the next one. */
  pauseMs: number;
}

/** What a failure is, for the policy. */
export type FailureKind = 'refused' | 'transient' | 'token' | 'bare-false' | 'phone-gone' | 'final';

/** Logins one call may cause when its tokens keep expiring under it; bounded, so a broken server cannot loop it. */
export const MAX_RENEWALS = 3;
/** Pauses while a read waits for a phone to come back, then the last one repeated. */
const RECONNECT_PAUSES = [250, 500, 1_000];
/** Network failures undici's own retry handler treats as transient (the same list): the table's second row. */
export const TRANSIENT_NETWORK: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
/** HTTP statuses worth another attempt (undici's retry list): the table's third row, read as `busy` by envelope.ts. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const DEFAULTS: Required<RetryOptions> = { retries: 6, backoffBase: 100, backoffMax: 2_000, phoneReconnectMs: 0 };

/** Sorts a failure by its typed code. */
export function classify(error: unknown): FailureKind {
  if (error instanceof AuthError) return error.reason === 'token-rejected' ? 'token' : 'final';
  if (error instanceof UnreachableError) {
    if (error.networkCode === 'ECONNREFUSED') return 'refused';
    return error.networkCode !== undefined && TRANSIENT_NETWORK.has(error.networkCode) ? 'transient' : 'final';
  }
  if (error instanceof TimeoutError) return error.reason === 'attempt' ? 'transient' : 'final';
  if (error instanceof ProtocolError) return error.reason === 'not-json' ? 'transient' : 'final';
  if (error instanceof ServiceError) {
    if (error.reason === 'busy') return 'transient';
    if (error.reason === 'bare-false') return 'bare-false';
    if (error.reason === 'phone-missing') return 'phone-gone';
  }
  return 'final';
}

/**
 * True for a failed read after which an assertion, a feed or a region reads again (its own pace, within its
 * own deadline): the server's passing trouble that outlasted the client's retries. Not a phone gone (the
 * client already waited for it), a refused login, bad input, or a deadline.
 */
export function keepsPolling(error: unknown): boolean {
  const kind = classify(error);
  return kind === 'transient' || kind === 'refused' || kind === 'bare-false';
}

/**
 * Runs `attempt` until it succeeds or the policy gives up, pausing between attempts as the table above says.
 * The error the call ends with says how many attempts it took when there was more than one.
 * @param call the operation, whether it is a read, its deadline
 * @param options the client's retry settings
 * @param attempt one attempt; throws typed errors
 */
export async function withRetries<T>(call: PolicyCall, options: RetryOptions, attempt: () => Promise<T>): Promise<T> {
  const o = options === settled.get(options) ? (options as Required<RetryOptions>) : retrySettings(options);
  const started = performance.now();
  let tries = 0;
  let renewals = 0;
  let bareFalse = 0;
  let goneSince: number | undefined;
  let previous: PhonewrightError | undefined;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isPhonewrightError(error)) throw error;
      // The deadline cutting an attempt short says less than what the attempts before it were told: a phone
      // that kept answering "device not found" ends with that, not with "no answer before the deadline".
      if (previous && error instanceof TimeoutError && error.reason === 'deadline') throw withAttempts(previous, n, performance.now() - started);
      previous = error;
      const kind = classify(error);
      let wait: number | undefined;
      if (kind === 'token' && call.renewToken) {
        await call.renewToken(error as AuthError, renewals++);
        wait = 0;
      } else if ((kind === 'transient' && call.idempotent) || kind === 'refused') {
        if (++tries <= o.retries) wait = backoff(o, tries, error);
      } else if (kind === 'bare-false' && call.idempotent && bareFalse++ === 0) {
        wait = 0;
      } else if (kind === 'phone-gone' && call.idempotent && o.phoneReconnectMs > 0) {
        goneSince ??= performance.now();
        const left = goneSince + o.phoneReconnectMs - performance.now();
        if (left > 0) wait = Math.min(RECONNECT_PAUSES[Math.min(n - 1, RECONNECT_PAUSES.length - 1)]!, left);
      }
      // Given up, or the pause would outlast the deadline: the call ends with what it last saw.
      if (wait === undefined || (wait > 0 && wait >= call.deadline.remaining())) throw withAttempts(error, n, performance.now() - started);
      call.onRetry?.({ operation: call.operation, error, attempt: n, pauseMs: wait });
      if (wait > 0 && !(await pause(wait, call.deadline))) {
        if (call.deadline.cancelled) throw new AbortedError(`${call.operation} aborted while waiting to retry`, { cause: error });
        throw withAttempts(error, n, performance.now() - started);
      }
    }
  }
}

function backoff(o: Required<RetryOptions>, retry: number, error: PhonewrightError): number {
  const asked = error instanceof ServiceError ? error.retryAfterMs : undefined;
  if (asked !== undefined) return Math.min(asked, o.backoffMax);
  const capped = Math.min(o.backoffMax, o.backoffBase * 2 ** (retry - 1));
  // Jitter spreads the retries of many workers hitting the same failing server.
  return capped / 2 + Math.random() * (capped / 2);
}

/** The error a call ends with, saying how hard it tried (before the hint). Keeps its class, code and cause. */
function withAttempts(error: PhonewrightError, attempts: number, ms: number): PhonewrightError {
  if (attempts <= 1) return error;
  const tried = ` (after ${attempts} attempts in ${Math.round(ms)} ms)`;
  const suffix = error.hint ? `; try: ${error.hint}` : '';
  const base = suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
  Object.defineProperty(error, 'message', { value: `${base}${tried}${suffix}`, configurable: true, writable: true });
  return error;
}

/** Settings already filled in by {@link retrySettings}: a client's, made once rather than on every call. */
const settled = new WeakMap<object, object>();

/** The retry settings with their defaults filled in; pass the result to {@link withRetries} call after call. */
export function retrySettings(options: RetryOptions): Required<RetryOptions> {
  const o = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof RetryOptions)[]) if (options[key] !== undefined) o[key] = options[key]!;
  settled.set(o, o);
  return o;
}

/** How a wait for something another run or worker holds paces itself. */
export interface TurnOptions {
  deadline: Deadline;
  /** The pause after a try that did not take it; read after each try (0: try again at once). */
  pauseMs: () => number;
  /** Waits up to `ms`, resolving sooner when the holder may have let go (a watched folder). Default: the whole pause. */
  woken?: (ms: number) => Promise<unknown>;
}

/**
 * Tries `take` until it yields (anything but undefined) or the deadline passes: the one loop of the waits for
 * a lease, an upload's lock, a pool's phone and a lease's renewal. At least one try, and a last one when the
 * deadline comes in a pause.
 * @param take one try; undefined when another holder still has it. Its errors end the wait.
 * @returns what `take` yielded, or undefined when the deadline passed first
 */
export async function waitForTurn<T>(take: () => Promise<T | undefined>, o: TurnOptions): Promise<T | undefined> {
  for (;;) {
    const taken = await take();
    if (taken !== undefined) return taken;
    if (o.deadline.passed) return undefined;
    const ms = Math.min(o.pauseMs(), o.deadline.remaining());
    if (ms > 0) await (o.woken ? o.woken(ms) : pause(ms, o.deadline));
  }
}
