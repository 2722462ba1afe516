/**
 * The one way the framework's tests spawn the CLI: `node bin/phonewright.js …`, built into dist/ beforehand by
 * `npm run build`. Most CLI tests run `main()` in-process (tests/cli/helpers.ts); a spawned run is for what
 * only a process shows: its exit code, its real stdout and stderr, a terminal, signals, another user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startsHeavy } from './test.js';

/** The CLI's commands that start a Playwright run. */
export const RUNS_PLAYWRIGHT = new Set(['test', 'nightly', 'merge']);
/** Playwright's own commands that run tests or merge reports. */
const PLAYWRIGHT_RUNS = new Set(['test', 'merge-reports']);

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'phonewright.js');

/** True when script(1) can give the CLI a pseudo-terminal. */
export const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/** Children still running. One a timed-out test leaves behind (and the Playwright run of `test`) ends with the worker. */
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

/** What a finished CLI run left behind. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A CLI run that is still going (`notifications --follow`, `sim`): its output so far, and ways to wait on it or stop it. */
export interface LiveCli {
  stdout(): string;
  stderr(): string;
  /** Resolves with the output so far once `pattern` appears in it; rejects if the run ends first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  /** What Ctrl-C does: SIGINT to a process, an abort to an in-process run. */
  interrupt(): void;
  readonly exited: Promise<CliResult>;
}

/** Where a CLI run runs, spawned or in-process. */
export interface CliOptions {
  /** @default the repository root */
  cwd?: string;
  /** Added to the run's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** The environment `env` adds to. @default the test process's, without PHONEWRIGHT_* variables and colours */
  baseEnv?: NodeJS.ProcessEnv;
}

export interface SpawnOptions extends CliOptions {
  /** Run the CLI on a pseudo-terminal (script(1) from util-linux): stdout and stderr both arrive on stdout. */
  terminal?: boolean;
  /** Run as this user and group (the test process must be root for it to matter). */
  user?: { uid: number; gid: number };
  /** The CLI's entry point, e.g. an installed package's (helpers/installed.ts). @default the repository's bin/phonewright.js */
  bin?: string;
}

/**
 * Runs a Node script to its end with exactly `env`, killed after `timeoutMs` (a stuck run fails its test
 * rather than holding the suite): the inline Playwright runs and the nightly CLI runs.
 * @returns the exit code (128 when a signal ended it) and the output
 */
export async function runNode(script: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  if ((script === BIN ? RUNS_PLAYWRIGHT : PLAYWRIGHT_RUNS).has(args[0] ?? '') && (script === BIN || /playwright/.test(script))) startsHeavy('a Playwright run');
  const child = spawn(process.execPath, [script, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  }).finally(() => {
    clearTimeout(killer);
    children.delete(child);
  });
  return { code, stdout, stderr };
}

/** Runs the CLI in a process of its own, to the end. */
export function spawnCli(args: string[], options: SpawnOptions = {}): Promise<CliResult> {
  return launchSpawned(args, options).exited;
}

/** Starts the CLI in a process of its own and returns at once. */
export function launchSpawned(args: string[], options: SpawnOptions = {}): LiveCli {
  if (RUNS_PLAYWRIGHT.has(args[0] ?? '')) startsHeavy('a Playwright run');
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  const argv = [process.execPath, options.bin ?? BIN, ...args];
  const [file, ...rest] = options.terminal ? ['script', '-qec', argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' '), '/dev/null'] : argv;
  const child = spawn(file!, rest, { cwd: options.cwd ?? ROOT, env: cliEnv(options), stdio: ['ignore', 'pipe', 'pipe'], ...options.user });
  const live = collect();
  children.add(child);
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => live.write(stream, chunk));
  }
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      children.delete(child);
      resolve(live.end(code));
    });
  });
  return { ...live.view, interrupt: () => void child.kill('SIGINT'), exited };
}

/**
 * The environment of a CLI run: `baseEnv` (by default the test process's without any PHONEWRIGHT_* variable
 * and without colours), plus `env`.
 */
export function cliEnv(options: Pick<CliOptions, 'env' | 'baseEnv'> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(options.baseEnv ?? ownEnv()) };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function ownEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PHONEWRIGHT_')) env[k] = v;
  // Playwright's workers set FORCE_COLOR; with NO_COLOR beside it, Node warns on stderr.
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
  return env;
}

/**
 * Collects a run's output as it arrives, for a spawned or an in-process run: `write` adds to a stream and
 * wakes the waiters; `end` settles the run (a waiter still waiting then fails).
 */
export function collect(): {
  write(stream: 'stdout' | 'stderr', text: string): void;
  end(code: number | null): CliResult;
  view: Pick<LiveCli, 'stdout' | 'stderr' | 'waitFor'>;
} {
  const out = { stdout: '', stderr: '' };
  let ended: number | null | undefined;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  return {
    write(stream, text) {
      out[stream] += text;
      wake();
    },
    end(code) {
      ended = code;
      wake();
      return { code, ...out };
    },
    view: {
      stdout: () => out.stdout,
      stderr: () => out.stderr,
      waitFor: (stream, pattern) =>
        new Promise((resolve, reject) => {
          const check = () => {
            if (pattern.test(out[stream])) {
              waiters.delete(check);
              resolve(out[stream]);
            } else if (ended !== undefined) {
              waiters.delete(check);
              reject(new Error(`the CLI exited (${ended}) before ${pattern} appeared on ${stream}:\n${out.stdout}\n${out.stderr}`));
            }
          };
          waiters.add(check);
          check();
        }),
    },
  };
}
