import { isDeviceId, type DeviceId } from '../core/device-id.js';
import { AuthError, ServiceError, type PhonewrightError } from '../core/errors.js';
import { Deadline, within } from './deadline.js';
import { failure, readEnvelope, tokenRejected, type Answer, type DecodeContext, type Envelope } from './envelope.js';
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

/**
 * One operation as the client sends it: where, how, and what the policy must know of its answers. Its
 * decoding is the client's, once the call has an {@link Answer}.
 */
export interface Operation {
  operation: string;
  /** The path and query under the base URL, with the token (already URL-encoded) in it. */
  path: (token: string) => string;
  /** The phone it is about: the server's "not found" or "offline" for it is a phone gone, which a read waits for. */
  device?: DeviceId;
  /** Sending it again changes nothing on the server. @default true */
  idempotent?: boolean;
  /** `devices/main`'s documented answer has no `status` key. */
  statusOptional?: boolean;
  /** A `{"status": false}` while the token is valid is the operation's answer (notifications: nothing past the end). */
  acceptsBareFalse?: boolean;
  /** Finds out why a `{"status": false}` came while the token is valid, and throws the error that says it. */
  explainBareFalse?: (error: ServiceError, deadline: Deadline) => Promise<never>;
  /**
   * Whether a failure envelope (`{"status": null}`, not about the token) is this operation's answer "nothing
   * found" rather than a failure: asked once, within the call's deadline, before the policy or `contrast` weigh
   * it. True makes the envelope the answer (`ok` false); false lets the failure go on; its errors are the call's.
   */
  nothingFound?: (error: ServiceError, deadline: Deadline) => Promise<boolean>;
  /**
   * A route beyond the interface not known yet to be there: an answer in a form a server lacking the route
   * gives (HTTP 404, 405 or 501, or the failure envelope; not a rejected token) is handed here with the
   * call's deadline, to be told apart from a phone or server fault, and it throws the error that says which.
   */
  contrast?: (error: PhonewrightError, deadline: Deadline) => Promise<never>;
  /** How it is sent when not a plain GET; `body` is made for each attempt, with the token (already URL-encoded) of that attempt. */
  request?: Pick<Attempt, 'method' | 'headers' | 'headersTimeout'> & { body: (token: string) => Attempt['body'] };
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
  /** The way out of a refused login: where the user and password came from. */
  loginHint?: string | undefined;
  /** The cheapest authenticated read, to probe a token (`devices/main`). */
  probePath: (token: string) => string;
  retry: RetryOptions;
  totalTimeout: number;
}

/**
 * How long a token probe's "valid" holds: a `{"status": false}` answer is ambiguous (a failed read, or a
 * rejected token in one of the shapes servers use: docs/simulator.md), and the probe that tells them apart is not repeated
 * more often than this.
 */
const PROBE_VALID_MS = 1_000;
/**
 * A token refused within this long of its login was refused, not expired: no server gives tokens so short a
 * life. One refused later may have expired while the call waited (a slow server, retries).
 */
const FRESH_TOKEN_MS = 1_000;
/** Tokens one call may see spent by the calls beside it before it gives up: a burst of hundreds on 20-call tokens. */
const MAX_SPENT_TOKENS = 32;
/** The statuses a server gives a route it lacks: no such route, not this method, not implemented. */
const LACKING_STATUSES = new Set([404, 405, 501]);

