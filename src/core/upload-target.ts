import { UsageError } from './errors.js';

/**
 * Where an upload goes: the name of the multipart part selects it (interface §1).
 * - `image`, `script`, `apk`, `tcbr/contacts`: typed storage, downloadable at the returned URL;
 * - `local/<folder>`: a folder under the server's installation root;
 * - `local/<absolute path>/`: an absolute directory on the server machine (note the trailing slash).
 */
export type UploadTarget =
  | { kind: 'typed'; part: TypedPart; folder: string }
  | { kind: 'local'; part: string; folder: string }
  | { kind: 'absolute'; part: string; path: string };

export type TypedPart = 'image' | 'script' | 'apk' | 'tcbr/contacts';

/** Typed part names and the storage folder each one's URL names (`storage/images/<n>.<ext>`…). */
export const TYPED_FOLDERS: Readonly<Record<TypedPart, string>> = {
  image: 'images',
  script: 'js',
  apk: 'apk',
  'tcbr/contacts': 'tcbr/contacts',
};

const ABSOLUTE = /^(?:[A-Za-z]:\/|\/)/;

/**
 * Reads an upload target (the multipart part name) and refuses what no server accepts.
 * @param value `image`, `script`, `apk`, `tcbr/contacts`, `local/<folder>` or `local/<absolute path>/`
 */
export function parseUploadTarget(value: string): UploadTarget {
  if (value in TYPED_FOLDERS) {
    const part = value as TypedPart;
    return { kind: 'typed', part, folder: TYPED_FOLDERS[part] };
  }
  const bad = (why: string) =>
    new UsageError(`invalid upload target ${JSON.stringify(value.slice(0, 200))}: ${why}`, {
      hint: 'image, script, apk, tcbr/contacts, local/<folder> or local/<absolute path>/',
    });
  if (!value.startsWith('local/')) throw bad('unknown target');
  const rest = value.slice('local/'.length);
  if (rest === '') throw bad('local/ needs a folder');
  if (/[\u0000-\u001f"<>|?*]/.test(rest) || rest.includes('\\')) throw bad('the folder holds a character a path may not hold');
  if (ABSOLUTE.test(rest)) {
    if (!rest.endsWith('/')) throw bad('an absolute folder must end with "/", e.g. local/E:/File/');
    if (rest.split('/').some((s) => s === '..' || s === '.')) throw bad('"." and ".." are not allowed in the folder');
    return { kind: 'absolute', part: value, path: rest };
  }
  const segments = rest.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw bad('the folder must stay under the installation root (no "..", ".", or empty parts)');
  if (/%[0-9a-f]{2}/i.test(rest)) throw bad('encoded characters are not allowed in the folder');
  return { kind: 'local', part: value, folder: segments.join('/') };
}
