/**
 * The bad-input tables' harness. Each case names the input, the one line the user sees (exact, or a precise
 * regex), the exit code where it is a CLI case, and is checked for "nothing changed": no request reached the
 * server, no file was written or stored.
 *
 * `cli` runs the CLI with a clean environment in the case's folder: in-process (tests/cli/helpers.ts), or in a
 * process of its own (built by `npm run build`) when the case needs one: run as another user (tests run as
 * root, who reads any file: an unreadable file needs someone else), a command that hands the process's
 * environment and folder to Playwright, or a relative path the message must name as typed. `server` is a
 * fake server that records every request (tests/helpers/fake-server.ts); `dir` is a fresh folder whose every
 * file and size can be compared before and after.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from './test.js';
import { run } from '../cli/helpers.js';
import { startFakeServer, type FakeServer } from './fake-server.js';
import { ROOT, spawnCli, type CliResult } from './spawn.js';

export { ROOT, type CliResult };
/** Anyone but root, who may read every file; `nobody` on most systems. */
const OTHER_USER = 65_534;
/** The variables a CLI run inherits from the test process; no PHONEWRIGHT_*. */
const INHERITED_ENV = ['NODE_OPTIONS', 'PATH', 'LANG', 'LC_ALL', 'TZ'];
/** Commands that run Playwright as a child, handing it this process's environment and folder: spawned only. */
const PLAYWRIGHT_COMMANDS = new Set(['test', 'nightly', 'merge']);

export interface CliOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Run as a user other than root (the test must run as root, or as that user, for this to matter). */
  asOtherUser?: boolean;
  /** Run in a process of its own, e.g. for a relative path the error names as typed. */
  spawned?: boolean;
}

/** Runs `phonewright <args>` to the end. */
export function cli(args: string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = { NO_COLOR: '1', HOME: options.cwd };
  for (const key of INHERITED_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  const where = { cwd: options.cwd, baseEnv: env, env: options.env };
  const user = options.asOtherUser && process.getuid?.() === 0 ? { uid: OTHER_USER, gid: OTHER_USER } : undefined;
  if (options.spawned || user || PLAYWRIGHT_COMMANDS.has(args[0] ?? '')) return spawnCli(args, { ...where, user });
  return run(args, where);
}

/** Asserts the run failed with one line `phonewright: <error>` on stderr, nothing on stdout, and `exit`. */
export function expectRefused(result: CliResult, error: string | RegExp, exit: number): void {
  expect(result.stdout, 'nothing on stdout').toBe('');
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines, `one error line on stderr, got:\n${result.stderr}`).toHaveLength(1);
  if (typeof error === 'string') expect(lines[0]).toBe(`phonewright: ${error}`);
  else expect(lines[0]).toMatch(error);
  expect(result.code, result.stderr).toBe(exit);
}

/** Writes files into a folder (relative path → content); `{ mode }` entries are made with that mode, `'fifo'` ones are named pipes. */
export async function writeFiles(dir: string, files: Record<string, string | Buffer | { content: string; mode: number } | 'fifo'>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    if (content === 'fifo') {
      execFileSync('mkfifo', [file]);
    } else if (typeof content === 'object' && !Buffer.isBuffer(content)) {
      await writeFile(file, content.content);
      await chmod(file, content.mode);
    } else {
      await writeFile(file, content);
    }
  }
}

/** Every entry under a folder with its kind and size: what "nothing was written" compares. */
export async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    const kind = e.isDirectory() ? 'dir' : e.isFile() ? `${(await stat(full)).size} bytes` : 'other';
    out.push(`${path.relative(dir, full)} (${kind})`);
  }
  return out.sort();
}

export interface Fixtures {
  /** A fake device-control server recording every request; closed after the test. */
  server: FakeServer;
  /** A fresh empty folder (world-readable, for runs as another user), removed after the test. */
  dir: string;
}

export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    const server = await startFakeServer();
    await use(server);
    await server.close();
  },
  dir: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-bad-input-'));
    await chmod(dir, 0o755);
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
});

export { expect };
