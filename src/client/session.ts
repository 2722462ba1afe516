/**
 * The token of one client: fetched lazily, shared by concurrent calls (one login, not one per call), and
 * renewed once when the server rejects it.
 */
export class Session {
  #login: () => Promise<string>;
  #pending: Promise<string> | undefined;
  #current: string | undefined;
  #verifiedAt = Number.NEGATIVE_INFINITY;

  /** @param login fetches a fresh token */
  constructor(login: () => Promise<string>) {
    this.#login = login;
  }

  /** The token to use now; logs in when there is none yet. Concurrent callers share one login. */
  token(): Promise<string> {
    this.#pending ??= this.#login().then(
      (token) => {
        this.#current = token;
        this.#verifiedAt = performance.now();
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

  /** The current token, if any (for redaction). */
  get current(): string | undefined {
    return this.#current;
  }

  /** Records that a probe just showed `token` valid. */
  markVerified(token: string): void {
    if (token === this.#current) this.#verifiedAt = performance.now();
  }

  /** True when `token` is current and was fetched or probed within the last `withinMs`. */
  recentlyVerified(token: string, withinMs: number): boolean {
    return token === this.#current && performance.now() - this.#verifiedAt <= withinMs;
  }
}
