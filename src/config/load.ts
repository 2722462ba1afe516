import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { ENV, type Env } from './resolve.js';
import { parseConfigFile, type ConfigFile } from './schema.js';

/** The configuration file's name, looked for in the working folder. */
export const CONFIG_FILE = 'phonewright.config.json';

/**
 * A file's path and the digest of its text, once they passed validation. Set in this process's environment,
 * so the processes it starts (Playwright's workers, the runner of `phonewright test`) inherit it and take the
 * same text without the schema: compiling it costs each process ~85 ms. The checks a schema cannot make
 * still run.
 */
const VALIDATED = 'PHONEWRIGHT_CONFIG_VALIDATED';

/**
 * Reads and validates `phonewright.config.json` (or the file PHONEWRIGHT_CONFIG names).
 * Returns undefined when there is none and none was asked for.
 * @param cwd the folder to look in
 * @param env the environment (for PHONEWRIGHT_CONFIG)
 */
export function loadConfigFile(cwd: string, env: Env): ConfigFile | undefined {
  const named = env[ENV.config];
  const file = path.resolve(cwd, named || CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !named) return undefined;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : `cannot be read (${code})`;
    throw new ConfigError(`${file} ${why}`, { hint: named ? `check ${ENV.config}` : undefined, cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file} is not valid JSON: ${(e as Error).message}`, { hint: 'fix the syntax; the README shows an example', cause: e });
  }
  const digest = `${file}#${createHash('sha256').update(text).digest('base64url')}`;
  const config = parseConfigFile(json, file, path.dirname(file), { structureChecked: process.env[VALIDATED] === digest });
  process.env[VALIDATED] = digest;
  return config;
}
