import { Readable } from 'node:stream';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../core/defaults.js';
import { parseDeviceId, isDeviceId, type DeviceId } from '../core/device-id.js';
import { isPhonewrightError, ServiceError, UsageError } from '../core/errors.js';
import { decodeNotification, type Notification, type NotificationQuery } from '../core/notifications.js';
import { routesFor, type Routes } from '../core/routes.js';
import { decodeSettings, formatResolution, type DisplaySettings } from '../core/settings.js';
import { parseUploadTarget } from '../core/upload-target.js';
import { Caller, type CallOptions } from './caller.js';
import { decodePixel, isObject, malformed, type Pixel } from './envelope.js';
import type { RetryOptions } from './resilience.js';
import { Transport, type TransportOptions } from './transport.js';
import { checkKey, type Point } from './act-forms.js';
import { Acts, type ActRoute, type AppState } from './acts.js';
import { Extensions, type Capture, type CaptureImage, type CaptureRect } from './extensions.js';
import type { DeviceInfo } from './vendor.js';
import { checkCoordinate, checkUrl, notificationParams } from './wire.js';

/** How to reach and log in to one device-control server, and how hard to try. */
export interface ClientOptions extends TransportOptions, RetryOptions {
  /** The server's base URL, e.g. `http://10.0.0.5:8090`. */
  url: string;
  /** @default 'sigma' (the vendor documentation's example, which the simulator accepts) */
  user?: string;
  /** @default '3D391497' */
  password?: string;
  /** @default '/TotalControl/v1' */
  apiRoot?: string;
  /**
   * Longest time one call may take, retries and pauses included, when its caller gives it no deadline (ms).
   * @default 30_000
   */
  totalTimeout?: number;
}

/** Options of an upload. */
export interface UploadOptions extends CallOptions {
  /** Told the bytes of the file sent so far, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
}

export type { ActRoute, AppState, CallOptions, Capture, CaptureImage, CaptureRect, DeviceInfo, Pixel };
const DEFAULT_TOTAL_TIMEOUT = 30_000;

/**
 * The client of one device-control server: the six operations of the interface over one keep-alive pool, with
 * a lazily fetched, shared, self-renewing token, the resilience policy around every call, strict decoding, and
 * secrets redacted from every message.
 */
export class DeviceClient {
  readonly url: string;
  readonly user: string;
  readonly routes: Routes;
  #password: string;
  #authorization: string;
  #transport: Transport;
  #caller: Caller;
  /** The vendor's routes beyond the interface, each probed on first use (acts: {@link Acts}). */
  readonly extensions: Extensions;
  #acts: Acts;

  constructor(options: ClientOptions) {
    this.user = options.user ?? DEFAULT_USER;
    this.#password = options.password ?? DEFAULT_PASSWORD;
    if (this.user.includes(':')) throw new UsageError('the user name may not contain ":" (the login header joins user and password with it)');
    this.#authorization = Buffer.from(`${this.user}:${this.#password}`).toString('base64');
    this.routes = routesFor(options.apiRoot);
    this.#transport = new Transport(checkUrl(options.url), options, () => this.secrets());
    this.url = this.#transport.origin + this.#transport.basePath;
    this.#caller = new Caller({
      transport: this.#transport,
      user: this.user,
      authorization: this.#authorization,
      url: this.url,
      loginPath: this.routes.login,
      loginHint: options.sources?.password && `check the user (from ${options.sources.user ?? '--user or PHONEWRIGHT_USER'}) and the password (from ${options.sources.password})`,
      probePath: (token) => `${this.routes.mainDevice}?token=${token}`,
      retry: options,
      totalTimeout: options.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT,
    });
    // A route beyond the interface is weighed against the phone's settings read, the device list against the main device.
    this.extensions = new Extensions(this.#caller, this.routes, this.url, (device, o) => (device ? this.settings(device, o) : this.mainDevice(o)));
    this.#acts = new Acts(this.extensions, this.routes, this.url);
  }

