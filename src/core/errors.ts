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

/** The service answered, and the answer was a failure (`status: null` or `false`). */
export class ServiceError extends PhonewrightError {
  declare readonly code: 'PW_SERVICE';
  /** The operation that failed, e.g. `pixel`, `settings`. */
  readonly operation: string;
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | undefined;
  /** The server said the phone is unknown or offline: an infrastructure failure, not a product one. */
  readonly deviceMissing: boolean;
  /**
   * The answer was a bare `{"status": false}`: a failed read, or a rejected token in one server variant
   * (field notes). The client probes the token before it trusts such an answer.
   */
  readonly ambiguousFalse: boolean;
  /** A pixel read of a point off the phone's screen: asking again cannot succeed (assertions stop polling). */
  readonly outsideScreen: boolean;
  constructor(
    operation: string,
    message: string,
    details: ErrorDetails & { serverMessage?: string | undefined; deviceMissing?: boolean; ambiguousFalse?: boolean; outsideScreen?: boolean } = {},
  ) {
    super('PW_SERVICE', message, details);
    this.operation = operation;
    this.serverMessage = details.serverMessage;
    this.deviceMissing = details.deviceMissing ?? false;
    this.ambiguousFalse = details.ambiguousFalse ?? false;
    this.outsideScreen = details.outsideScreen ?? false;
  }
}

/** The service answered with something that is not the interface: not JSON, wrong types, no envelope. */
export class ProtocolError extends PhonewrightError {
  declare readonly code: 'PW_PROTOCOL';
  readonly operation: string;
  constructor(operation: string, message: string, details?: ErrorDetails) {
    super('PW_PROTOCOL', message, details);
    this.operation = operation;
  }
}

/** A check the user asked for did not hold (doctor, a CLI assertion). */
export class CheckFailedError extends PhonewrightError {
  declare readonly code: 'PW_CHECK_FAILED';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_CHECK_FAILED', message, details);
  }
}

/** Login refused, or a token rejected even after logging in again. Names the user, never the password. */
export class AuthError extends PhonewrightError {
  declare readonly code: 'PW_AUTH';
  readonly user: string;
  constructor(user: string, message: string, details?: ErrorDetails) {
    super('PW_AUTH', message, details);
    this.user = user;
  }
}

/** The server could not be reached (refused, reset, DNS) after the retries allowed. */
export class UnreachableError extends PhonewrightError {
  declare readonly code: 'PW_UNREACHABLE';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_UNREACHABLE', message, details);
  }
}

/** A call, or a wait, ran out of time. */
export class TimeoutError extends PhonewrightError {
  declare readonly code: 'PW_TIMEOUT';
  constructor(message: string, details?: ErrorDetails) {
    super('PW_TIMEOUT', message, details);
  }
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
 * the matrix marks tests failing with these as `infra-failure`.
 */
export function isInfrastructureError(error: unknown): boolean {
  if (!(error instanceof PhonewrightError)) return false;
  if (error.code === 'PW_AUTH' || error.code === 'PW_UNREACHABLE' || error.code === 'PW_TIMEOUT') return true;
  return error instanceof ServiceError && error.deviceMissing;
}

/**
 * The server's passing trouble that outlasted the client's own retries: a dropped connection, a body that is
 * not JSON, a 5xx or another failure it answered. Worth one more read by a caller that reads many times (a
 * region, a notification feed, a test's reads); not a refused login, a phone gone, a point off the screen,
 * bad input, an abort, or a timeout (the client already waited its whole budget).
 */
export function isTransientFailure(error: unknown): boolean {
  if (isPhonewrightError(error, 'PW_UNREACHABLE') || isPhonewrightError(error, 'PW_PROTOCOL')) return true;
  return error instanceof ServiceError && !error.deviceMissing && !error.outsideScreen;
}

/** The CLI exit code for an error: 1 service failure, 2 bad usage, 3 authentication, 4 unreachable. */
export function exitCodeFor(error: unknown): number {
  return error instanceof PhonewrightError ? EXIT_CODES[error.code] : 1;
}
