/** What a redacted secret reads as in messages, reports and logs. */
export const REDACTED = '***';

/**
 * Replaces every occurrence of each secret, raw and URL-encoded, with `***`.
 * Secrets shorter than 3 characters are not replaced (they would blank out ordinary text).
 * @param text the text to clean
 * @param secrets the token, the password, the Authorization header value…
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** Replaces the value of a `token` query parameter in a URL or path with `***`. */
export function redactTokenParam(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/g, `$1${REDACTED}`);
}
