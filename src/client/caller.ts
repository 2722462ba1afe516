import { isDeviceId } from '../core/device-id.js';
import { AuthError, ServiceError } from '../core/errors.js';
import { Deadline, within } from './deadline.js';
import { readEnvelope, tokenRejected, type DecodeContext, type Envelope } from './envelope.js';
import { decodeLogin } from './login.js';
import { MAX_RENEWALS, retrySettings, withRetries, type RetryEvent, type RetryOptions } from './resilience.js';
import { Session } from './session.js';
import type { Attempt, Transport } from './transport.js';

/** Options of one call. */
export interface CallOptions {
  /** When the call must end: an assertion's or a waiter's deadline. Default: the client's `totalTimeout` from now. */
  deadline?: Deadline | undefined;
  /** Ends the call at once (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Told before each further attempt: a retry, a pause while the phone is away, a login again. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Overrides the client's `phoneReconnectMs` for this call (a probe that must not wait for the phone: 0). */
  phoneReconnectMs?: number | undefined;
}

/** One operation as the client sends it: where, how, and what its answer means. */
export interface Operation<T> {
  operation: string;
  /** The path and query under the base URL, with the token (already URL-encoded) in it. */
  path: (token: string) => string;
  decode: (env: Envelope, ctx: DecodeContext, text: string) => T;
  /** Sending it again changes nothing on the server. @default true */
  idempotent?: boolean;
  /** `devices/main`'s documented answer has no `status` key. */
  statusOptional?: boolean;
  /** A `{"status": false}` while the token is valid: the operation's own meaning of it, or its explained error. */
  onBareFalse?: (error: ServiceError, deadline: Deadline) => Promise<T>;
  request?: Pick<Attempt, 'method' | 'headers' | 'headersTimeout'> & { body: () => Attempt['body'] };
  /** No total deadline of its own (an upload's time grows with its size). */
  unbounded?: boolean;
}

/** What a caller needs of its client. */
export interface CallerOptions {
  transport: Transport;
  user: string;
  /** base64 of `user:password`, the login header's value. */
  authorization: string;
  /** The server, for messages. */
  url: string;
  loginPath: string;
  /** The cheapest authenticated read, to probe a token (`devices/main`). */
  probePath: (token: string) => string;
  retry: RetryOptions;
  totalTimeout: number;
}

/**
 * How long a token probe's "valid" holds: a `{"status": false}` answer is ambiguous (a failed read, or a
 * rejected token in one of the field notes' shapes), and the probe that tells them apart is not repeated
 * more often than this.
 */
const PROBE_VALID_MS = 1_000;
/**
 * A token refused within this long of its login was refused, not expired: no server gives tokens so short a
 * life. One refused later may have expired while the call waited (a slow server, retries).
 */
const FRESH_TOKEN_MS = 1_000;

/**
 * Sends the client's operations: each attempt with the current token, decoded, under the resilience policy
 * and within the caller's deadline. The token is fetched lazily, shared by concurrent calls, and renewed
 * when the server rejects it; a `{"status": false}` is checked against the token before it counts as the
 * operation's own answer.
 */
export class Caller {
  #o: CallerOptions;
  #session: Session;

  constructor(options: CallerOptions) {
    this.#o = { ...options, retry: retrySettings(options.retry) };
    this.#session = new Session(() => this.#login());
  }

  /** Every token issued (the last few dozen), for redaction. */
  get tokens(): readonly string[] {
    return this.#session.issued;
  }

  /** The token; logs in when there is none yet. */
  token(): Promise<string> {
    return this.#session.token();
  }

  /** Runs one operation. */
  call<T>(options: CallOptions, op: Operation<T>): Promise<T> {
    return this.#within(options, op.unbounded ? Infinity : this.#o.totalTimeout, (deadline) => this.#call(options, op, deadline));
  }

