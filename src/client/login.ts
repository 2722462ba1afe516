import { AuthError } from '../core/errors.js';
import { REDACTED } from '../core/redact.js';
import { isObject, malformed, readEnvelope, type DecodeContext } from './envelope.js';
import type { Reply } from './transport.js';

/** Where a refused login's user and password can be set, when the client is not told where they came from. */
export const LOGIN_HINT = 'check the user and password (--user/--password, or PHONEWRIGHT_USER/PHONEWRIGHT_PASSWORD)';
/** A quoted JSON string, and the colon after it when it is a key. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/**
 * The token of a login answer. No string value of the answer is ever shown in an error: a token not yet
 * known to the client could not be redacted.
 * @param url the server, for messages
 */
export function decodeLogin(reply: Reply, base: DecodeContext, url: string, hint: string = LOGIN_HINT): string {
  const ctx: DecodeContext = { ...base, request: base.request, clean: (text) => base.clean(text).replace(JSON_STRING, (m, key?: string) => (key ? m : `"${REDACTED}"`)) };
  const refused = (why: string) =>
    new AuthError(ctx.user, `login refused for user "${ctx.user}" at ${url}: ${why}`, {
      hint,
    });
  if (reply.status === 401 || reply.status === 403) throw refused(`HTTP ${reply.status}`);
  let env;
  try {
    env = readEnvelope(reply, ctx);
  } catch (error) {
    // A login answered {"status": null, "value": "wrong token…"} is still a refused login, not a token to renew.
    if (error instanceof AuthError) throw refused(`the server said ${JSON.stringify(ctx.clean(error.message))}`);
    throw error;
  }
  if (env.status === false) throw refused('the server answered {"status": false}');
  if (env.status === null) throw refused(env.message ? `the server said "${ctx.clean(env.message)}"` : 'the server answered {"status": null}');
  const token = isObject(env.body.value) ? env.body.value.token : undefined;
  if (typeof token !== 'string' || token === '') {
    // The answer says it succeeded, so it may well carry the token elsewhere: its strings are not shown.
    const shape = JSON.stringify(env.body, (_key, v: unknown) => (typeof v === 'string' ? REDACTED : v));
    throw malformed(ctx, 'the login answer has no "value.token"', shape);
  }
  return token;
}
