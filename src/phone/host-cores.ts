import os from 'node:os';
import path from 'node:path';
import { Deadline, onHost } from '../client/index.js';
import { changed, tryLock, unlock } from '../client/lock-folder.js';
import { waitForTurn } from '../client/resilience.js';
import { ConfigError, hostBusy, TimeoutError } from '../core/errors.js';

// The host's cores are shared by every phonewright process on it: a matrix's workers (one per phone), the
// runner's simulator, the CLI. CPU-heavy work (a template search, a read of text) takes one of the host's cores
// for its time: at most as many such jobs run at once as the host has cores, the others wait, one at a time per
// process in the order asked. The wait is the host's time (see host-time.ts), not the phone's: a check's
// deadline moves later by it.
//
// A core is a lock folder (lock-folder.ts) under the OS temp folder, per user: a process that dies holding one
// lets it go with its life.

/** The variable that sets how many CPU-heavy jobs the host runs at once (default: its cores). */
export const HOST_CORES_ENV = 'PHONEWRIGHT_HOST_CORES';
/** Wakes a waiter even if a release event is missed (fs.watch is best-effort on some file systems). */
const RECHECK_MS = 100;
/** How long a job waits for a core when nothing bounds it (the CLI, a read without a deadline). */
const UNBOUNDED_WAIT_MS = 60_000;

/** How many CPU-heavy jobs the host runs at once: PHONEWRIGHT_HOST_CORES, else its cores. */
export function hostCores(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[HOST_CORES_ENV];
  if (value === undefined || value === '') return os.availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1024) {
    throw new ConfigError(`${HOST_CORES_ENV}=${JSON.stringify(value.slice(0, 20))} is not a number of cores`, { hint: `a whole number from 1, e.g. ${os.availableParallelism()} (this host's cores, the default)` });
  }
  return n;
}

/** The folder of this user's core locks on this host. */
export function coresFolder(): string {
  return path.join(os.tmpdir(), `phonewright-cores-${process.getuid?.() ?? 'user'}`);
}

/** This process's jobs, one after another: a job's turn for a core comes after the one asked before it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs CPU-heavy `work` on one of the host's cores: after this process's jobs asked before it, once a core is
 * free. Waiting and working are this host's time.
 * @param what the work, for the error when no core came in time
 * @param deadline the wait's bound (a check's moves later by the wait itself, up to its allowance)
 * @throws TimeoutError (`this host was busy: …`) when no core was free before the deadline
 */
export function onCores<T>(what: string, work: () => T | Promise<T>, deadline?: Deadline): Promise<T> {
  // Its wait starts when it is asked for: a turn behind this process's earlier jobs is a wait for the CPU too.
  const asked = performance.now();
  const turn = queue.then(() => withCore(what, work, deadline, asked));
  queue = turn.catch(() => undefined);
  return onHost(turn);
}

async function withCore<T>(what: string, work: () => T | Promise<T>, deadline: Deadline | undefined, asked: number): Promise<T> {
  const n = hostCores();
  // The folder is made by the first lock taken in it (tryLock): no file operation here on each job.
  const dir = coresFolder();
  const bound = deadline ?? Deadline.budget(UNBOUNDED_WAIT_MS);
  const core = await waitForTurn(
    async () => {
      for (let i = 0; i < n; i++) {
        const lock = path.join(dir, String(i));
        if (await tryLock(lock)) return lock;
      }
      return undefined;
    },
    { deadline: bound, pauseMs: () => RECHECK_MS, woken: (ms) => changed(dir, ms) },
  );
  if (core === undefined) {
    const waited = performance.now() - asked;
    throw new TimeoutError(`${what}: ${hostBusy(waited)}, and no core of its ${n} was free`, { reason: 'deadline', hostMs: waited, hint: `other processes held them (${dir}); ${HOST_CORES_ENV} sets how many jobs run at once` });
  }
  try {
    return await work();
  } finally {
    await unlock(core);
  }
}
