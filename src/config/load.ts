import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { ENV, type Env } from './resolve.js';
import { parseConfigFile, type ConfigFile } from './schema.js';

/** The configuration file's name, looked for in the working folder. */
export const CONFIG_FILE = 'phonewright.config.json';

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
  // A byte order mark, as some editors write one, is not the file's text.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw notJson(file, text, e);
  }
  return parseConfigFile(json, file, path.dirname(file));
}

/**
 * The error of a file that is not JSON, by line and column. JSON.parse's own message is not repeated: it
 * gives a character position, and for some mistakes quotes the text itself instead.
 */
function notJson(file: string, text: string, cause: unknown): ConfigError {
  const at = findJsonSyntaxError(text);
  const hint = 'fix the syntax; the README shows an example';
  if (!at) return new ConfigError(`${file} is not valid JSON`, { hint, cause });
  return new ConfigError(`${file} is not valid JSON at line ${at.line}, column ${at.column}: ${at.problem}`, { hint, cause });
}
