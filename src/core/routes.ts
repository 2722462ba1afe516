import { UsageError } from './errors.js';

/** The shipping server's API root. The interface document writes it as `/Service/v1`. */
export const DEFAULT_API_ROOT = '/TotalControl/v1';

/**
 * The six operations of the interface, the download of a stored file, and the vendor's routes beyond the
 * interface that phonewright uses (docs/capabilities.md): the device list, a phone's properties, a screen
 * capture and the download of its image, acts through `screen/inputs` (taps, gestures, keys) and
 * `screen/texts` (text, the clipboard, OCR), the JS bridge (the same acts), an app's state and the phone's
 * apps, and the UI-element engine (`sendAai`).
 */
export type Operation =
  | 'login' | 'mainDevice' | 'upload' | 'notifications' | 'settings' | 'pixel' | 'download'
  | 'deviceList' | 'deviceInfo' | 'capture' | 'captureFile' | 'inputs' | 'texts' | 'script' | 'appState' | 'apps' | 'aai';

/** Every operation, in the order above. */
export const OPERATIONS: readonly Operation[] = [
  'login', 'mainDevice', 'upload', 'notifications', 'settings', 'pixel', 'download',
  'deviceList', 'deviceInfo', 'capture', 'captureFile', 'inputs', 'texts', 'script', 'appState', 'apps', 'aai',
];

/** The operations beyond the interface: a server with the interface only (the simulator's `seed`) lacks them. */
export const EXTENSION_OPERATIONS: readonly Operation[] = ['deviceList', 'deviceInfo', 'capture', 'captureFile', 'inputs', 'texts', 'script', 'appState', 'apps', 'aai'];

/** The paths of the interface under one API root. The only place a route is written. */
export interface Routes {
  readonly apiRoot: string;
  readonly login: string;
  readonly mainDevice: string;
  readonly storage: string;
  readonly notifications: string;
  /** The vendor's device list, `GET devices?q=all`: beyond the interface. */
  readonly devices: string;
  settings(device: string): string;
  pixel(device: string): string;
  /** A phone's properties, `GET devices/<id>`: beyond the interface. */
  device(device: string): string;
  /** A capture of a phone's screen, `GET devices/<id>/screen/images`: beyond the interface. */
  capture(device: string): string;
  /** Acts, `POST devices/<id>/screen/inputs` (`x`, `y`, `state`; `code`; `coord`): beyond the interface. */
  inputs(device: string): string;
  /** Text, `POST devices/<id>/screen/texts` (`text`; `GET` with `type=clipboard_text` reads the clipboard): beyond the interface. */
  texts(device: string): string;
  /** The JS bridge, `POST devices/<id>/scripts?cmd=…&param=…` (taps, gestures, keys, text): beyond the interface. */
  script(device: string): string;
  /** An app's state, `POST devices/<id>/apps/<package>?state=…`: beyond the interface. */
  app(device: string, pkg: string): string;
  /** The phone's apps, `GET devices/<id>/apps?q=foreground_app|installed_apk_list`: beyond the interface. */
  apps(device: string): string;
  /** The vendor's UI-element engine, `POST devices/<id>/sendAai` (`params`: a FindNode query and its action): beyond the interface. */
  aai(device: string): string;
}

/** A request path recognized as one of the operations. */
export type RouteMatch =
  | { op: 'login' | 'mainDevice' | 'upload' | 'notifications' | 'deviceList' }
  | { op: 'settings' | 'pixel' | 'deviceInfo' | 'capture' | 'script' | 'inputs' | 'texts' | 'apps' | 'aai'; device: string }
  | { op: 'appState'; device: string; app: string }
  | { op: 'download' | 'captureFile'; file: string };

/**
 * Where the simulator keeps the images of its screen captures, under the server's root as in the vendor's
 * example (`http://localhost:8090/867924024124417/1523049073460.bmp`): `/<digits>/<digits>.<png|jpg|bmp>`.
 */
export const CAPTURE_FILE = /^\/(\d{1,20}\/\d{1,20}\.(?:png|jpg|bmp))$/;

/**
 * Checks an API root given by a user: starts with `/`, no trailing `/`, no query.
 * @param value e.g. `/TotalControl/v1` or `/Service/v1`
 */