  /**
   * Downloads a file an answer named (a screen capture's image), as bytes, under the policy. It carries no
   * token: the vendor's example URL has none. Any answer but HTTP 200 is the typed error it amounts to.
   * @param url the absolute URL
   */
  download(options: CallOptions, operation: string, url: string): Promise<Buffer> {
    return this.#within(options, this.#o.totalTimeout, (deadline) => {
      const ctx = this.context(operation, 'GET', url);
      let attempt = 0;
      return withRetries({ operation, idempotent: true, deadline, onRetry: options.onRetry }, this.#o.retry, async () => {
        const reply = await this.#o.transport.send({ operation, path: url, deadline, attempt: ++attempt, bytes: true });
        if (reply.bytes) return reply.bytes;
        if (reply.status === 404) throw new ServiceError(operation, `${operation}: the file the server named is not there (HTTP 404): ${ctx.request}`, { reason: 'failed' });
        readEnvelope(reply, ctx);
        throw new ServiceError(operation, `${operation}: the server answered ${reply.text ? 'text' : 'nothing'} where a file was expected: ${ctx.request}`, { reason: 'failed' });
      });
    });
  }

  /** Runs `fn` within the caller's deadline, or one of `budget` ms (ended by the signal) that it owns. */
  async #within<T>(options: CallOptions, budget: number, fn: (deadline: Deadline) => Promise<T>): Promise<T> {
    const owned = !options.deadline && options.signal ? Deadline.in(budget, options.signal) : undefined;
    try {
      return await fn(options.deadline ?? owned ?? Deadline.budget(budget));
    } finally {
      owned?.dispose();
    }
  }

  async #call<T>(options: CallOptions, op: Operation<T>, deadline: Deadline): Promise<T> {
    const method = op.request?.method ?? 'GET';
    let attempt = 0;
    const retry = options.phoneReconnectMs === undefined ? this.#o.retry : { ...this.#o.retry, phoneReconnectMs: options.phoneReconnectMs };
    // Outside the call's retries: the login is a call of its own, with its own (shared) retries.
    let token = this.#session.current ?? (await within(this.#session.token(), deadline, `${op.operation}: logging in`));
    const renewToken = async (error: AuthError, renewed: number) => {
      // Refused soon after its login, or token after token: logging in again would not help.
      const fresh = this.#session.age(token) < FRESH_TOKEN_MS;
      if (renewed > 0 && (fresh || renewed >= MAX_RENEWALS)) {
        const what = fresh ? 'a freshly issued token' : `${renewed + 1} tokens in a row`;
        throw new AuthError(this.#o.user, `${op.operation}: the server rejected ${what} for user "${this.#o.user}": ${this.#o.transport.describe(method, op.path('***'))}`, {
          reason: 'tokens-refused',
          hint: 'check the server\'s token settings, and that this user may use the API',
          cause: error,
        });
      }
      token = await within(this.#session.renew(token), deadline, `${op.operation}: logging in again`);
    };
    return await withRetries({ operation: op.operation, idempotent: op.idempotent ?? true, deadline, renewToken, onRetry: options.onRetry }, retry, async () => {
      const path = op.path(encodeURIComponent(token));
      const ctx = this.context(op.operation, method, path);
      const reply = await this.#o.transport.send({ operation: op.operation, path, deadline, attempt: ++attempt, ...op.request, body: op.request?.body() });
      try {
        return op.decode(readEnvelope(reply, ctx, op.statusOptional), ctx, reply.text);
      } catch (error) {
        if (!(error instanceof ServiceError && error.reason === 'bare-false')) throw error;
        if (!(await this.#tokenStillValid(token, deadline))) throw tokenRejected(ctx, 'the server answered {"status": false} and the token no longer works');
        if (op.onBareFalse) return op.onBareFalse(error, deadline);
        throw error;
      }
    });
  }

  /** What decoding needs to know: the operation, the redacted request, how to clean text. */
  context(operation: string, method: string, path: string): DecodeContext {
    const transport = this.#o.transport;
    let described: string | undefined;
    return {
      operation,
      user: this.#o.user,
      get request() {
        return (described ??= transport.describe(method, path));
      },
      clean: (text) => transport.clean(text),
    };
  }

  /** Asks the server whether `token` still works, with the cheapest call there is. */
  #tokenStillValid(token: string, deadline: Deadline): Promise<boolean> {
    return this.#session.verify(token, PROBE_VALID_MS, () => {
      const path = this.#o.probePath(encodeURIComponent(token));
      const ctx = this.context('token check', 'GET', path);
      return withRetries({ operation: 'token check', idempotent: true, deadline }, this.#o.retry, async () => {
        const reply = await this.#o.transport.send({ operation: 'token check', path, deadline });
        try {
          const env = readEnvelope(reply, ctx, true);
          return env.status === true && isDeviceId(env.body.id);
        } catch (error) {
          if (error instanceof AuthError) return false;
          throw error;
        }
      });
    });
  }

  /** One login, under the policy, within the client's own budget: it is shared by every call waiting on it. */
  #login(): Promise<string> {
    const deadline = Deadline.budget(this.#o.totalTimeout);
    const path = this.#o.loginPath;
    const ctx = this.context('login', 'GET', path);
    return withRetries({ operation: 'login', idempotent: true, deadline }, this.#o.retry, async () => {
      const reply = await this.#o.transport.send({ operation: 'login', path, deadline, headers: { authorization: this.#o.authorization } });
      return decodeLogin(reply, ctx, this.#o.url);
    });
  }
}
