import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { TYPED_FOLDERS } from '../core/upload-target.js';
import { sendText } from './respond.js';
import { STORED_NAME, TYPED_ROOT } from './storage-paths.js';

const FOLDERS = new Set(Object.values(TYPED_FOLDERS));
const NOT_FOUND = '{"status":null,"value":"file not found"}';
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.bmp': 'image/bmp',
  '.gif': 'image/gif',
  '.js': 'text/javascript; charset=utf-8',
  '.apk': 'application/vnd.android.package-archive',
  '.vcf': 'text/vcard',
};

/**
 * Serves a stored file of a typed target (`storage/images/<n>.<ext>`…) as a download, streamed from disk.
 * Only names the simulator could have given are looked up, so the path can never leave the storage folder.
 * @param realRoot the installation root, resolved with realpath
 * @param file the part of the path after `storage/`, as sent
 */
export async function handleDownload(req: IncomingMessage, res: ServerResponse, realRoot: string, file: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, '{"status":null,"value":"method not allowed: download with GET"}');
  const slash = file.lastIndexOf('/');
  const folder = file.slice(0, slash);
  const name = file.slice(slash + 1);
  if (slash < 0 || !FOLDERS.has(folder) || !STORED_NAME.test(name)) return sendText(res, 404, NOT_FOUND);
  const full = path.join(realRoot, TYPED_ROOT, ...folder.split('/'), name);
  let handle;
  try {
    handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return sendText(res, 404, NOT_FOUND);
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    return sendText(res, 404, NOT_FOUND);
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
    'content-length': stat.size,
    'content-disposition': `attachment; filename="${name}"`,
  });
  if (req.method === 'HEAD') {
    await handle.close();
    return void res.end();
  }
  const stream = handle.createReadStream();
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
