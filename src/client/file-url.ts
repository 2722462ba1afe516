import type { Routes } from '../core/routes.js';
import type { UploadTarget } from '../core/upload-target.js';

/**
 * Makes a `file_url` absolute. Typed targets: an absolute URL is kept; a relative one (`images/<n>.<ext>`,
 * as one vendor page shows) is resolved against `{base_url}{apiRoot}/storage/`. Local targets answer with a
 * path on the server machine, which is kept as it is.
 * @param fileUrl what the server answered
 * @param target where the file went
 * @param baseUrl the server's base URL
 * @param routes the routes under the configured API root
 */
export function resolveFileUrl(fileUrl: string, target: UploadTarget, baseUrl: string, routes: Routes): string {
  if (/^https?:\/\//i.test(fileUrl)) return fileUrl;
  if (target.kind !== 'typed') return fileUrl;
  // "/TotalControl/v1/storage/…" is a path on the server; "images/…" is relative to the storage route.
  if (fileUrl.startsWith('/')) return new URL(fileUrl, `${baseUrl}/`).href;
  return new URL(fileUrl, `${baseUrl}${routes.storage}/`).href;
}
