// Where a path taken from a run's report may be written, and how: only a golden in the snapshots folder of a spec
// of the run, or a spec of the run itself, inside the run's folder (its rootDir) and its projects' testDirs, and
// each file atomically (a temporary file beside it, renamed over it), so that a failure changes nothing.
// `phonewright approve` and `phonewright review` write through here.
import { randomBytes } from 'node:crypto';
import { lstatSync, realpathSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { UsageError } from '../core/errors.js';
import { reportTests } from './json-report.js';

/** A file that could not be written: which, and why. Nothing else was written with it. */
export class WriteFailed extends UsageError {
  readonly reason = 'write' as const;
  readonly file: string;
  /** @param written the files written before it failed (a rename after others), when there are any */
  constructor(file: string, why: string, written: readonly string[] = []) {
    const rest = written.length ? `the files before it were written: ${written.join(', ')}` : 'nothing was written';
    super(`could not write ${file}: ${why}; ${rest}`, { hint: 'check the folder\'s permissions and free space, then try again' });
    this.file = file;
  }
}

/** A file to write, and what it will hold. */
export interface PendingWrite {
  /** Absolute, checked by {@link RunFiles}. */
  file: string;
  content: Buffer | string;
}

/**
 * The files of a run a review may write, found from its JSON report. A report made on another machine (a CI
 * nightly) names that machine's paths: they are taken relative to its rootDir, from `root` here.
 */
export class RunFiles {
  /** The run's folder here, absolute. */
  readonly root: string;
  readonly #reportRoot: string;
  readonly #testDirs: string[];
  readonly #specs: Set<string>;
  /** The run's folder and testDirs with their links followed, found once. */
  #real: { root: string; testDirs: string[] } | undefined;
  /** Folders with their links followed, until {@link forget}: a review's 200 goldens share one or two. */
  #folders = new Map<string, string | undefined>();

  /**
   * @param report the run's JSON report
   * @param root the run's folder on this machine. @default the report's rootDir
   */
  constructor(report: JSONReport, root?: string) {
    this.#reportRoot = path.resolve(report.config.rootDir);
    this.root = path.resolve(root ?? this.#reportRoot);
    const dirs = (report.config.projects ?? []).flatMap((p) => (typeof p.testDir === 'string' ? [this.local(p.testDir)] : []));
    this.#testDirs = dirs.length ? [...new Set(dirs)] : [this.root];
    this.#specs = new Set([...reportTests(report.suites)].map(({ spec }) => path.resolve(this.root, spec.file)));
  }

  /**
   * A path of the report, here: one under the report's rootDir is moved to {@link root}; a relative one starts there.
   * @param file as the report names it
   */
  local(file: string): string {
    const rel = path.isAbsolute(file) ? path.relative(this.#reportRoot, file) : file;
    return path.resolve(this.root, rel);
  }

  /**
   * Where a golden the report names may be written, or a refusal: it must be a PNG in the `-snapshots/` folder of
   * a spec of the run (`spec`'s, when given), inside the run's folder and a project's testDir.
   * @param file the golden, as the report names it
   * @param spec the check's spec, absolute here
   */
  golden(file: string, spec?: string): string {
    const golden = this.local(file);
    const folder = path.dirname(golden);
    const owner = folder.endsWith('-snapshots') ? folder.slice(0, -'-snapshots'.length) : undefined;
    const ok = path.extname(golden) === '.png' && owner !== undefined && this.#specs.has(owner) && (spec === undefined || owner === spec);
    if (!ok) throw refused(golden, 'it is not a golden of a spec of the run (a PNG in the -snapshots folder beside the spec)');
    this.#inside(owner);
    this.#inside(golden);
    return golden;
  }

  /**
   * Where a spec the report names may be written, or a refusal: a spec file of the run, inside its folder.
   * @param file the spec, as the report names it (absolute, or relative to the rootDir)
   */
  spec(file: string): string {
    const spec = this.local(file);
    if (!this.#specs.has(spec)) throw refused(spec, 'it is not a spec file of the run');
    this.#inside(spec);
    return spec;
  }

  /** Forgets the folders seen: a check made after it looks at the disk again. */
  forget(): void {
    this.#folders.clear();
  }

  /** Refuses a path outside the run's folder or its testDirs, by name and once links are followed; and a link. */
  #inside(file: string): void {
    if (!within(this.root, file) || !this.#testDirs.some((d) => within(d, file))) throw refused(file, `it is outside the run's specs (${this.#testDirs.join(', ')})`);
    if (isLink(file)) throw refused(file, 'it is a symbolic link');
    // The nearest folder that is there, links followed, must still be the run's specs.
    let existing = path.dirname(file);
    let real: string | undefined;
    while (real === undefined) {
      if (!this.#folders.has(existing)) this.#folders.set(existing, realOrNone(existing));
      real = this.#folders.get(existing);
      if (real !== undefined) break;
      if (existing === path.dirname(existing)) throw refused(file, 'none of its folders is there');
      existing = path.dirname(existing);
    }
    const followed = path.join(real, 'x');
    this.#real ??= { root: realOf(this.root), testDirs: this.#testDirs.map(realOf) };
    if (!within(this.#real.root, followed) || !this.#real.testDirs.some((d) => within(d, followed))) throw refused(file, 'a folder on its way is a link out of the run\'s specs');
  }
}

/** Whether `file` is inside `dir` (not `dir` itself). */
function within(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Whether a path is a symbolic link (not when it is not there, or a file stands in its way). */
function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A folder with its links followed, where it is there. */
function realOf(dir: string): string {
  return realOrNone(dir) ?? dir;
}

function realOrNone(dir: string): string | undefined {
  try {
    return realpathSync.native(dir);
  } catch {
    return undefined;
  }
}

/**
 * Writes files atomically, all or none: each to a temporary file in its own folder first, then each renamed over
 * its file. A failure before the renames removes the temporary files and names the file and the reason.
 * @param writes the files, checked already
 */
export async function writeAtomically(writes: readonly PendingWrite[]): Promise<void> {
  const temps: { temp: string; file: string }[] = [];
  try {
    for (const w of writes) {
      await mkdir(path.dirname(w.file), { recursive: true }).catch((e: NodeJS.ErrnoException) => failed(w.file, e));
      const temp = path.join(path.dirname(w.file), `.${path.basename(w.file)}.${randomBytes(4).toString('hex')}.tmp`);
      await writeFile(temp, w.content, { flag: 'wx' }).catch((e: NodeJS.ErrnoException) => failed(w.file, e));
      temps.push({ temp, file: w.file });
    }
  } catch (error) {
    await Promise.all(temps.map((t) => rm(t.temp, { force: true })));
    throw error;
  }
  for (const [i, t] of temps.entries()) {
    try {
      await rename(t.temp, t.file);
    } catch (e) {
      await Promise.all(temps.slice(i).map((r) => rm(r.temp, { force: true })));
      throw new WriteFailed(t.file, why(e as NodeJS.ErrnoException), temps.slice(0, i).map((r) => r.file));
    }
  }
}

function failed(file: string, e: NodeJS.ErrnoException): never {
  throw new WriteFailed(file, why(e));
}

function why(e: NodeJS.ErrnoException): string {
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENOSPC') return 'no space left on the device';
  if (e.code === 'EROFS') return 'a read-only file system';
  if (e.code === 'ENOTDIR' || e.code === 'EEXIST') return 'a file stands where a folder of its path should be';
  if (e.code === 'EISDIR') return 'a folder stands where the file should be';
  return e.message;
}

function refused(file: string, reason: string): UsageError {
  return new UsageError(`refused to write ${file}: ${reason}; nothing was written`, { hint: 'a golden or spec is written only where the run\'s specs are: review the run of this folder' });
}
