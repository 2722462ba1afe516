import { redact } from '../core/redact.js';

/** The lease store's URL (config/resolve.ts names it too; the reporters read no config module). */
const LEASES_ENV = 'PHONEWRIGHT_LEASES';
/** The longest error line a record keeps: enough for a matcher's hint and what it received, not a stack trace. */
const MAX_LINE = 300;

/** The first line of an assertion's message: `expect(received).toBe(expected)` and the like. */
const MATCHER_HINT = /^(?:Error: )?expect\(.*\)\.(?:not\.)?\w+\(/;
/** Lines of an assertion's message that end what a record keeps of it: Playwright's call log, timeout, a stack. */
const DETAIL_END = /^(?:Call log|Timeout|at )\b/;
/** Detail lines kept after a matcher's hint. */
const MAX_DETAILS = 4;

/**
 * The first non-empty line of an error message, colour codes removed, secrets and token parameters replaced by
 * `***`, cut to 300 characters: what the history keeps of an error. An assertion's first line only names the
 * matcher, so what it expected and received follows it on the same line:
 * `expect(received).toBe(expected) // Object.is equality — Expected: 5; Received: 4`. A device assertion's
 * line is written from the facts it attaches instead (facts.ts), whatever its message says.
 * @param message the error's message
 * @param secrets values never to write (passwords, tokens)
 */
export function firstLine(message: string, secrets: Iterable<string>): string {
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter(Boolean);
  let line = lines[0] ?? '';
  if (MATCHER_HINT.test(line)) {
    const end = lines.findIndex((l, i) => i > 0 && DETAIL_END.test(l));
    const details = lines.slice(1, end < 0 ? undefined : end).slice(0, MAX_DETAILS);
    // A heading line ("2 field(s) differ:") runs on into the line it introduces.
    if (details.length) line += ` — ${details.map((d, i) => (i < details.length - 1 && !d.endsWith(':') ? `${d};` : d)).join(' ')}`;
  }
  return scrubLine(line, secrets);
}

/**
 * One line as the history may keep it: secrets and token parameters replaced by `***`, cut to 300 characters.
 * @param line the line
 * @param secrets values never to write (passwords, tokens)
 */
export function scrubLine(line: string, secrets: Iterable<string>): string {
  const scrubbed = redact(line, secrets);
  return scrubbed.length > MAX_LINE ? `${scrubbed.slice(0, MAX_LINE - 1)}…` : scrubbed;
}

/**
 * The passwords a run may know: the values of the variables that hold them (PHONEWRIGHT_PASSWORD and every
 * `passwordEnv` of phonewright.config.json's servers, which the device matrix names in its projects'
 * metadata), looked up in the environment.
 * @param env the environment
 * @param variables the names of the variables
 */
export function runSecrets(env: Readonly<Record<string, string | undefined>>, variables: Iterable<string>): string[] {
  const secrets = new Set<string>();
  for (const name of variables) if (env[name]) secrets.add(env[name]);
  // The lease store's password, when PHONEWRIGHT_LEASES carries one.
  const lease = redisPassword(env[LEASES_ENV]);
  if (lease) secrets.add(lease);
  return [...secrets];
}

/** The password of a Redis URL (`redis://:password@host`), decoded; undefined when it has none or is no URL. */
function redisPassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}