export function normalizeApiRoot(value: string = DEFAULT_API_ROOT): string {
  const v = value.trim().replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(v)) {
    throw new UsageError(`invalid API root ${JSON.stringify(value)}: expected a path such as ${DEFAULT_API_ROOT}`);
  }
  return v;
}

/** The routes of the interface under `apiRoot`. */
export function routesFor(apiRoot: string = DEFAULT_API_ROOT): Routes {
  const root = normalizeApiRoot(apiRoot);
  return {
    apiRoot: root,
    login: `${root}/login`,
    mainDevice: `${root}/devices/main`,
    storage: `${root}/storage`,
    notifications: `${root}/notifications`,
    devices: `${root}/devices`,
    // Ids are validated before they get here; the vendor's examples carry the `@` unencoded.
    settings: (device) => `${root}/devices/${device}/settings`,
    pixel: (device) => `${root}/devices/${device}/screen/colors`,
    device: (device) => `${root}/devices/${device}`,
    capture: (device) => `${root}/devices/${device}/screen/images`,
    inputs: (device) => `${root}/devices/${device}/screen/inputs`,
    texts: (device) => `${root}/devices/${device}/screen/texts`,
    script: (device) => `${root}/devices/${device}/scripts`,
    apps: (device) => `${root}/devices/${device}/apps`,
    aai: (device) => `${root}/devices/${device}/sendAai`,
    // Package names are validated before they get here (letters, digits, `_` and dots).
    app: (device, pkg) => `${root}/devices/${device}/apps/${pkg}`,
  };
}

/**
 * Recognizes a request path (without query) as an operation of `routes`, or returns undefined.
 * `POST storage` is an upload; `GET storage/<...>` is the download of a stored file. A route of the vendor's
 * recognized with another method than its own is undefined too (a GET of `screen/inputs` is no route).
 */
export function matchRoute(routes: Routes, method: string, pathname: string): RouteMatch | undefined {
  if (pathname === routes.login) return { op: 'login' };
  if (pathname === routes.mainDevice) return { op: 'mainDevice' };
  if (pathname === routes.notifications) return { op: 'notifications' };
  if (pathname === routes.storage) return method === 'POST' ? { op: 'upload' } : undefined;
  if (pathname.startsWith(`${routes.storage}/`)) return { op: 'download', file: pathname.slice(routes.storage.length + 1) };
  if (pathname === routes.devices) return method === 'GET' ? { op: 'deviceList' } : undefined;
  const file = CAPTURE_FILE.exec(pathname);
  if (file) return method === 'GET' ? { op: 'captureFile', file: file[1]! } : undefined;
  const devices = `${routes.devices}/`;
  if (!pathname.startsWith(devices)) return undefined;
  const rest = pathname.slice(devices.length);
  const slash = rest.indexOf('/');
  if (slash === 0) return undefined;
  const tail = slash < 0 ? '' : rest.slice(slash);
  let device: string;
  try {
    device = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
  } catch {
    return undefined;
  }
  if (tail === '') return method === 'GET' ? { op: 'deviceInfo', device } : undefined;
  if (tail === '/settings') return { op: 'settings', device };
  if (tail === '/screen/colors') return { op: 'pixel', device };
  if (tail === '/screen/images') return method === 'GET' ? { op: 'capture', device } : undefined;
  if (tail === '/scripts') return method === 'POST' ? { op: 'script', device } : undefined;
  if (tail === '/screen/inputs') return method === 'POST' ? { op: 'inputs', device } : undefined;
  // Text is typed with a POST or a GET (`?text=`); a GET also reads the clipboard (`?type=clipboard_text`).
  if (tail === '/screen/texts') return method === 'POST' || method === 'GET' ? { op: 'texts', device } : undefined;
  if (tail === '/apps') return method === 'GET' ? { op: 'apps', device } : undefined;
  if (tail === '/sendAai') return method === 'POST' ? { op: 'aai', device } : undefined;
  const app = /^\/apps\/([A-Za-z0-9_.]{1,255})$/.exec(tail);
  if (app) return method === 'POST' ? { op: 'appState', device, app: app[1]! } : undefined;
  return undefined;
}
