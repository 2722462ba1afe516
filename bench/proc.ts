import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** How long a child may take to start (a simulator, a server) before the bench gives up. */
const START_TIMEOUT = 30_000;

/** A benchmark helper running in its own process, spoken to over IPC. */
export interface Child<Ready> {
  /** What the child said when it was ready (its URL, say). */
  readonly ready: Ready;
  readonly pid: number;
  /** Sends a command; resolves with the child's answer. */
  ask<T = unknown>(command: string, arg?: unknown): Promise<T>;
  /** Stops the child and waits for it to exit. */
  close(): Promise<void>;
}

interface Reply {
  id: number;
  result?: unknown;
  error?: string;
}

/**
 * Starts `dist/bench/<module>.js` in its own process and waits for its `{ ready }` message.
 * @param module the compiled module's name, e.g. `sim-server`
 * @param arg passed to the child as JSON in its first argument
 */
export function startChild<Ready>(module: string, arg: unknown = {}): Promise<Child<Ready>> {
  return connectChild<Ready>(fork(path.join(HERE, `${module}.js`), [JSON.stringify(arg)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }), module);
}

/**
 * Speaks to a child process that answers as {@link serveChild} does (its first message `{ ready }`, then
 * `{ id, result }` or `{ id, error }` per command, and `stop` closes it): waits until it is ready.
 * @param name the child, for messages
 */
export async function connectChild<Ready>(child: ChildProcess, name: string): Promise<Child<Ready>> {
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT} ms`)), START_TIMEOUT);
    child.once('message', (m: { ready: Ready }) => (clearTimeout(timer), resolve(m.ready)));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${name} exited with code ${code} before it was ready`))));
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(`${name}: ${m.error}`));
    else p?.resolve(m.result);
  });
  return {
    ready,
    pid: child.pid!,
    ask: <T>(command: string, a?: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, command, arg: a });
      }),
    close: () => stop(child),
  };
}

/**
 * The child's side: reads its argument, says it is ready, then answers commands until told to stop.
 * @param start sets the child up; returns what to tell the parent and the commands it answers
 */
export async function serveChild<A, Ready>(
  start: (arg: A) => Promise<{ ready: Ready; commands: Record<string, (arg: unknown) => unknown>; close?: () => Promise<void> }>,
): Promise<void> {
  const arg = JSON.parse(process.argv[2] ?? '{}') as A;
  const { ready, commands, close } = await start(arg);
  process.on('message', (m: { id: number; command: string; arg: unknown }) => {
    void (async () => {
      try {
        if (m.command === 'stop') {
          await close?.();
          process.send!({ id: m.id, result: null }, () => process.exit(0));
          return;
        }
        // CPU time this process has used, in µs: the parent divides it by the work done.
        if (m.command === 'cpu') return void process.send!({ id: m.id, result: cpuMicros() });
        const command = commands[m.command];
        if (!command) throw new Error(`unknown command ${m.command}`);
        process.send!({ id: m.id, result: (await command(m.arg)) ?? null });
      } catch (e) {
        process.send!({ id: m.id, error: (e as Error).message });
      }
    })();
  });
  process.send!({ ready });
}

/** Memory of this process from /proc: resident now, and the peak since the last {@link resetPeakRss}, in bytes. */
export function rss(): { now: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
  return { now: kib('VmRSS'), peak: kib('VmHWM') };
}

/**
 * Starts a new peak-memory window: the kernel's high-water mark (VmHWM) drops to the resident size now
 * (Linux ≥ 4.0, `clear_refs` 5). The peak then catches every spike, not only those a sampler happens to see.
 * Returns the resident size at the start of the window.
 */
export function resetPeakRss(): number {
  writeFileSync('/proc/self/clear_refs', '5');
  return rss().now;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    if (child.connected) child.send({ id: 0, command: 'stop' });
    else child.kill('SIGTERM');
  });
}
