/**
 * The end-to-end harness of the CLI tests: `run` spawns the real CLI (`node bin/phonewright.js …`, built
 * into dist/ beforehand by `npm run build`) and collects its exit code and output; `launch` starts one
 * that keeps running (`notifications --follow`); `serve` starts fake servers (tests/helpers/fake-server.ts),
 * closed at teardown. The child's environment holds no PHONEWRIGHT_* variable unless a test sets one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { startFakeServer, type FakeServer, type FakeServerOptions } from '../helpers/fake-server.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'phonewright.js');

/** The fake server's default credentials (the vendor's example). */
export const USER = 'sigma';
export const PASSWORD = '3D391497';

/** What a finished CLI run left behind. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to the child's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** @default the repository root */
  cwd?: string;
  /** Run the CLI on a pseudo-terminal (script(1) from util-linux): stdout and stderr both arrive on stdout. */
  terminal?: boolean;
}

/** True when script(1) can give the CLI a pseudo-terminal. */
export const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/** The flags that point a command at a fake server with its credentials. */
export function on(server: FakeServer, credentials: { user?: string; password?: string } = {}): string[] {
  return ['--url', server.url, '--user', credentials.user ?? USER, '--password', credentials.password ?? PASSWORD];
}

/** Runs the CLI to the end. */
export async function run(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const cli = launch(args, options);
  return cli.exited;
}

/** A CLI process that is still running: its output so far, and ways to wait on it. */
export interface LiveCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the output so far once `pattern` appears in it. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  readonly exited: Promise<CliResult>;
}

/** Starts the CLI and returns at once. */
export function launch(args: string[], options: RunOptions = {}): LiveCli {
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  const argv = [process.execPath, BIN, ...args];
  const [file, ...rest] = options.terminal ? ['script', '-qec', argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' '), '/dev/null'] : argv;
  const child = spawn(file!, rest, { cwd: options.cwd ?? ROOT, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => {
      out[stream] += chunk;
      waiters.forEach((w) => w());
    });
  }
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      waiters.forEach((w) => w());
      resolve({ code, signal, ...out });
    });
  });
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    waitFor: (stream, pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out[stream])) {
            waiters.delete(check);
            resolve(out[stream]);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`the CLI exited (${child.exitCode ?? child.signalCode}) before ${pattern} appeared on ${stream}:\n${out.stdout}\n${out.stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** The test process's environment without any PHONEWRIGHT_* variable and without colours, plus `extra`. */
function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PHONEWRIGHT_')) env[k] = v;
  // Playwright's workers set FORCE_COLOR; with NO_COLOR beside it, Node warns on stderr.
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** The single line phonewright writes on stderr when it fails. */
export function errorLine(result: CliResult): string {
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines, `one error line on stderr, got:\n${result.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(/^phonewright: /);
  return lines[0]!;
}

export interface Fixtures {
  /** Starts a fake server, closed when the test ends. */
  serve: (options?: FakeServerOptions) => Promise<FakeServer>;
  /** A fresh empty folder, removed when the test ends. */
  tmp: string;
}

export const test = base.extend<Fixtures>({
  serve: async ({}, use) => {
    const servers: FakeServer[] = [];
    await use(async (options) => {
      const server = await startFakeServer(options);
      servers.push(server);
      return server;
    });
    await Promise.all(servers.map((s) => s.close()));
  },
  tmp: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-cli-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
});

export { expect };
export { closedPort, VENDOR, VENDOR_MAIN_DEVICE, type FakeServer } from '../helpers/fake-server.js';
