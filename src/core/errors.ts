/**
 * Typed errors with stable codes. Code branches on `code` (or the type guards), never on message text.
 * Every message says what went wrong and, where one exists, what to do ("try: …").
 */

/** Stable error codes; each maps to one CLI exit code (see {@link exitCodeFor}). */
export type ErrorCode =
  | 'PW_USAGE'
  | 'PW_CONFIG'
  | 'PW_SERVICE'
  | 'PW_PROTOCOL'
  | 'PW_CHECK_FAILED'
  | 'PW_AUTH'
  | 'PW_UNREACHABLE'
  | 'PW_TIMEOUT'
  | 'PW_ABORTED';

const EXIT_CODES: Record<ErrorCode, number> = {
  PW_SERVICE: 1,
  PW_PROTOCOL: 1,
  PW_CHECK_FAILED: 1,
  PW_USAGE: 2,
  PW_CONFIG: 2,
  PW_AUTH: 3,
  PW_UNREACHABLE: 4,
  PW_TIMEOUT: 4,
  PW_ABORTED: 130,
};

export interface ErrorDetails {
  /** What the user can do about it; appended to the message as "try: …". */
  hint?: string;
  cause?: unknown;
}

/** Base of every error phonewright throws on purpose. */
export class PhonewrightError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(details.hint ? `${message}; try: ${details.hint}` : message, { cause: details.cause });
    this.code = code;
    this.hint = details.hint;
    this.name = new.target.name;
  }
}

/** Bad input from the user: arguments, options, colors, device ids. Nothing was changed. */
export class UsageError extends PhonewrightError {
  declare readonly code: 'PW_USAGE';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_USAGE', message, details);
  }
}

/** A configuration file, an environment variable or a scenario that cannot be used. */
export class ConfigError extends PhonewrightError {
  declare readonly code: 'PW_CONFIG';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_CONFIG', message, details);
  }
}

/**
 * Why the service's answer was a failure, finer than the code: what the resilience policy and the matrix read.
 * - `failed`: `{"status": null, "value": "<message>"}`, or a failure with no more to tell
 * - `bare-false`: a bare `{"status": false}` with no cause to name (for a pixel read: the phone is there and the
 *   point on its screen; the client checked)
 * - `phone-missing`: the server says the phone is unknown or offline
 * - `outside-screen`: a pixel off the phone's screen
 * - `busy`: HTTP 429 or 5xx, the server's passing trouble
 */
export type ServiceReason = 'failed' | 'bare-false' | 'phone-missing' | 'outside-screen' | 'busy' | 'not-offered';

/** The service answered, and the answer was a failure (`status: null` or `false`, or a 429/5xx). */
export class ServiceError extends PhonewrightError {
  declare readonly code: 'PW_SERVICE';
  readonly reason: ServiceReason;
  /** The operation that failed, e.g. `pixel`, `settings`. */
  readonly operation: string;
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | undefined;
  /** With `busy`: how long the server asked to wait (`Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;
  constructor(
    operation: string,
    message: string,
    details: ErrorDetails & { reason?: ServiceReason; serverMessage?: string | undefined; retryAfterMs?: number | undefined } = {},
  ) {
    super('PW_SERVICE', message, details);
    this.operation = operation;
    this.reason = details.reason ?? 'failed';
    this.serverMessage = details.serverMessage;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** `not-json`: a body that is not JSON (a proxy's page, a cut-off answer); `no-route`: HTTP 404, a route the server lacks; `off-interface`: anything else off the interface. */
export type ProtocolReason = 'not-json' | 'off-interface' | 'no-route';

/** The service answered with something that is not the interface: not JSON, wrong types, no envelope. */
export class ProtocolError extends PhonewrightError {
  declare readonly code: 'PW_PROTOCOL';
  readonly reason: ProtocolReason;
  readonly operation: string;
  constructor(operation: string, message: string, details: ErrorDetails & { reason?: ProtocolReason } = {}) {
    super('PW_PROTOCOL', message, details);
    this.operation = operation;
    this.reason = details.reason ?? 'off-interface';
  }
}

/** A check the user asked for did not hold (doctor, a CLI assertion). */
export class CheckFailedError extends PhonewrightError {
  declare readonly code: 'PW_CHECK_FAILED';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_CHECK_FAILED', message, details);
  }
}

