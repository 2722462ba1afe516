// The one writer of a user's repository: specs, tables, goldens and images, from the inspector, the review, `approve`,
// `init` and a run's first golden. It writes only inside the folder it is given: the target and every folder on the
// way are checked with their links followed (none may lead out of the folder, and a link at the target is never
// written through or replaced), each file is written beside itself and renamed over (a failure changes nothing),
// and the writes of one file are taken one at a time, each planning from the text it replaces.
import { randomBytes } from 'node:crypto';
import { lstatSync, realpathSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';

/** A write refused: the target is not where this writer may write. Nothing was written. */
export class WriteRefused extends UsageError {
  readonly reason = 'refused' as const;
  readonly file: string;
  constructor(file: string, why: string, hint: string) {
    super(`refused to write ${file}: ${why}; nothing was written`, { hint });
    this.file = file;
  }
}

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

/** A new file that is there already: it is not replaced unasked. */
export class FileExists extends UsageError {
  readonly reason = 'exists' as const;
  readonly file: string;
  constructor(file: string, hint: string) {
    super(`${file} exists already`, { hint });
    this.file = file;
  }
}

/** A file to write, and what it will hold. */
export interface PendingWrite {
  /** Absolute, or relative to the writer's folder. */
  file: string;
  content: Buffer | string;
}

/** How a file is written. */
export interface WriteOptions {
  /** Replace a file that is there; else one that is there is a {@link FileExists} with this hint. @default true */
  replace?: boolean;
  /** What to do when a file not to be replaced is there. */
  exists?: string;
}

/** The writes in flight per file, across the writers of this process: the next waits for the last. */
const turns = new Map<string, Promise<unknown>>();

/** Writes files inside one folder, and nowhere else. */
export class FolderWriter {
  /** The folder, absolute, as given. */
  readonly root: string;
  readonly #what: string;
  readonly #hint: string;
  #realRoot: string | undefined;

  /**
   * @param root the folder written in (a repository, its specs folder, a run's folder)
   * @param what the folder in words, for a refusal: `the specs folder (specs)`
   * @param hint what to do when a write is refused
   */
  constructor(root: string, what: string, hint = 'write inside the folder, with no symbolic link on the way out of it') {
    this.root = path.resolve(root);
    this.#what = what;
    this.#hint = hint;
  }

  /**
   * Where `file` may be written, absolute, or a {@link WriteRefused} naming why: outside the folder, a link at the
   * target, a folder on the way that is a link out of it, or that is a file.
   * @param file absolute, or relative to the folder
   */
  target(file: string): string {
    const target = path.resolve(this.root, file);
    if (!within(this.root, target)) throw this.#refuse(target, `it is outside ${this.#what}`);
    this.#realRoot ??= realOrNone(this.root) ?? this.root;
    // Every folder from the root down that is there: a link is followed, and must stay inside.
    let folder = this.root;
    for (const part of path.relative(this.root, path.dirname(target)).split(path.sep).filter(Boolean)) {
      folder = path.join(folder, part);
      const stat = lstatOrNone(folder);
      if (!stat) break;
      if (stat.isSymbolicLink()) {
        const real = realOrNone(folder);
        if (real === undefined || !(real === this.#realRoot || within(this.#realRoot, real))) throw this.#refuse(target, `its folder ${folder} is a symbolic link out of ${this.#what}`);
        if (!statIsFolder(real)) throw this.#refuse(target, `${folder} is not a folder`);
      } else if (!stat.isDirectory()) {
        throw this.#refuse(target, `${folder} is a file, not a folder`);
      }
    }
    const stat = lstatOrNone(target);
    if (stat?.isSymbolicLink()) throw this.#refuse(target, 'it is a symbolic link, and a link is never written through or replaced');
    if (stat?.isDirectory()) throw this.#refuse(target, 'it is a folder');
    return target;
  }

  /**
   * Writes one file, atomically, inside its turn.
   * @returns the file written, absolute
   */
  async write(file: string, content: Buffer | string, options: WriteOptions = {}): Promise<string> {
    const target = this.target(file);
    await inTurn([target], () => this.#commit([{ file: target, content }], options));
    return target;
  }

  /**
   * Writes files all or none: every target checked first, then each written beside itself, then all renamed over.
   * @returns the files written, absolute
   */
  async writeAll(writes: readonly PendingWrite[], options: WriteOptions = {}): Promise<string[]> {
    const checked = writes.map((w) => ({ file: this.target(w.file), content: w.content }));
    await inTurn(checked.map((w) => w.file), () => this.#commit(checked, options));
    return checked.map((w) => w.file);
  }

  /**
   * Reads a file, plans what it will hold from its text (undefined: not there), and writes that, inside the file's
   * turn: two updates of one file never plan from the same text.
   * @param plan what the file will hold, or undefined to leave it as it is
   * @returns what the plan gave back
   */
  async update(file: string, plan: (text: string | undefined) => string | Buffer | undefined | Promise<string | Buffer | undefined>): Promise<string | Buffer | undefined> {
    const target = this.target(file);
    return inTurn([target], async () => {
      let text: string | undefined;
      try {
        text = await readFile(target, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new WriteFailed(target, why(e as NodeJS.ErrnoException));
      }
      const content = await plan(text);
      if (content !== undefined) await this.#commit([{ file: this.target(target), content }], {});
      return content;
    });
  }

  /** Makes the folder if it is not there, then each missing folder on the way, one at a time, each checked as it is made. */
  async #folders(file: string): Promise<void> {
    await mkdir(this.root, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
      throw new WriteFailed(file, why(e));
    });
    let folder = this.root;
    for (const part of path.relative(this.root, path.dirname(file)).split(path.sep).filter(Boolean)) {
      folder = path.join(folder, part);
      try {
        await mkdir(folder);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new WriteFailed(file, why(e as NodeJS.ErrnoException));
      }
    }
    // A folder made or swapped meanwhile is looked at again before anything is written in it.
    this.target(file);
  }

  async #commit(writes: readonly { file: string; content: Buffer | string }[], options: WriteOptions): Promise<void> {
    const replace = options.replace ?? true;
    const temps: { temp: string; file: string }[] = [];
    try {
      for (const w of writes) {
        await this.#folders(w.file);
        const temp = path.join(path.dirname(w.file), `.${path.basename(w.file)}.${randomBytes(4).toString('hex')}.tmp`);
        await writeFile(temp, w.content, { flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
          throw new WriteFailed(w.file, why(e));
        });
        temps.push({ temp, file: w.file });
      }
    } catch (error) {
      await Promise.all(temps.map((t) => rm(t.temp, { force: true })));
      throw error;
    }
    for (const [i, t] of temps.entries()) {
      try {
        this.target(t.file);
        // A new file takes its name by a hard link, which fails where a file is there: never one replaced unasked.
        if (replace) await rename(t.temp, t.file);
        else await link(t.temp, t.file).then(() => rm(t.temp, { force: true }));
      } catch (e) {
        await Promise.all(temps.slice(i).map((r) => rm(r.temp, { force: true })));
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new FileExists(t.file, options.exists ?? 'choose another name');
        if (e instanceof UsageError) throw e;
        throw new WriteFailed(t.file, why(e as NodeJS.ErrnoException), temps.slice(0, i).map((r) => r.file));
      }
    }
  }

  #refuse(file: string, reason: string): WriteRefused {
    return new WriteRefused(file, reason, this.#hint);
  }
}

/** Runs `work` once every earlier write of these files in this process has ended. */
async function inTurn<T>(files: readonly string[], work: () => Promise<T>): Promise<T> {
  const before = files.map((f) => turns.get(f)).filter((p): p is Promise<unknown> => p !== undefined);
  const done = Promise.allSettled(before).then(work);
  const settled = done.catch(() => undefined);
  for (const f of files) turns.set(f, settled);
  try {
    return await done;
  } finally {
    for (const f of files) if (turns.get(f) === settled) turns.delete(f);
  }
}

/** Whether `file` is inside `dir` (not `dir` itself). */
export function within(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

function lstatOrNone(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function statIsFolder(file: string): boolean {
  return lstatOrNone(file)?.isDirectory() ?? false;
}

/** A path with its links followed, where it is there. */
export function realOrNone(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

function why(e: NodeJS.ErrnoException): string {
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENOSPC') return 'no space left on the device';
  if (e.code === 'EROFS') return 'a read-only file system';
  if (e.code === 'ENOTDIR' || e.code === 'EEXIST') return 'a file stands where a folder of its path should be';
  if (e.code === 'EISDIR') return 'a folder stands where the file should be';
  return e.message;
}
