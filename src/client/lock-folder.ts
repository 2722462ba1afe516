import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Locks shared by the processes of one machine: a lock is a folder made with `mkdir` (atomic), holding its
// owner's pid; one left by a process that died is taken over. What waits for one waits with waitForTurn (the
// resilience policy), woken by {@link changed} on the folder that holds the locks.

/**
 * Takes the lock at `lock` for this process: true when taken, false while a live process holds it.
 * The folder that holds it is made when missing.
 */
export async function tryLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // The last lock of the folder was just let go and took the folder with it.
      await mkdir(path.dirname(lock), { recursive: true });
      return tryLock(lock);
    }
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(await readFile(path.join(lock, 'owner'), 'utf8').catch(() => ''));
    // No owner yet: another process is between its mkdir and its write, and holds it.
    if (!owner || alive(owner)) return false;
    await rm(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  await writeFile(path.join(lock, 'owner'), String(process.pid));
  return true;
}

/**
 * Lets go of a lock; then removes the folders given, innermost first, where no other lock keeps them.
 * @param folders the folders that go with the last lock in them
 */
export async function unlock(lock: string, folders: string[] = []): Promise<void> {
  await rm(lock, { recursive: true, force: true });
  for (const d of folders) await rmdir(d).catch(() => undefined);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves when something in `dir` changes (a lock let go), or after `ms`. */
export function changed(dir: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, Math.max(1, ms));
    try {
      watcher = watch(dir, done);
    } catch {
      // Watching is an optimisation (best-effort on some file systems): the timer still wakes the waiter.
    }
  });
}
