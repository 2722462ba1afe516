// The host's cores are shared by every phonewright process on it: a CPU-heavy job takes one for its time, waits
// while other processes hold them all, takes over one left by a process that died, and says the host was busy
// when none came in time. The wait is the host's time, not the phone's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Deadline, hostMs } from '../../src/client/index.js';
import { ConfigError, TimeoutError } from '../../src/core/errors.js';
import { coresFolder, HOST_CORES_ENV, hostCores, onCores } from '../../src/phone/host-cores.js';
import { expect, test } from '../helpers/test.js';

test.describe.configure({ mode: 'serial' });

let saved: { tmp: string | undefined; cores: string | undefined };
let tmp: string;
let sleeper: ChildProcess | undefined;

test.beforeEach(() => {
  saved = { tmp: process.env.TMPDIR, cores: process.env[HOST_CORES_ENV] };
  tmp = mkdtempSync(path.join(os.tmpdir(), 'pw-cores-'));
  // This test's own host: its locks in a folder of its own, one core.
  process.env.TMPDIR = tmp;
  process.env[HOST_CORES_ENV] = '1';
});

test.afterEach(() => {
  sleeper?.kill();
  sleeper = undefined;
  for (const [key, value] of [['TMPDIR', saved.tmp], [HOST_CORES_ENV, saved.cores]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(tmp, { recursive: true, force: true });
});

/** The host's one core, held by another process (alive, or one that has exited). */
async function heldBy(alive: boolean): Promise<string> {
  const child = spawn(process.execPath, ['-e', alive ? 'setTimeout(() => {}, 30000)' : ''], { stdio: 'ignore' });
  if (alive) sleeper = child;
  else await new Promise((resolve) => child.once('exit', resolve));
  const lock = path.join(coresFolder(), '0');
  mkdirSync(lock, { recursive: true });
  writeFileSync(path.join(lock, 'owner'), String(child.pid));
  return lock;
}

test('a job waits while another process holds the host\'s only core, and runs once it is let go; the wait is the host\'s time', async () => {
  const lock = await heldBy(true);
  const before = hostMs();
  const started = performance.now();
  setTimeout(() => rmSync(lock, { recursive: true, force: true }), 400);
  const result = await onCores('a search', () => 42, Deadline.in(5_000));
  const waited = performance.now() - started;
  expect(result).toBe(42);
  expect(waited).toBeGreaterThanOrEqual(390);
  expect(hostMs() - before, 'the wait counted as the host\'s').toBeGreaterThanOrEqual(390);
});

test('a core held by a process that has died is taken over at once', async () => {
  await heldBy(false);
  const started = performance.now();
  expect(await onCores('a search', () => 'taken', Deadline.in(5_000))).toBe('taken');
  expect(performance.now() - started).toBeLessThan(300);
});

test('no core before the deadline: the job is not run, and the error says the host was busy', async () => {
  await heldBy(true);
  let ran = false;
  const error = await onCores('search images/send.png', () => (ran = true), Deadline.in(300)).catch((e: unknown) => e);
  expect(ran).toBe(false);
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as TimeoutError).hostMs).toBeGreaterThanOrEqual(290);
  expect((error as Error).message).toMatch(/^search images\/send\.png: this host was busy: \d+ ms waiting for its CPU, and no core of its 1 was free; try: other processes held them \(.*phonewright-cores-.*\); PHONEWRIGHT_HOST_CORES sets how many jobs run at once$/);
});

test('one process\'s jobs take their turns in the order asked, one at a time, and each lets its core go', async () => {
  process.env[HOST_CORES_ENV] = '2';
  const seen: string[] = [];
  const job = (name: string, ms: number) => async () => {
    seen.push(`${name} start`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    seen.push(`${name} end`);
    return name;
  };
  const failing = onCores('c', () => {
    throw new Error('c failed');
  });
  const names = await Promise.all([onCores('a', job('a', 80)), onCores('b', job('b', 10)), failing.catch((e: Error) => e.message), onCores('d', job('d', 10))]);
  expect(names).toEqual(['a', 'b', 'c failed', 'd']);
  expect(seen).toEqual(['a start', 'a end', 'b start', 'b end', 'd start', 'd end']);
  expect(await onCores('e', () => 'every core free again', Deadline.in(200))).toBe('every core free again');
});

test(`${HOST_CORES_ENV}: this host's cores by default; a number that is not one is refused, naming the variable`, () => {
  expect(hostCores({})).toBe(os.availableParallelism());
  expect(hostCores({ [HOST_CORES_ENV]: '3' })).toBe(3);
  for (const bad of ['0', '-1', '1.5', 'two']) {
    expect(() => hostCores({ [HOST_CORES_ENV]: bad })).toThrow(ConfigError);
    expect(() => hostCores({ [HOST_CORES_ENV]: bad })).toThrow(new RegExp(`^${HOST_CORES_ENV}=".*" is not a number of cores`));
  }
});