  /** The secrets this client holds, for anyone printing something it said: token, password, login header. */
  secrets(): string[] {
    return [this.#password, this.#authorization, ...this.#caller.tokens];
  }

  /** Scrubs this client's secrets from a text. */
  clean(text: string): string {
    return this.#transport.clean(text);
  }

  /** Logs in (if not yet) and returns the token. Concurrent callers share one login. */
  login(): Promise<string> {
    return this.#caller.token();
  }

  /** The id of the server's current main device. */
  mainDevice(options: CallOptions = {}): Promise<DeviceId> {
    return this.#caller.call(options, { operation: 'main-device', path: (t) => `${this.routes.mainDevice}?token=${t}`, statusOptional: true }).then(({ body, ctx, text }) => {
      const source = isObject(body.value) && !('id' in body) ? body.value : body;
      if (isDeviceId(source.id)) return source.id;
      throw malformed(ctx, 'the answer has no device id in "id"', text);
    });
  }

  /**
   * Reads one pixel's colour. A `{"status": false}` is explained before the policy sees it: an unknown or
   * offline phone, a point off its screen, or (neither) a failure with no cause left to name. Then, as every
   * operation here: one call under the policy, and the answer decoded.
   * @param device the phone
   * @param x column, from the left edge
   * @param y row, from the top edge
   */
  pixel(device: string, x: number, y: number, options: CallOptions = {}): Promise<Pixel> {
    const id = parseDeviceId(device);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    const route = this.routes.pixel(id);
    return this.#caller
      .call(options, {
        operation: 'pixel',
        path: (t) => `${route}?token=${t}&q=color&x=${x}&y=${y}`,
        explainBareFalse: (error, deadline) => this.#explainPixelFailure(id, x, y, error, { ...options, deadline }),
      })
      .then(({ body, ctx, text }) => decodePixel(body.value, ctx, text));
  }

  /** Reads a phone's display settings, normalized (both wire forms servers use are accepted). */
  settings(device: string, options: CallOptions = {}): Promise<DisplaySettings> {
    const id = parseDeviceId(device);
    const route = this.routes.settings(id);
    return this.#caller.call(options, { operation: 'settings', path: (t) => `${route}?token=${t}`, device: id }).then(({ body, ctx, text }) => {
      let settings: DisplaySettings;
      try {
        settings = decodeSettings(body.value);
      } catch (e) {
        throw malformed(ctx, (e as Error).message, text);
      }
      const { w, h } = settings.display_resolution;
      this.extensions.screens.learn(id, w, h);
      return settings;
    });
  }

  /**
   * Reads notification-bar messages. `count` is always sent; array filters go on the wire as `["a","b"]`.
   * A `position` past the end reads as an empty list, whichever of the two shapes the server uses.
   */
  notifications(query: NotificationQuery, options: CallOptions = {}): Promise<Notification[]> {
    const wire = notificationParams(query);
    // `{"status": false}` with a valid token is "position past the end" in one server variant: nothing new.
    return this.#caller.call(options, { operation: 'notifications', path: (t) => `${this.routes.notifications}?token=${t}${wire}`, acceptsBareFalse: true }).then(({ ok, body, ctx, text }) => {
      if (!ok) return [];
      const value = body.value;
      if (!Array.isArray(value)) throw malformed(ctx, '"value" is not an array of notifications', text);
      try {
        return value.map(decodeNotification);
      } catch (e) {
        throw malformed(ctx, (e as Error).message, text);
      }
    });
  }

  /**
   * Uploads a file, streamed from disk, to a storage target. Returns where the server stored it: an
   * absolute URL for the typed targets (a relative answer is resolved), a server path for `local/…`.
   * @param file path of the file to send
   * @param target `image`, `script`, `apk`, `tcbr/contacts`, `local/<folder>` or `local/<absolute path>/`
   */
  async upload(file: string, target: string, options: UploadOptions = {}): Promise<{ fileUrl: string }> {
    const parsed = parseUploadTarget(target);
    // Loaded by the first upload: a process that sends no file (most Playwright workers) does not load them.
    const [{ multipartFile, readableFileSize }, { resolveFileUrl }] = await Promise.all([import('./multipart.js'), import('./file-url.js')]);
    const size = await readableFileSize(file);
    const body = multipartFile(file, size, parsed.part);
    const onBytes = options.onProgress && ((sent: number) => options.onProgress!(sent, size));
    const { body: answer, ctx, text } = await this.#caller.call(options, {
      operation: 'upload',
      path: (t) => `${this.routes.storage}?token=${t}`,
      idempotent: false,
      unbounded: true,
      request: {
        method: 'POST',
        headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
        body: () => Readable.from(body.open(onBytes, options.signal), { objectMode: false }),
        // Undici starts the headers timeout when the body is sent; the server may take a while to store it.
        headersTimeout: 120_000,
      },
    });
    const url = answer.file_url;
    if (typeof url !== 'string' || url === '') throw malformed(ctx, 'the answer has no "file_url"', text);
    return { fileUrl: resolveFileUrl(url, parsed, this.url, this.routes) };
  }

  /**
   * The phones the server lists (the vendor's device list, a route beyond the interface); [] for an empty
   * lab. A server without the route (told by its first answer: HTTP 404, 405 or 501, or the failure envelope,
   * while the main-device read answers) fails with a `not-offered` ServiceError, and is not asked again.
   */
  devices(options: CallOptions = {}): Promise<DeviceId[]> {
    return this.extensions.devices(options);
  }

  /**
   * A phone's properties: its model, maker, screen size and Android release (beyond the interface, as
   * {@link devices}, weighed against the phone's settings read: an unknown or offline phone is `phone-missing`).
   */
  deviceInfo(device: string, options: CallOptions = {}): Promise<DeviceInfo> {
    return this.extensions.deviceInfo(device, options);
  }

  /**
   * Captures a rectangle of a phone's screen as PNG bytes (the vendor's screen capture, beyond the
   * interface, as {@link devices}): the capture, then the download of the image its answer names. The image
   * is as the server made it; `captureRegion` (image layer) checks its size against the rectangle.
   */
  capture(device: string, rect: CaptureRect, options: CallOptions = {}): Promise<Capture> {
    return this.extensions.capture(device, rect, options);
  }

  /**
   * Taps the screen at (x, y): through `screen/inputs`, or the JS bridge on a server without it (decided by the
   * first act, as {@link devices}). Never sent twice once the server may have done it.
   * @returns the route that took it
   */
  tap(device: string, x: number, y: number, options: CallOptions = {}): Promise<ActRoute> {
    return this.#acts.act(device, { kind: 'tap', at: { x, y } }, options);
  }

  /** Presses a key (`home`, `back`, `menu`, `enter`, `backspace`, `recentapp`, …, or a JS bridge `KEY_…` constant), as {@link tap}. */
  press(device: string, key: string, options: CallOptions = {}): Promise<ActRoute> {
    return this.#acts.act(device, { kind: 'key', key: checkKey(key) }, options);
  }

  /**
   * Swipes from one point to another in `durationMs`, as {@link tap}.
   * @param from where the finger goes down, in pixels
   * @param to where it is lifted, in pixels
   */
  swipe(device: string, from: Point, to: Point, durationMs: number, options: CallOptions = {}): Promise<ActRoute> {
    return this.#acts.act(device, { kind: 'swipe', from, to, durationMs }, options);
  }

  /** Holds a finger on one point for `durationMs`: a swipe that stays in place, as {@link tap}. */
  longPress(device: string, at: Point, durationMs: number, options: CallOptions = {}): Promise<ActRoute> {
    return this.#acts.act(device, { kind: 'long press', at, durationMs }, options);
  }

  /** Types text into the phone's focused field: through `screen/texts`, or the JS bridge on a server without it, as {@link tap}. */
  type(device: string, text: string, options: CallOptions = {}): Promise<ActRoute> {
    return this.#acts.act(device, { kind: 'text', text }, options);
  }

  /** Starts (`active`), closes (`inactive`) or restarts an app by its package name, beyond the interface as {@link tap}. */
  setAppState(device: string, pkg: string, state: AppState, options: CallOptions = {}): Promise<void> {
    return this.#acts.setAppState(device, pkg, state, options);
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /**
   * After a pixel read answered `{"status": false}` with a valid token, finds out why: an unknown or offline
   * phone, or a point off its screen; otherwise a `bare-false` failure with no cause left to name.
   */
  async #explainPixelFailure(device: DeviceId, x: number, y: number, error: ServiceError, options: CallOptions): Promise<never> {
    let settings: DisplaySettings;
    try {
      // A quick probe: the pixel read's own policy waits for a phone that is away, not its explanation.
      settings = await this.settings(device, { ...options, phoneReconnectMs: 0 });
    } catch (e) {
      if (e instanceof ServiceError && e.reason === 'phone-missing') {
        throw new ServiceError('pixel', `pixel (${x}, ${y}): ${device} is unknown to the server or offline ("${e.serverMessage ?? ''}")`, {
          reason: 'phone-missing',
          hint: 'check the id (phonewright main-device) and that the phone is connected',
        });
      }
      // Out of time, or the probe failed too: the pixel's own failure is the news.
      throw isPhonewrightError(e, 'PW_TIMEOUT') || isPhonewrightError(e, 'PW_ABORTED') ? e : error;
    }
    const { w, h } = settings.display_resolution;
    if (x >= w || y >= h) {
      throw new ServiceError('pixel', `pixel (${x}, ${y}) is outside the screen of ${device} (${w}×${h})`, {
        reason: 'outside-screen',
        hint: `x from 0 to ${w - 1}, y from 0 to ${h - 1}`,
        serverMessage: error.serverMessage,
      });
    }
    throw new ServiceError('pixel', `pixel (${x}, ${y}) on ${device} (${formatResolution(settings.display_resolution)}) failed: the server answered {"status": false}`, {
      reason: 'bare-false',
      hint: 'check that the phone is connected and its screen is shared',
    });
  }
}
