import { Readable } from 'node:stream';
import type { Rgb } from '../core/color.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../core/defaults.js';
import { parseDeviceId, isDeviceId, type DeviceId } from '../core/device-id.js';
import { AbortedError, AuthError, ServiceError, UsageError, isPhonewrightError } from '../core/errors.js';
import { decodeNotification, MAX_NOTIFICATION_COUNT, type Notification, type NotificationQuery } from '../core/notifications.js';
import { REDACTED } from '../core/redact.js';
import { routesFor, type Routes } from '../core/routes.js';
import { decodeSettings, formatResolution, type DisplaySettings } from '../core/settings.js';
import { parseUploadTarget } from '../core/upload-target.js';
import { decodePixel, failure, isObject, malformed, readEnvelope, TokenRejected, type DecodeContext, type Envelope } from './envelope.js';
import { multipartFile, readableFileSize } from './multipart.js';
import { Session } from './session.js';
import { Transport, type Reply, type TransportOptions } from './transport.js';
import { resolveFileUrl } from './file-url.js';

/** How to reach and log in to one device-control server. */
export interface ClientOptions extends TransportOptions {
  /** The server's base URL, e.g. `http://10.0.0.5:8090`. */
  url: string;
  /** @default 'sigma' (the vendor documentation's example, which the simulator accepts) */
  user?: string;
  /** @default '3D391497' */
  password?: string;
  /** @default '/TotalControl/v1' */
  apiRoot?: string;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** A pixel's colour as the server gives it, `rgb` printed as `0xrrggbb`. */
export interface Pixel extends Rgb {
  rgb: string;
}

/** Options of an upload. */
export interface UploadOptions extends CallOptions {
  /** Told the bytes of the file sent so far, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * How long a token probe's "valid" holds: a `{"status": false}` answer is ambiguous (a failed read, or a
 * rejected token in one of the field notes' shapes), and the probe that tells them apart is not repeated
 * more often than this.
 */
const PROBE_VALID_MS = 1_000;
/**
 * A token refused within this long of its login was refused, not expired: no server gives tokens so short a
 * life. One refused later may have expired while the call waited (a slow server, retries), so the call logs in
 * again, up to {@link MAX_RENEWALS} times.
 */
const FRESH_TOKEN_MS = 1_000;
/** Logins one call may cause when its tokens keep expiring under it; bounded, so a broken server cannot loop it. */
const MAX_RENEWALS = 3;
/** A quoted JSON string, and the colon after it when it is a key. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"(\s*:)?/g;
/** Coordinates beyond this are refused before any call: no phone screen is that large. */
const MAX_COORDINATE = 100_000;

/**
 * The client of one device-control server: the six operations of the interface over one keep-alive pool,
 * with a lazily fetched, shared, self-renewing token, retries of transient failures on reads, strict
 * decoding, and secrets redacted from every message.
 */
export class DeviceClient {
  readonly url: string;
  readonly user: string;
  readonly routes: Routes;
  #password: string;
  #authorization: string;
  #transport: Transport;
  #session: Session;

  constructor(options: ClientOptions) {
    this.user = options.user ?? DEFAULT_USER;
    this.#password = options.password ?? DEFAULT_PASSWORD;
    if (this.user.includes(':')) throw new UsageError('the user name may not contain ":" (the login header joins user and password with it)');
    this.#authorization = Buffer.from(`${this.user}:${this.#password}`).toString('base64');
    this.routes = routesFor(options.apiRoot);
    this.#transport = new Transport(checkUrl(options.url), options, () => this.secrets());
    this.url = this.#transport.origin + this.#transport.basePath;
    this.#session = new Session(() => this.#fetchToken());
  }

  /** The secrets this client holds, for anyone printing something it said: token, password, login header. */
  secrets(): string[] {
    const out = [this.#password, this.#authorization, ...this.#session.issued];
    return out;
  }

  /** Scrubs this client's secrets from a text. */
  clean(text: string): string {
    return this.#transport.clean(text);
  }

  /** Logs in (if not yet) and returns the token. Concurrent callers share one login. */
  login(): Promise<string> {
    return this.#session.token();
  }

  /** The id of the server's current main device. */
  async mainDevice(options: CallOptions = {}): Promise<DeviceId> {
    return this.#authed('main-device', (t) => `${this.routes.mainDevice}?token=${t}`, options, (env, ctx, text) => {
      const source = env.status === true && isObject(env.body.value) && !('id' in env.body) ? env.body.value : env.body;
      if (env.status === true && isDeviceId(source.id)) return source.id;
      if (env.status === true) throw malformed(ctx, 'the answer has no device id in "id"', text);
      throw failure(ctx, env);
    }, true);
  }

