// What git says of the files a review wrote: `git status --porcelain` of those paths (ignored ones too, `!!`),
// where the run's folder is in a git repository; nothing where it is not (or git is not installed).
import { execFile } from 'node:child_process';

/**
 * The porcelain status lines of `files` (` M specs/a.spec.ts-snapshots/corner-galaxy-s9.png`, paths from the
 * repository's root), or undefined outside a repository.
 * @param cwd the run's folder
 * @param files paths relative to it
 */
export function gitStatus(cwd: string, files: readonly string[]): Promise<string[] | undefined> {
  if (!files.length) return Promise.resolve([]);
  return new Promise((resolve) => {
    execFile('git', ['status', '--porcelain', '--untracked-files=all', '--ignored=matching', '--', ...files], { cwd, timeout: 10_000, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      resolve(error ? undefined : stdout.split('\n').filter(Boolean));
    });
  });
}