/**
 * Sends the client's operations: each attempt with the current token, its envelope read into a typed error
 * or an {@link Answer}, under the resilience policy and within the caller's deadline. The token is fetched
 * lazily, shared by concurrent calls, and renewed when the server rejects it; a `{"status": false}` is checked
 * against the token before it counts as the operation's own answer. The client decodes the answer after the
 * call, so nothing is passed down but what the policy must know (the phone, what a bare false means).
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

  /** Runs one operation under the policy, within the caller's deadline, to the answer its client decodes. */
  async call(options: CallOptions, op: Operation): Promise<Answer> {
    const deadline = this.#deadline(options, op.unbounded ? Infinity : this.#o.totalTimeout);
    try {
      const method = op.request?.method ?? 'GET';
      let attempt = 0;
      const retry = options.phoneReconnectMs === undefined ? this.#o.retry : { ...this.#o.retry, phoneReconnectMs: options.phoneReconnectMs };
      // Outside the call's retries: the login is a call of its own, with its own (shared) retries.
      let token = this.#session.current ?? (await within(this.#session.token(), deadline, `${op.operation}: logging in`));
      let spent = 0;
      const renewToken = async (error: AuthError, renewed: number) => {
        // Refused as issued, or token after token: logging in again would not help. A token that served calls
        // before it was rejected was spent (a burst on a server whose tokens last a few dozen calls), however
        // fresh: renewed, once for all the calls that saw it rejected, and not counted against the call, whose
        // turn may come only after several tokens are spent (up to MAX_SPENT_TOKENS).
        const refused = this.#session.refusedAsIssued(token, FRESH_TOKEN_MS);
        if (this.#session.hasServed(token)) spent++;
        if (renewed > 0 && (refused || renewed - spent >= MAX_RENEWALS || spent > MAX_SPENT_TOKENS)) {
          const what = refused ? 'a freshly issued token' : `${renewed + 1} tokens in a row`;
          throw new AuthError(this.#o.user, `${op.operation}: the server rejected ${what} for user "${this.#o.user}": ${this.#o.transport.describe(method, op.path('***'))}`, {
            reason: 'tokens-refused',
            hint: 'check the server\'s token settings, and that this user may use the API',
            cause: error,
          });
        }
        token = await within(this.#session.renew(token), deadline, `${op.operation}: logging in again`);
      };
      return await withRetries({ operation: op.operation, idempotent: op.idempotent ?? true, deadline, renewToken, onRetry: options.onRetry }, retry, async () => {
        const encoded = encodeURIComponent(token);
        const path = op.path(encoded);
        const ctx = this.context(op.operation, method, path);
        const reply = await this.#o.transport.send({ operation: op.operation, path, deadline, attempt: ++attempt, ...op.request, body: op.request?.body(encoded) });
        let env: Envelope;
        try {
          env = readEnvelope(reply, ctx, op.statusOptional);
        } catch (error) {
          if (op.contrast && LACKING_STATUSES.has(reply.status)) await op.contrast(error as PhonewrightError, deadline);
          throw error;
        }
        if (env.status === true) {
          this.#session.served(token);
          return { ok: true, body: env.body, text: reply.text, ctx };
        }
        const error = failure(ctx, env, op.device);
        if (env.status === null) {
          // Before the policy reads "node not found" as a phone gone, or the contrast as a route the server lacks.
          if (op.nothingFound && (await op.nothingFound(error, deadline))) return { ok: false, body: env.body, text: reply.text, ctx };
          // A route not known to be there: a server lacking it may answer so, whatever the message says.
          if (op.contrast) await op.contrast(error, deadline);
          throw error;
        }
        // `{"status": false}`: a rejected token in one server variant, so the token is checked before the answer counts.
        if (!(await this.#tokenStillValid(token, deadline))) throw tokenRejected(ctx, 'the server answered {"status": false} and the token no longer works');
        if (op.acceptsBareFalse) return { ok: false, body: env.body, text: reply.text, ctx };
        if (op.explainBareFalse) await op.explainBareFalse(error, deadline);
        throw error;
      });
    } finally {
      if (deadline !== options.deadline) deadline.dispose();
    }
  }

  /**
   * Downloads a file an answer named (a screen capture's image), as bytes, under the policy. It carries no
   * token: the vendor's example URL has none. Any answer but HTTP 200 is the typed error it amounts to.
   * @param url the absolute URL
   */
  async download(options: CallOptions, operation: string, url: string): Promise<Buffer> {
    const deadline = this.#deadline(options, this.#o.totalTimeout);
    const ctx = this.context(operation, 'GET', url);
    let attempt = 0;
    try {
      return await withRetries({ operation, idempotent: true, deadline, onRetry: options.onRetry }, this.#o.retry, async () => {
        const reply = await this.#o.transport.send({ operation, path: url, deadline, attempt: ++attempt, bytes: true });
        if (reply.bytes) return reply.bytes;
        if (reply.status === 404) throw new ServiceError(operation, `${operation}: the file the server named is not there (HTTP 404): ${ctx.request}`, { reason: 'failed' });
        readEnvelope(reply, ctx);
        throw new ServiceError(operation, `${operation}: the server answered ${reply.text ? 'text' : 'nothing'} where a file was expected: ${ctx.request}`, { reason: 'failed' });
      });
    } finally {
      if (deadline !== options.deadline) deadline.dispose();
    }
  }

  /** The caller's deadline, or one of `budget` ms that the call owns (ended by the signal; disposed after it). */
  #deadline(options: CallOptions, budget: number): Deadline {
    return options.deadline ?? (options.signal ? Deadline.in(budget, options.signal) : Deadline.budget(budget));
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
      return decodeLogin(reply, ctx, this.#o.url, this.#o.loginHint);
    });
  }
}