  /**
   * Reads one pixel's colour.
   * @param device the phone
   * @param x column, from the left edge
   * @param y row, from the top edge
   */
  async pixel(device: string, x: number, y: number, options: CallOptions = {}): Promise<Pixel> {
    const id = parseDeviceId(device);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    const route = this.routes.pixel(id);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#authed('pixel', (t) => `${route}?token=${t}&q=color&x=${x}&y=${y}`, options, (env, ctx, text) => {
          if (env.status === true) return decodePixel(env.body.value, ctx, text);
          throw failure(ctx, env);
        });
      } catch (error) {
        if (!isPhonewrightError(error, 'PW_SERVICE')) throw error;
        const why = await this.#explainPixelFailure(id, x, y, error as ServiceError, options);
        // A bare false from a phone that is there, at a point on its screen, has no cause left to name: the
        // phone may have reconnected between the two reads. It is read once more before it counts as a failure.
        if (!why.unexplained || attempt > 1) throw why.error;
      }
    }
  }

  /** Reads a phone's display settings, normalized (both wire forms of the field notes are accepted). */
  async settings(device: string, options: CallOptions = {}): Promise<DisplaySettings> {
    const id = parseDeviceId(device);
    const route = this.routes.settings(id);
    return this.#authed('settings', (t) => `${route}?token=${t}`, options, (env, ctx, text) => {
      if (env.status !== true) throw failure(ctx, env, id);
      try {
        return decodeSettings(env.body.value);
      } catch (e) {
        throw malformed(ctx, (e as Error).message, text);
      }
    });
  }

  /**
   * Reads notification-bar messages. `count` is always sent; array filters go on the wire as `["a","b"]`.
   * A `position` past the end reads as an empty list, whichever of the two shapes the server uses.
   */
  async notifications(query: NotificationQuery, options: CallOptions = {}): Promise<Notification[]> {
    const wire = notificationParams(query);
    try {
      return await this.#authed('notifications', (t) => `${this.routes.notifications}?token=${t}${wire}`, options, (env, ctx, text) => {
        if (env.status !== true) throw failure(ctx, env);
        const value = env.body.value;
        if (!Array.isArray(value)) throw malformed(ctx, '"value" is not an array of notifications', text);
        try {
          return value.map(decodeNotification);
        } catch (e) {
          throw malformed(ctx, (e as Error).message, text);
        }
      });
    } catch (error) {
      // `{"status": false}` is "position past the end" in one server variant (field notes): nothing new. It is
      // also a rejected token in another, so it counts as "nothing new" only once the token probe passed.
      if (error instanceof ServiceError && error.ambiguousFalse) return [];
      throw error;
    }
  }

  /**
   * Uploads a file, streamed from disk, to a storage target. Returns where the server stored it: an
   * absolute URL for the typed targets (a relative answer is resolved), a server path for `local/…`.
   * @param file path of the file to send
   * @param target `image`, `script`, `apk`, `tcbr/contacts`, `local/<folder>` or `local/<absolute path>/`
   */
  async upload(file: string, target: string, options: UploadOptions = {}): Promise<{ fileUrl: string }> {
    const parsed = parseUploadTarget(target);
    const size = await readableFileSize(file);
    const body = multipartFile(file, size, parsed.part);
    const onBytes = options.onProgress && ((sent: number) => options.onProgress!(sent, size));
    const fileUrl = await this.#authed<string>('upload', (t) => `${this.routes.storage}?token=${t}`, options, (env, ctx, text) => {
      if (env.status !== true) throw failure(ctx, env);
      const url = env.body.file_url;
      if (typeof url !== 'string' || url === '') throw malformed(ctx, 'the answer has no "file_url"', text);
      return resolveFileUrl(url, parsed, this.url, this.routes);
    }, false, {
      method: 'POST',
      headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
      body: () => Readable.from(body.open(onBytes, options.signal), { objectMode: false }),
      retryRefused: true,
      // Undici starts the headers timeout when the body is sent; the server may take a while to store it.
      headersTimeout: 120_000,
      unbounded: true,
    });
    return { fileUrl };
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /**
   * Runs an operation with the token; when the server rejects the token, logs in again and repeats. A token
   * refused right after its login means the server refuses this user's tokens: an AuthError, after one renewal.
   * `{"status": false}` is ambiguous, so the token is probed (at most once a second) before it counts as
   * the operation's own failure.
   */
  async #authed<T>(
    operation: string,
    path: (token: string) => string,
    options: CallOptions,
    decode: (env: Envelope, ctx: DecodeContext, text: string) => T,
    statusOptional = false,
    send: Partial<Parameters<Transport['send']>[2]> = {},
  ): Promise<T> {
    let token = await unlessAborted(() => this.#session.token(), options.signal, operation);
    for (let renewals = 0; ; renewals++) {
      const p = path(encodeURIComponent(token));
      const ctx = this.#context(operation, send.method ?? 'GET', p);
      try {
        return await this.#transport.send(operation, p, { idempotent: send.method !== 'POST', signal: options.signal, ...send }, (reply: Reply) => {
          const env = readEnvelope(reply, ctx, statusOptional);
          if (env.status === null && /token/i.test(env.message)) throw new TokenRejected(this.user, `${operation}: the server refused the token ("${ctx.clean(env.message)}")`);
          return decode(env, ctx, reply.text);
        });
      } catch (error) {
        let rejected = error instanceof TokenRejected;
        if (!rejected && error instanceof ServiceError && error.ambiguousFalse) rejected = !(await this.#tokenStillValid(token));
        if (!rejected) throw error;
        // Refused soon after its login (or renewed too often): logging in again would not help.
        const fresh = this.#session.age(token) < FRESH_TOKEN_MS;
        if (renewals > 0 && (fresh || renewals >= MAX_RENEWALS)) {
          const what = fresh ? 'a freshly issued token' : `${renewals + 1} tokens in a row`;
          throw new AuthError(this.user, `${operation}: the server rejected ${what} for user "${this.user}": ${ctx.request}`, {
            hint: 'check the server\'s token settings, and that this user may use the API',
            cause: error,
          });
        }
        token = await unlessAborted(() => this.#session.renew(token), options.signal, operation);
      }
    }
  }

  /** Asks the server whether `token` still works, with the cheapest call there is. */
  #tokenStillValid(token: string): Promise<boolean> {
    return this.#session.verify(token, PROBE_VALID_MS, () => {
      const p = `${this.routes.mainDevice}?token=${encodeURIComponent(token)}`;
      const ctx = this.#context('token check', 'GET', p);
      return this.#transport.send('token check', p, { idempotent: true }, (reply) => {
        if (reply.status === 401) return false;
        const env = readEnvelope(reply, ctx, true);
        return env.status === true && isDeviceId(env.body.id);
      });
    });
  }

  async #fetchToken(): Promise<string> {
    const base = this.#context('login', 'GET', this.routes.login);
    // A login answer carries a token whatever its shape (one with no "status" too): no string value of it is
    // shown in an error, where a token not yet known to the client could not be redacted.
    const ctx: DecodeContext = { ...base, request: base.request, clean: (text) => base.clean(text).replace(JSON_STRING, (m, key?: string) => (key ? m : `"${REDACTED}"`)) };
    return this.#transport.send('login', this.routes.login, { idempotent: true, headers: { authorization: this.#authorization } }, (reply) => {
      const refused = (why: string) =>
        new AuthError(this.user, `login refused for user "${this.user}" at ${this.url}: ${why}`, {
          hint: 'check the user and password (--user/--password, or PHONEWRIGHT_USER/PHONEWRIGHT_PASSWORD)',
        });
      if (reply.status === 401 || reply.status === 403) throw refused(`HTTP ${reply.status}`);
      const env = readEnvelope(reply, ctx);
      if (env.status === false) throw refused('the server answered {"status": false}');
      if (env.status === null) throw refused(env.message ? `the server said "${ctx.clean(env.message)}"` : 'the server answered {"status": null}');
      const token = isObject(env.body.value) ? env.body.value.token : undefined;
      if (typeof token !== 'string' || token === '') {
        // The answer says it succeeded, so it may well carry the token elsewhere: its strings are not shown.
        const shape = JSON.stringify(env.body, (_key, v: unknown) => (typeof v === 'string' ? REDACTED : v));
        throw malformed(ctx, 'the login answer has no "value.token"', shape);
      }
      return token;
    });
  }

  /**
   * After a failed pixel read, finds out why: an unknown or offline phone, or a point off its screen.
   * `unexplained` when the phone is there and the point on its screen.
   */
  async #explainPixelFailure(device: DeviceId, x: number, y: number, error: ServiceError, options: CallOptions): Promise<{ error: ServiceError; unexplained?: true }> {
    if (!error.ambiguousFalse) return { error };
    let size: string;
    try {
      const settings = await this.settings(device, options);
      const { w, h } = settings.display_resolution;
      size = formatResolution(settings.display_resolution);
      if (x >= w || y >= h) {
        const outside = new ServiceError('pixel', `pixel (${x}, ${y}) is outside the screen of ${device} (${w}×${h})`, {
          hint: `x from 0 to ${w - 1}, y from 0 to ${h - 1}`,
          serverMessage: error.serverMessage,
          outsideScreen: true,
        });
        return { error: outside };
      }
    } catch (e) {
      if (e instanceof ServiceError && e.deviceMissing) {
        const missing = new ServiceError('pixel', `pixel (${x}, ${y}): ${device} is unknown to the server or offline ("${e.serverMessage ?? ''}")`, {
          hint: 'check the id (phonewright main-device) and that the phone is connected',
          deviceMissing: true,
        });
        return { error: missing };
      }
      return { error };
    }
    const unexplained = new ServiceError('pixel', `pixel (${x}, ${y}) on ${device} (${size}) failed: the server answered {"status": false}`, {
      hint: 'check that the phone is connected and its screen is shared',
    });
    return { error: unexplained, unexplained: true };
  }

  #context(operation: string, method: string, path: string): DecodeContext {
    const transport = this.#transport;
    let described: string | undefined;
    return {
      operation,
      user: this.user,
      get request() {
        return (described ??= transport.describe(method, path));
      },
      clean: (text) => transport.clean(text),
    };
  }
}