/**
 * `login-refused`: the credentials; `token-rejected`: the server refused a token (the client logs in again);
 * `tokens-refused`: it refused a fresh token, or token after token: logging in again does not help.
 */
export type AuthReason = 'login-refused' | 'token-rejected' | 'tokens-refused';

/** Login refused, or a token rejected even after logging in again. Names the user, never the password. */
export class AuthError extends PhonewrightError {
  declare readonly code: 'PW_AUTH';
  readonly reason: AuthReason;
  readonly user: string;
  constructor(user: string, message: string, details: ErrorDetails & { reason?: AuthReason } = {}) {
    super('PW_AUTH', message, details);
    this.user = user;
    this.reason = details.reason ?? 'login-refused';
  }
}

/** The server could not be reached (refused, reset, DNS) after the retries allowed. */
export class UnreachableError extends PhonewrightError {
  declare readonly code: 'PW_UNREACHABLE';
  /** The network's own code (`ECONNREFUSED`, `ECONNRESET`, undici's `UND_ERR_SOCKET`…), when there is one. */
  readonly networkCode: string | undefined;
  constructor(message: string, details: ErrorDetails & { networkCode?: string | undefined } = {}) {
    super('PW_UNREACHABLE', message, details);
    this.networkCode = details.networkCode;
  }
}

/**
 * `attempt`: one request got no answer within the per-attempt timeout; `deadline`: the caller's deadline (an
 * assertion's timeout, a call's total budget) passed; `wait`: another wait ran out (a pool, a connection).
 */
export type TimeoutReason = 'attempt' | 'deadline' | 'wait';

/** A call, or a wait, ran out of time. */
export class TimeoutError extends PhonewrightError {
  declare readonly code: 'PW_TIMEOUT';
  readonly reason: TimeoutReason;
  /**
   * Set when the time ran out on this machine's account: the ms the host kept the wait (its loop held, its cores
   * queued for), all it was allowed. Not the lab's failure.
   */
  readonly hostMs: number | undefined;
  constructor(message: string, details: ErrorDetails & { reason?: TimeoutReason; hostMs?: number } = {}) {
    super('PW_TIMEOUT', message, details);
    this.reason = details.reason ?? 'wait';
    this.hostMs = details.hostMs;
  }
}

/** `this host was busy: 2400 ms waiting for its CPU`: how a wait that the host ended says so. */
export function hostBusy(ms: number): string {
  return `this host was busy: ${Math.round(ms)} ms waiting for its CPU`;
}

/** The caller aborted (an AbortSignal, Ctrl-C). */
export class AbortedError extends PhonewrightError {
  declare readonly code: 'PW_ABORTED';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_ABORTED', message, details);
  }
}

/** True for any error phonewright threw on purpose; narrows to one code when given. */
export function isPhonewrightError<C extends ErrorCode>(error: unknown, code?: C): error is PhonewrightError & { code: C } {
  return error instanceof PhonewrightError && (code === undefined || error.code === code);
}

/**
 * Errors that say the server or the phone is not there (as opposed to the product under test being wrong):
 * the matrix marks tests failing with these as `infra-failure`. A wait this machine ended (see
 * {@link TimeoutError.hostMs}) is not one.
 */
export function isInfrastructureError(error: unknown): boolean {
  if (!(error instanceof PhonewrightError)) return false;
  if (error instanceof TimeoutError && error.hostMs !== undefined) return false;
  if (error.code === 'PW_AUTH' || error.code === 'PW_UNREACHABLE' || error.code === 'PW_TIMEOUT') return true;
  return error instanceof ServiceError && error.reason === 'phone-missing';
}

/**
 * The CLI exit code for an error: 1 service failure, 2 bad usage, 3 authentication, 4 unreachable. A point the
 * server found off the phone's screen is bad input, as one the client refused before sending: 2.
 */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ServiceError && error.reason === 'outside-screen') return 2;
  return error instanceof PhonewrightError ? EXIT_CODES[error.code] : 1;
}
