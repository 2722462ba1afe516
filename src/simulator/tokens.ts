import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every token in the vendor's examples: 16 characters of [A-Za-z0-9]. */
export const TOKEN_LENGTH = 16;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 248;
/** A login loop must not grow memory without bound; the oldest tokens go first. */
const MAX_TOKENS = 10_000;

/**
 * The tokens handed out at login. They are looked up by their SHA-256 digest, so the time a check takes does
 * not depend on how much of a guessed token is right.
 */
export class TokenStore {
  /** digest (base64) → expiry in ms since the epoch (Infinity: until restart), and the calls it has left. */
  #tokens = new Map<string, { expiry: number; calls: number }>();

  /**
   * Hands out a new token.
   * @param now ms since the epoch
   * @param lifetimeSeconds 0 for "until restart"
   * @param calls the calls it answers; 0 for no limit
   */
  issue(now: number, lifetimeSeconds: number, calls = 0): string {
    const token = randomToken();
    if (this.#tokens.size >= MAX_TOKENS) this.#tokens.delete(this.#tokens.keys().next().value!);
    this.#tokens.set(digest(token), { expiry: lifetimeSeconds > 0 ? now + lifetimeSeconds * 1000 : Infinity, calls: calls > 0 ? calls : Infinity });
    return token;
  }

  /** True when `token` was handed out, has not expired at `now`, and has a call left (this one, counted). */
  check(token: string | undefined, now: number): boolean {
    if (token === undefined || token.length !== TOKEN_LENGTH) return false;
    const key = digest(token);
    const entry = this.#tokens.get(key);
    if (entry === undefined) return false;
    if (now < entry.expiry && entry.calls > 0) {
      entry.calls--;
      return true;
    }
    this.#tokens.delete(key);
    return false;
  }

  /** Forgets every token: the next call with any of them fails as with a wrong one. */
  clear(): void {
    this.#tokens.clear();
  }
}

/**
 * Compares two secrets in constant time (their digests, so lengths do not leak either).
 * @param presented what the client sent
 * @param expected what the simulator holds
 */
export function secretsEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(presented).digest(), createHash('sha256').update(expected).digest());
}

function randomToken(): string {
  let out = '';
  while (out.length < TOKEN_LENGTH) {
    for (const byte of randomBytes(TOKEN_LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === TOKEN_LENGTH) break;
    }
  }
  return out;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64');
}