/**
 * Waits for the shared login on behalf of one call: an abort ends this call's wait at once, and leaves the
 * login to the other calls that share it.
 */
function unlessAborted<T>(wait: () => Promise<T>, signal: AbortSignal | undefined, operation: string): Promise<T> {
  if (!signal) return wait();
  const aborted = () => new AbortedError(`${operation} aborted while logging in`);
  if (signal.aborted) return Promise.reject(aborted());
  const shared = wait();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function notificationParams(query: NotificationQuery): string {
  const { position, count } = query;
  if (!Number.isInteger(position) || position < 1) throw new UsageError(`invalid position ${String(position)}: expected an integer ≥ 1 (the interface's minimum)`);
  if (!Number.isInteger(count) || count < 1 || count > MAX_NOTIFICATION_COUNT) {
    throw new UsageError(`invalid count ${String(count)}: expected an integer from 1 to ${MAX_NOTIFICATION_COUNT}`);
  }
  let out = `&position=${position}&count=${count}`;
  for (const key of ['device', 'app', 'match'] as const) {
    const list = query[key];
    if (list === undefined || list.length === 0) continue;
    if (key === 'device') list.forEach((d) => parseDeviceId(d));
    // One value goes as a plain string, several as the interface's bracketed list of quoted strings.
    out += `&${key}=${encodeURIComponent(list.length === 1 ? list[0]! : JSON.stringify(list))}`;
  }
  return out;
}

function checkUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`invalid server URL ${JSON.stringify(url.slice(0, 100))}`, { hint: 'http://<server ip>:8090' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`invalid server URL: ${u.protocol} is not http: or https:`);
  if (u.username || u.password) throw new UsageError('invalid server URL: credentials do not belong in it', { hint: 'use --user and --password' });
  return url;
}

function checkCoordinate(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_COORDINATE) {
    throw new UsageError(`invalid ${name} coordinate ${String(value)}: expected a whole number from 0 to ${MAX_COORDINATE}`);
  }
}

