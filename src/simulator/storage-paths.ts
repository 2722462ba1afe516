import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { UploadTarget } from '../core/upload-target.js';

/** An upload the simulator will not store; its message goes back in the failure envelope. */
export class UploadRefused extends Error {}

/** The folder under the installation root that holds the typed targets (`storage/images`, `storage/js`…). */
export const TYPED_ROOT = 'storage';
/** A stored name: the 13-digit millisecond number and the original extension. */
export const STORED_NAME = /^\d{13,}(?:\.[A-Za-z0-9]{1,16})?$/;
const EXTENSION = /^\.[A-Za-z0-9]{1,16}$/;
/** Enough for any burst of uploads in one millisecond; past it something else is wrong. */
const MAX_NAME_TRIES = 10_000;

/**
 * Hands out stored-file numbers: the clock's milliseconds, or the next free number when two uploads come in
 * the same millisecond (field notes: "distinct names (next free number)").
 */
export class NameAllocator {
  #last = 0;

  /** The next number at `now` (ms since the epoch). */
  next(now: number): number {
    const n = Math.max(Math.floor(now), this.#last + 1);
    this.#last = n;
    return n;
  }
}

/**
 * The folder an upload goes to, created when missing. `local/<folder>` stays under the installation root:
 * every existing part of the path is checked with lstat/realpath before anything is created under it, so a
 * symlink that leads out is refused before it could be written through.
 * @param realRoot the installation root, already resolved with realpath
 * @param target the parsed part name
 * @param allowAbsolute whether `local/<absolute path>/` may write anywhere on the machine
 */
export async function targetFolder(realRoot: string, target: UploadTarget, allowAbsolute: boolean): Promise<string> {
  if (target.kind === 'absolute') {
    if (!allowAbsolute) throw new UploadRefused(`upload target ${JSON.stringify(target.part)} writes outside the installation root; this simulator was started without allowing absolute targets (--allow-absolute-uploads)`);
    if (!path.isAbsolute(target.path)) throw new UploadRefused(`upload target ${JSON.stringify(target.part)} is a drive-letter path; this server does not run on Windows`);
    await mkdir(target.path, { recursive: true });
    return target.path;
  }
  const segments = target.kind === 'typed' ? [TYPED_ROOT, ...target.folder.split('/')] : target.folder.split('/');
  let current = realRoot;
  for (const segment of segments) {
    const next = path.join(current, segment);
    let stat;
    try {
      stat = await lstat(next);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await mkdir(next).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      stat = await lstat(next);
    }
    if (stat.isSymbolicLink()) {
      const real = await realpath(next);
      if (!isInside(realRoot, real)) throw new UploadRefused(`upload target ${JSON.stringify(target.part)} leads out of the installation root through a symbolic link`);
      current = real;
    } else if (stat.isDirectory()) {
      current = next;
    } else {
      throw new UploadRefused(`upload target ${JSON.stringify(target.part)}: ${segment} is a file, not a folder`);
    }
  }
  // A last check on the whole path: the parts could have changed while they were walked.
  if (!isInside(realRoot, await realpath(current))) throw new UploadRefused(`upload target ${JSON.stringify(target.part)} leads out of the installation root`);
  return current;
}

/**
 * Creates a new empty file named `<13 digits><ext>` in `folder` that did not exist before (O_EXCL, and
 * O_NOFOLLOW so a planted symlink is not followed).
 * @param folder where to create it
 * @param ext the extension with its dot, or ''
 */
export async function createStoredFile(folder: string, ext: string, names: NameAllocator, now: () => number): Promise<{ handle: FileHandle; file: string; name: string }> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  for (let tries = 0; tries < MAX_NAME_TRIES; tries++) {
    const name = `${String(names.next(now())).padStart(13, '0')}${ext}`;
    const file = path.join(folder, name);
    try {
      return { handle: await open(file, flags, 0o644), file, name };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  throw new UploadRefused(`no free file name in ${folder}`);
}

/**
 * The extension a stored file keeps: the uploaded name's, when it is a plain one (`.bmp`, `.apk`).
 * @param filename the file name the client sent
 */
export function storedExtension(filename: string | undefined): string {
  const ext = path.posix.extname(filename ?? '');
  return EXTENSION.test(ext) ? ext : '';
}

/** A path with forward slashes, as the vendor's `file_url` of local targets reads (`C:/temp/…`). */
export function forwardSlashes(file: string): string {
  return file.split(path.sep).join('/');
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
