// Who may talk to a local page (the inspector, the review): this machine's browser, on the page the printed URL
// opens, and no one else.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header the page passes its token in, to its own API. */
export const TOKEN_HEADER = 'x-phonewright-token';

/** What a page's server knows of a request to judge it. */
export interface RequestFacts {
  method: string;
  /** The `Host` header. */
  host: string | undefined;
  /** The `Origin` header: browsers send it on cross-origin requests and on every POST. */
  origin: string | undefined;
  /** `Sec-Fetch-Site`: `same-origin`, `none` (typed in the address bar), or `same-site`/`cross-site`. */
  fetchSite: string | undefined;
  /** The token of the `token` query parameter or of {@link TOKEN_HEADER}. */
  token: string | undefined;
}

/** A request refused: its HTTP status and the line that says why. */
export interface Refusal {
  status: 401 | 403 | 405;
  message: string;
}

/** A new random token for the printed URL: 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Judges a request. Refused: a `Host` other than this server's own address (a DNS-rebinding page that names
 * another host), an `Origin` or fetch site other than the page's own (another page of this machine, or of the
 * web), a method the page does not serve, and any request without the token (401). No CORS: a browser gets no
 * header that would let another origin read an answer.
 * @param req the request's facts
 * @param port the port the page's server listens on
 * @param token the token of the printed URL
 * @param command the command that printed it, for the message: `inspect`, `review`
 * @returns undefined when the request may go on
 */
export function refusal(req: RequestFacts, port: number, token: string, command: string): Refusal | undefined {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!req.host || !own.includes(req.host.toLowerCase())) {
    return { status: 403, message: `refused: this page answers requests for http://127.0.0.1:${port} only` };
  }
  if (req.origin !== undefined && !own.some((o) => req.origin!.toLowerCase() === `http://${o}`)) {
    return { status: 403, message: 'refused: a request from another origin (this server serves its own page only)' };
  }
  if (req.fetchSite !== undefined && req.fetchSite !== 'same-origin' && req.fetchSite !== 'none') {
    return { status: 403, message: `refused: a ${req.fetchSite} request (this server serves its own page only)` };
  }
  if (req.method !== 'GET' && req.method !== 'POST') return { status: 405, message: `refused: ${req.method} is not served here` };
  if (!req.token || !sameToken(req.token, token)) {
    return { status: 401, message: `refused: this needs the token of the URL phonewright ${command} printed (open that URL)` };
  }
  return undefined;
}

/** Compares tokens in constant time: through their digests, which have one length. */
function sameToken(given: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}
