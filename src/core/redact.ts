/** What a redacted secret reads as in messages, reports and logs. */
export const REDACTED = '***';

/**
 * Where a secret stands as a value whatever it is: a `token`, `password` or `passwd` parameter of a URL or a
 * form body, the same keys of a JSON object, an `Authorization` header (with or without a scheme word), and the
 * password of a URL's user part. The value ends where the syntax around it says.
 */
const VALUE_POSITIONS: [RegExp, string][] = [
  [/([?&;\s]|^)(token|password|passwd)=[^&#\s"']*/gi, `$1$2=${REDACTED}`],
  [/("(?:token|password|passwd|authorization)"\s*:\s*")(?:[^"\\]|\\.)*"/gi, `$1${REDACTED}"`],
  [/\b(authorization\s*[:=]\s*)((?:basic|bearer)\s+)?[^\s"',;&]+/gi, `$1$2${REDACTED}`],
  [/(\/\/[^/\s:@]*:)[^/\s@]*@/g, `$1${REDACTED}@`],
];
/** A parameter's value in a URL's query or a form body: up to the next `&`, `#`, space or quote. */
const PARAMETER = /([?&;]\w+=)([^&#\s"']*)/g;
/** A JSON string, and the colon after it when it is a key. */
const JSON_STRING = /"((?:[^"\\]|\\.)*)"(\s*:)?/g;

/**
 * Removes secrets from a text as values, never as substrings. Every value position (a token parameter, an
 * `Authorization` header, a `"password"` key…) is emptied whatever it holds, and so is any parameter of a
 * query or form, or any JSON string, whose whole value is a secret (raw or URL-encoded). Beyond those, a
 * secret that cannot be ordinary text (sixteen characters or more, or eight mixing letters and digits: a
 * token, the login header, a strong password) is replaced wherever it appears, even inside a longer word. A
 * weak password (`device`, `1280`, `a`) is removed where it stands as a value and nowhere else: masking every
 * `device` of a text would mangle it, and show anyone reading it what the password is.
 * @param text the text to clean
 * @param secrets the tokens, the password, the Authorization header value…
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const [pattern, replacement] of VALUE_POSITIONS) out = out.replace(pattern, replacement);
  const values = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    const forms = new Set([secret, encodeURIComponent(secret)]);
    if (standsAlone(secret)) for (const form of forms) out = out.split(form).join(REDACTED);
    else for (const form of forms) values.add(form);
  }
  if (values.size === 0) return out;
  return out
    .replace(PARAMETER, (m, name: string, value: string) => (values.has(value) ? `${name}${REDACTED}` : m))
    .replace(JSON_STRING, (m, value: string, key?: string) => (!key && values.has(value) ? `"${REDACTED}"` : m));
}

/** Replaces the value of a `token` query parameter in a URL or path with `***`. */
export function redactTokenParam(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/g, `$1${REDACTED}`);
}

/** True for a secret that cannot pass for ordinary text: long, or mixing letters and digits. */
function standsAlone(secret: string): boolean {
  return secret.length >= 16 || (secret.length >= 8 && /[A-Za-z]/.test(secret) && /\d/.test(secret));
}
