import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';

/** A multipart/form-data body with one file part, streamed from disk: never whole in memory. */
export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh stream of the body; `onBytes` is told how many file bytes went out so far. */
  open(onBytes?: (sent: number) => void, signal?: AbortSignal): AsyncIterable<Buffer>;
}

/** Read size for the file: large enough that a 1 GiB upload is ~1,000 chunks, small enough to stay lean. */
const CHUNK = 1024 * 1024;

/**
 * Describes the multipart body of an upload whose part name selects the storage target (interface §1).
 * @param file the file on disk
 * @param size its size in bytes (from a stat just before)
 * @param partName `image`, `script`, `apk`, `tcbr/contacts`, `local/<folder>`…
 */
export function multipartFile(file: string, size: number, partName: string): MultipartBody {
  const boundary = `----phonewright${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${escapeQuoted(partName)}"; filename="${escapeQuoted(path.basename(file))}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    async *open(onBytes, signal) {
      yield head;
      let sent = 0;
      const stream = createReadStream(file, { highWaterMark: CHUNK, ...(signal ? { signal } : {}) });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        sent += chunk.length;
        // The Content-Length was promised from the stat; a file still being written would break it.
        if (sent > size) throw new Error(`${file} grew while it was being uploaded; upload it once it is complete`);
        onBytes?.(sent);
        yield chunk;
      }
      if (sent !== size) throw new Error(`${file} shrank while it was being uploaded; upload it once it is complete`);
      yield tail;
    },
  };
}

/** Escapes a value for a quoted multipart header parameter, the way browsers do (WHATWG HTML, "multipart/form-data"). */
function escapeQuoted(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/** The size of a file about to be uploaded; a clear UsageError when it is missing, unreadable, not a file or empty. */
export async function readableFileSize(file: string): Promise<number> {
  let info;
  try {
    info = await stat(file);
    await access(file, constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`file not found: ${file}`, { hint: 'check the path (relative paths start from the working folder)' });
    if (code === 'EACCES') throw new UsageError(`file cannot be read (permission denied): ${file}`);
    throw new UsageError(`file cannot be read (${code}): ${file}`, { cause: e });
  }
  if (!info.isFile()) throw new UsageError(`not a regular file: ${file}`, { hint: 'upload one file at a time' });
  if (info.size === 0) throw new UsageError(`file is empty: ${file}`, { hint: 'the server refuses empty uploads' });
  return info.size;
}
