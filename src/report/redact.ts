import { loadConfigFile } from '../config/load.js';
import { ENV, type Env } from '../config/resolve.js';
import { redact, redactTokenParam, REDACTED } from '../core/redact.js';

/** The longest error line a record keeps: enough for the matcher's first line, not a stack trace. */
const MAX_LINE = 300;

/**
 * The first non-empty line of an error message, colour codes removed, secrets and token parameters replaced by
 * `***`, cut to 300 characters: what the history keeps of an error.
 * @param message the error's message
 * @param secrets values never to write (passwords, tokens)
 */
export function firstLine(message: string, secrets: Iterable<string>): string {
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const line = plain.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  // A token may appear outside a URL too (`token: abc…`, `Authorization: …`): the value goes, the word stays.
  const scrubbed = redactTokenParam(redact(line, secrets)).replace(/\b(token|authorization|password)(["']?\s*[:=]\s*["']?)[^\s"',&]+/gi, `$1$2${REDACTED}`);
  return scrubbed.length > MAX_LINE ? `${scrubbed.slice(0, MAX_LINE - 1)}…` : scrubbed;
}

/**
 * The passwords a run may know: PHONEWRIGHT_PASSWORD and every variable a server of phonewright.config.json
 * names as its `passwordEnv`, looked up in the environment. A config that cannot be read adds nothing.
 * @param env the environment
 * @param dirs folders that may hold phonewright.config.json
 */
export function runSecrets(env: Env, dirs: string[]): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => value && secrets.add(value);
  add(env[ENV.password]);
  for (const dir of new Set(dirs)) {
    try {
      for (const server of loadConfigFile(dir, env)?.servers ?? []) if (server.passwordEnv) add(env[server.passwordEnv]);
    } catch {
      // The run reported its own configuration errors; the history only needs the names it can read.
    }
  }
  return [...secrets];
}
