/** Tokens remembered for redaction. */
const MAX_REMEMBERED = 32;

/**
 * The token of one client: fetched lazily, shared by concurrent calls (one login, not one per call), and
 * renewed once when the server rejects it.
 */
export class Session {
  #login: () => Promise<string>;
  #pending: Promise<string> | undefined;
  #current: string | undefined;
  /** When the current token was issued (performance.now()). */
  #issuedAt = 0;
  /** Calls the current token has served: a token rejected after serving some was spent, not refused. */
  #served = 0;
  #verifiedAt = Number.NEGATIVE_INFINITY;
  #probe: { token: string; valid: Promise<boolean> } | undefined;
  /** Every token this session was given, for redaction: an error may echo one renewed since. */
  #issued: string[] = [];

  /** @param login fetches a fresh token */
  constructor(login: () => Promise<string>) {
    this.#login = login;
  }

  /** The token to use now; logs in when there is none yet. Concurrent callers share one login. */
  token(): Promise<string> {
    this.#pending ??= this.#login().then(
      (token) => {
        this.#current = token;
        this.#issuedAt = performance.now();
        this.#served = 0;
        this.#issued.push(token);
        // Sixteen characters each; a long run renews often, and redacting the last few dozen is plenty.
        if (this.#issued.length > MAX_REMEMBERED) this.#issued.shift();
        // A fresh token is not "verified": servers that answer a rejected token with a bare
        // {"status": false} may refuse it at once (one token per user, fresh tokens refused), and only a
        // probe tells that apart from a failed read.
        this.#verifiedAt = Number.NEGATIVE_INFINITY;
        return token;
      },
      (error: unknown) => {
        // A failed login is not remembered: the next call tries again.
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending;
  }

  /**
   * A new token after `rejected` was refused. When another call has already renewed it, that token is used:
   * fifty calls that see the same expired token cause one login.
   */
  renew(rejected: string): Promise<string> {
    if (this.#current === rejected) {
      this.#current = undefined;
      this.#pending = undefined;
    }
    return this.token();
  }

  /** The current token, if any. */
  get current(): string | undefined {
    return this.#current;
  }

  /** A call was answered with `token`. */
  served(token: string): void {
    if (token === this.#current) this.#served++;
  }

  /** Whether `token` served a call before it was rejected (it is still the current token, or was renewed since). */
  hasServed(token: string): boolean {
    return token !== this.#current || this.#served > 0;
  }

  /**
   * Whether the server refused `token` as it was issued: it is still the current token, has served no call,
   * and was rejected within `freshMs` of its login. One that served calls and was then rejected was spent (a
   * server whose tokens last a few dozen calls); one rejected later may have expired while the call waited; one
   * that is no longer current was renewed by another call meanwhile: none of them is a refusal.
   */
  refusedAsIssued(token: string, freshMs: number): boolean {
    return token === this.#current && this.#served === 0 && performance.now() - this.#issuedAt < freshMs;
  }

  /** Every token issued to this session (the last few dozen), for redaction. */
  get issued(): readonly string[] {
    return this.#issued;
  }

  /**
   * Whether `token` still works. A probe that showed it valid within `withinMs` is trusted; otherwise
   * `probe` runs, once for all the calls asking at the same moment about the same token.
   */
  verify(token: string, withinMs: number, probe: () => Promise<boolean>): Promise<boolean> {
    if (token === this.#current && performance.now() - this.#verifiedAt <= withinMs) return Promise.resolve(true);
    if (this.#probe?.token !== token) {
      const valid = probe().then((ok) => {
        if (ok && token === this.#current) this.#verifiedAt = performance.now();
        return ok;
      });
      this.#probe = { token, valid };
      // Only the in-flight probe is shared; the next question after it asks the server again.
      void valid.finally(() => this.#probe?.valid === valid && (this.#probe = undefined)).catch(() => {});
    }
    return this.#probe!.valid;
  }
}
