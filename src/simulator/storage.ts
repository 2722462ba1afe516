import type { IncomingMessage, ServerResponse } from 'node:http';
import { unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';
import { parseUploadTarget, type UploadTarget } from '../core/upload-target.js';
import { sendFailure, sendJson } from './respond.js';
import { createStoredFile, storedExtension, targetFolder, UploadRefused, type NameAllocator } from './storage-paths.js';

/** What an upload needs from the simulator. */
export interface UploadContext {
  /** The installation root, resolved with realpath. */
  realRoot: string;
  allowAbsolute: boolean;
  maxBytes: number;
  names: NameAllocator;
  now: () => number;
  /** The `file_url` to answer for a stored file. */
  fileUrl(target: UploadTarget, file: string, name: string, req: IncomingMessage): string;
  /** Uploads in progress; the simulator aborts them when it closes. */
  active: Set<() => void>;
}

const HINT = 'send the file as a multipart/form-data part named image, script, apk, tcbr/contacts or local/<folder>';
/**
 * Bytes the file may buffer while a write to disk is in flight. Node's default (16 KiB) is less than one
 * socket read, so every chunk paused the socket until the disk write came back from the thread pool: reads
 * and writes took turns (strace: ~33,000 writes, 75,000 futex calls and 20,000 epoll_ctl per GiB). With
 * 1 MiB the socket keeps reading while the disk writes, buffered chunks go out in one writev, and memory
 * stays bounded by this much per upload.
 */
const FILE_BUFFER = 1024 * 1024;

/**
 * Stores the first file part of a multipart upload, streamed to disk with backpressure (a slow disk slows
 * the client instead of filling memory). Every failure answers HTTP 200 `{"status": null, "value": …}`,
 * removes what was written, and closes the connection after the answer since the rest of the body is
 * discarded unread.
 */
export function handleUpload(req: IncomingMessage, res: ServerResponse, ctx: UploadContext): void {
  const type = req.headers['content-type'];
  if (typeof type !== 'string' || !/^multipart\/form-data/i.test(type)) {
    req.resume();
    return sendFailure(res, `the body is not multipart/form-data; ${HINT}`, true);
  }
  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({
      headers: req.headers as BusboyHeaders,
      // One file; a few small fields tolerated; limits keep a hostile body from growing memory.
      limits: { fileSize: ctx.maxBytes, files: 1, fields: 100, fieldSize: 64 * 1024, parts: 200, headerPairs: 100 },
    });
  } catch (e) {
    req.resume();
    return sendFailure(res, `malformed multipart request: ${(e as Error).message}; ${HINT}`, true);
  }

  let settled = false;
  let partial: string | undefined;
  let writer: NodeJS.WritableStream & { destroy(): void } | undefined;
  let sawFile = false;
  let parsed = false;
  let stored: string | undefined;

  const cleanup = async () => {
    writer?.destroy();
    const file = partial;
    partial = undefined;
    if (file) await unlink(file).catch(() => undefined);
  };
  const abort = () => {
    if (settled) return;
    settled = true;
    ctx.active.delete(abort);
    req.unpipe(busboy);
    void cleanup();
  };
  /** The file part being stored; a failure answers once it has settled, its file removed. */
  let storing: Promise<void> | undefined;
  const fail = (message: string) => {
    if (settled) return;
    settled = true;
    ctx.active.delete(abort);
    req.unpipe(busboy);
    req.resume();
    // A body cut short while its file was still being created: that file is made, then removed, after this
    // moment. The answer waits for it, so a client told "nothing stored" finds nothing (a stopped writer
    // ends the store at once).
    writer?.destroy();
    void Promise.resolve(storing)
      .then(cleanup)
      .then(() => sendFailure(res, message, true));
  };
  const maybeDone = () => {
    if (settled || !parsed) return;
    if (!sawFile) return fail(`no file part in the upload; ${HINT}`);
    if (stored === undefined) return;
    settled = true;
    ctx.active.delete(abort);
    partial = undefined;
    sendJson(res, { status: true, file_url: stored });
  };
  ctx.active.add(abort);

  busboy.on('file', (field: string, stream: BusboyFileStream, filename: string) => {
    if (sawFile || settled) return void stream.resume();
    sawFile = true;
    let target: UploadTarget;
    try {
      target = parseUploadTarget(field);
    } catch (e) {
      stream.resume();
      return fail((e as Error).message);
    }
    stream.on('limit', () => fail(`the file is larger than this server's limit of ${ctx.maxBytes} bytes`));
    // Listened to at once: the part can break (a body cut short) before the file is open on disk.
    stream.on('error', (e: Error) => fail(`malformed multipart body: ${e.message}; ${HINT}`));
    storing = store(stream, target, filename).catch((e: unknown) => {
      stream.resume();
      fail(e instanceof UploadRefused ? e.message : `the file could not be stored (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    });
  });
  busboy.on('finish', () => {
    parsed = true;
    maybeDone();
  });
  busboy.on('error', (e: unknown) => fail(`malformed multipart body: ${(e as Error).message}; ${HINT}`));
  req.on('error', abort);
  req.on('close', () => {
    // The client went away before the whole body arrived: nothing to answer, the partial file goes.
    if (!req.complete) abort();
  });
  req.pipe(busboy);

  async function store(stream: BusboyFileStream, target: UploadTarget, filename: string): Promise<void> {
    const folder = await targetFolder(ctx.realRoot, target, ctx.allowAbsolute);
    const { handle, file, name } = await createStoredFile(folder, storedExtension(filename), ctx.names, ctx.now);
    partial = file;
    if (settled) return void (await cleanup(), await handle.close());
    const out = handle.createWriteStream({ highWaterMark: FILE_BUFFER });
    writer = out;
    await pipeline(stream, out);
    if (settled) return;
    if (stream.truncated) return fail(`the file is larger than this server's limit of ${ctx.maxBytes} bytes`);
    if (out.bytesWritten === 0) return fail(`the file ${JSON.stringify(filename ?? '')} is empty; nothing was stored`);
    stored = ctx.fileUrl(target, file, name, req);
    maybeDone();
  }
}
