/**
 * The harness of the CLI tests. `run` runs the CLI in-process, through `main()` with an output that collects
 * what it writes and an environment and working folder of the test's own (the process's are left alone);
 * `launch` starts one that keeps running (`notifications --follow`, `sim`), stopped as Ctrl-C would.
 * `spawnCli` and `launchSpawned` (tests/helpers/spawn.ts) run the real process, for the smoke tests of each
 * command: exit code, the stdout/stderr split, `--help`, a terminal, signals. `serve` starts fake servers
 * (tests/helpers/fake-server.ts), closed at teardown; `simulate` starts the simulator itself, for what only it
 * does (a phone that freezes, the acts it records, phones with names). No run sees a PHONEWRIGHT_* variable
 * unless a test sets one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '../helpers/test.js';
import { main } from '../../src/cli/main.js';
import { processOutput } from '../../src/cli/output.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';
import { serveFixture, type FakeServer, type FakeServerOptions } from '../helpers/fake-server.js';
import type { Op } from '../helpers/fake-server-types.js';
import { cliEnv, collect, ROOT, RUNS_PLAYWRIGHT, type CliOptions, type CliResult, type LiveCli } from '../helpers/spawn.js';
import { startsHeavy } from '../helpers/test.js';

/** The fake server's default credentials (the vendor's example). */
export const USER = 'sigma';
export const PASSWORD = '3D391497';

export interface RunOptions extends CliOptions {
  /** Stdout and stderr are a terminal, as on a pseudo-terminal: both arrive on stdout. */
  tty?: boolean;
}

/**
 * `--timeout` for a command meant to fail on a server that refuses it or keeps failing: each call is retried
 * until its retries or its deadline run out and ends with what it last saw, so a second ends with the same line
 * as the retries' seconds would.
 */
export const GIVE_UP_SOON = ['--timeout', '1000'];

/** The flags that point a command at a fake server (or a simulator) with its credentials. */
export function on(server: { url: string }, credentials: { user?: string; password?: string } = {}): string[] {
  return ['--url', server.url, '--user', credentials.user ?? USER, '--password', credentials.password ?? PASSWORD];
}

/** Runs the CLI in-process to the end. */
export function run(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return launch(args, options).exited;
}

/** Starts the CLI in-process and returns at once; `interrupt()` stops it as Ctrl-C stops the real one. */
export function launch(args: string[], options: RunOptions = {}): LiveCli {
  if (RUNS_PLAYWRIGHT.has(args[0] ?? '')) startsHeavy('a Playwright run');
  const live = collect();
  const tty = options.tty ?? false;
  const sink = (stream: 'stdout' | 'stderr') => ({ write: (text: string) => live.write(tty ? 'stdout' : stream, text), isTTY: tty });
  const output = processOutput(sink('stdout'), sink('stderr'));
  const controller = new AbortController();
  // A pipe has no width: help wraps as it does when the real CLI's stdout is not a terminal.
  const host = { env: cliEnv(options), cwd: options.cwd ?? ROOT, columns: undefined, signal: controller.signal };
  const exited = main(args, output, host).then((code) => live.end(code));
  const cli = { ...live.view, interrupt: () => controller.abort(), exited };
  const forget = () => void running.delete(cli);
  running.add(cli);
  exited.then(forget, forget);
  return cli;
}

/** In-process runs not ended yet: a test that fails halfway leaves no follow polling in the worker. */
const running = new Set<LiveCli>();

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
  /** Starts a simulator on 127.0.0.1, port 0 (the vendor's example credentials), closed when the test ends. */
  simulate: (options?: SimulatorOptions) => Promise<SimulatorHandle>;
  /** A fresh empty folder, removed when the test ends. */
  tmp: string;
  /** Stops the in-process runs a test left going, and waits for them. */
  stopRuns: void;
}

export const test = base.extend<Fixtures>({
  serve: serveFixture,
  simulate: async ({}, use) => {
    const started: SimulatorHandle[] = [];
    await use(async (options) => {
      const sim = await startSimulator({ port: 0, ...options });
      started.push(sim);
      return sim;
    });
    await Promise.all(started.map((sim) => sim.close()));
  },
  tmp: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-cli-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  stopRuns: [
    async ({}, use) => {
      await use();
      const left = [...running];
      left.forEach((cli) => cli.interrupt());
      await Promise.allSettled(left.map((cli) => cli.exited));
    },
    { auto: true },
  ],
});

export { expect };
export { closedPort, VENDOR, VENDOR_MAIN_DEVICE, type FakeServer } from '../helpers/fake-server.js';
export { HAS_SCRIPT, launchSpawned, ROOT, spawnCli, type CliResult, type LiveCli } from '../helpers/spawn.js';

/** A wrong command line: its arguments, and what the one error line says. */
export interface BadUsage {
  /** The test's name; default: the arguments. */
  name?: string;
  args: string[];
  says: RegExp;
}

/**
 * One test per case: `command` with the case's arguments, against a fake server, exits 2 with one line that
 * says what was wrong, prints nothing on stdout and sends nothing.
 */
export function badUsageTests(command: string, cases: BadUsage[]): void {
  for (const { name, args, says } of cases) {
    test(`bad usage, exit 2, nothing sent: ${name ?? args.join(' ')}`, async ({ serve }) => {
      const server = await serve();
      const r = await run([command, ...args, ...on(server)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(errorLine(r)).toMatch(says);
      expect(server.requests).toEqual([]);
    });
  }
}

/** An operation the server refuses: the command's arguments, the operation and the server's message. */
export interface Refused {
  /** The test's name. */
  name: string;
  args: string[];
  op: Op;
  said: string;
}

/**
 * One test per case: the server answers the operation with its failure envelope; `command` exits 1, prints
 * nothing on stdout, and its one error line says `<command> failed: the server said "<said>"`.
 */
export function serverRefusesTests(command: string, cases: Refused[]): void {
  for (const { name, args, op, said } of cases) {
    test(`the server refuses, exit 1 with its message: ${name}`, async ({ serve }) => {
      const server = await serve();
      server.handle(op, { json: { status: null, value: said } });
      const r = await run([command, ...args, ...on(server)]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(errorLine(r)).toContain(`${command} failed: the server said "${said}"`);
    });
  }
}
