import type { Routes } from '../core/routes.js';
import type { UploadTarget } from '../core/upload-target.js';
import type { Behaviour } from './behaviour.js';
import { forwardSlashes } from './storage-paths.js';

/** A Host header the simulator may echo into a URL: a name or address and a port, nothing else. */
const HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/;

/**
 * The `file_url` of a stored file: for typed targets the download URL, absolute (on the host the client
 * used, so it works from another machine too) or relative to `storage/` as one vendor page shows; for local
 * targets the file's path with forward slashes.
 * @param file the stored file's path on disk
 * @param name its stored name
 * @param hostHeader the request's Host header
 * @param listening where the simulator listens, for a missing or odd Host header
 */
export function fileUrlFor(target: UploadTarget, file: string, name: string, hostHeader: string | undefined, listening: { host: string; port: number }, routes: Routes, form: Behaviour['fileUrl']): string {
  if (target.kind === 'absolute') return `${target.path}${name}`;
  if (target.kind === 'local') return forwardSlashes(file);
  const relative = `${target.folder}/${name}`;
  if (form === 'relative') return relative;
  const host = hostHeader && HOST.test(hostHeader) ? hostHeader : `${listening.host.includes(':') ? `[${listening.host}]` : listening.host}:${listening.port}`;
  return `http://${host}${routes.storage}/${relative}`;
}
