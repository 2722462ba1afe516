// Decoding the vendor's routes beyond the interface (docs/capabilities.md), tolerantly: the bodies its
// reference pages and public clients show, in each of their forms.
import { isDeviceId, type DeviceId } from '../core/device-id.js';
import { isObject, malformed, type Answer } from './envelope.js';

/** A phone's properties, from the vendor's `GET devices/<id>`. */
export interface DeviceInfo {
  id: DeviceId;
  /** The name the server gives it (`mobile1`), not a Playwright project's. */
  name: string;
  model: string;
  manufacturer: string;
  /** The screen, in pixels, as the server reports it now. */
  width: number;
  height: number;
  /** The Android release, e.g. `5.1.1`. */
  android: string;
}

/** The vendor's capabilities beyond the interface, as messages name them. */
export const EXTENSION_NAMES = {
  deviceList: 'the device list',
  deviceInfo: 'device properties',
  capture: 'screen capture',
  inputs: 'taps, gestures and keys through screen/inputs',
  texts: 'text through screen/texts',
  script: 'the JS bridge',
  appState: 'starting and closing apps',
  apps: 'the list of apps',
  aai: 'UI elements (sendAai)',
  ocr: 'text recognition on the phone (screen/texts with a rect)',
} as const;

/** A route beyond the interface that a server may lack. */
export type Capability = keyof typeof EXTENSION_NAMES;

/**
 * `{"ids": ["device@…", …]}` (no `status` key, or inside `value`); `[]`, `null` and `"null"` are an empty
 * lab. An id that is not one is a malformed answer.
 */
export function decodeDeviceList({ body, ctx, text }: Answer): DeviceId[] {
  const source = 'ids' in body ? body : isObject(body.value) ? body.value : body;
  const ids = source.ids;
  if (ids === null || ids === undefined || ids === 'null') return [];
  if (!Array.isArray(ids)) throw malformed(ctx, '"ids" is not a list of device ids', text);
  const bad = ids.find((id) => !isDeviceId(id));
  if (bad !== undefined) throw malformed(ctx, `"ids" holds ${JSON.stringify(bad)}, which is not a device id`, text);
  return ids as DeviceId[];
}

/** A `value` that is text (the foreground app, the clipboard); a number is taken as its text. */
export function decodeText({ body, ctx, text }: Answer, what: string): string {
  const v = body.value;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw malformed(ctx, `"value" is not ${what} as text`, text);
}

/**
 * `{"status": true, "value": {name, width, height, model, manufacturer, androidVersionRelease, …}}`; sizes
 * as numbers or numeric text (the field table and the example disagree on such types).
 * @param device the phone asked about (the answer's own `id`, when it has one, must be the same)
 */
export function decodeDeviceInfo(device: DeviceId, { body, ctx, text }: Answer): DeviceInfo {
  const v = body.value;
  if (!isObject(v)) throw malformed(ctx, '"value" is not an object of device properties', text);
  if (v.id !== undefined && v.id !== device) throw malformed(ctx, `the properties are of ${JSON.stringify(v.id)}, not ${device}`, text);
  const size = (key: string) => {
    const n = typeof v[key] === 'string' && /^\d+$/.test(v[key] as string) ? Number(v[key]) : v[key];
    if (!Number.isInteger(n) || (n as number) < 1) throw malformed(ctx, `"${key}" is not a size in pixels`, text);
    return n as number;
  };
  const textOf = (key: string) => (typeof v[key] === 'string' || typeof v[key] === 'number' ? String(v[key]) : '');
  return { id: device, name: textOf('name'), model: textOf('model'), manufacturer: textOf('manufacturer'), width: size('width'), height: size('height'), android: textOf('androidVersionRelease') };
}

/**
 * Where to download a screen capture's image, from its answer: the URL in `value` (the reference text) or in
 * `file_url` (an older client's docstring). An absolute URL is taken as given, but `localhost` in it means
 * the server's host (the vendor's server names itself so); a path starting with `/` is on the server's
 * root, another path under the server's base URL. `{"status": true}` alone is a capture saved on the phone.
 * @param baseUrl the server's base URL, e.g. `http://10.0.0.5:8090`
 */
export function decodeCaptureUrl({ body, ctx, text }: Answer, baseUrl: string): string {
  const named = typeof body.file_url === 'string' && body.file_url !== '' ? body.file_url : body.value;
  if (typeof named !== 'string' || named === '') throw malformed(ctx, 'the answer names no image in "value" or "file_url"', text);
  const base = new URL(`${baseUrl}/`);
  let url: URL;
  try {
    url = new URL(named, base);
  } catch {
    throw malformed(ctx, `the image's address ${JSON.stringify(named)} is not a URL`, text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw malformed(ctx, `the image's address ${JSON.stringify(named)} is not an http URL`, text);
  if (url.hostname === 'localhost') url.hostname = base.hostname;
  return url.href;
}
