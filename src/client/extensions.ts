import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ProtocolError, ServiceError, UsageError, type PhonewrightError } from '../core/errors.js';
import type { Routes } from '../core/routes.js';
import type { Rect } from '../core/screen.js';
import type { Caller, CallOptions, Operation } from './caller.js';
import type { Deadline } from './deadline.js';
import type { Answer } from './envelope.js';
import { Elements } from './elements.js';
import { KnownScreens } from './screens.js';
import { decodeCaptureUrl, decodeDeviceInfo, decodeDeviceList, decodeText, EXTENSION_NAMES, type Capability, type DeviceInfo } from './vendor.js';
import { checkCoordinate } from './wire.js';

/** A rectangle of the screen, in pixels. */
export type CaptureRect = Rect;

/** A screen capture as the server sent it: PNG bytes and the size its header gives. */
export interface Capture {
  png: Buffer;
  width: number;
  height: number;
}

/** The image formats a capture may be asked in; phonewright reads PNG, and a film takes JPEG too. */
export type CaptureType = 'png' | 'jpg' | 'bmp';

/** A screen capture's image as the server sent it, and its type, read from its bytes (not from what was asked). */
export interface CaptureImage {
  bytes: Buffer;
  type: 'png' | 'jpg';
}


/**
 * A read of the interface that tells whether the server and a phone answer: the phone's settings, or for a
 * route that names no phone the main device. Resolves when it was answered; throws its typed error else.
 */
export type InterfaceRead = (device: DeviceId | undefined, options: CallOptions) => Promise<unknown>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A JPEG file's start of image, then the marker of its first segment. */
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
/** The smallest capture there is, at the corner every screen has: its arguments are good on any phone. */
const PROBE_RECT: CaptureRect = { x: 0, y: 0, width: 1, height: 1 };
/** Thrown by a probe's contrast: its answer was in a lacking route's form. Not a PhonewrightError, so never retried. */
const LACKING = new Error('the route answered as a route the server lacks');

/** What makes a lacking-route answer trustworthy for one call: a request known to be good, and a check of its own arguments. */
export interface Guard {
  /** A request of the same route whose arguments are good on any phone: when it answers, the route is there. */
  probe?: Operation;
  /** Run once the interface read has answered (and taught the phone's screen size): throws when the call's arguments were bad. */
  check?: () => void;
}

/**
 * The vendor's routes beyond the device-control interface (docs/capabilities.md), each a capability a server
 * may lack. Until a route has answered once, an answer in the form a server lacking it gives (HTTP 404, 405 or
 * 501, or the failure envelope, whatever its message) is not taken at its word: a request of the same route
 * whose arguments are known to be good is made where there is one (a 1×1 capture at 0,0), and its answering
 * makes the first answer the server's refusal of this call, with its message, deciding nothing; then a read of
 * the interface about the same phone: when it answers, and the call's own arguments were on the phone's screen,
 * the server lacks the route, which is remembered: this call and every later one fail with the same one line.
 * When that read fails, its error is the call's, and nothing is remembered. A route seen answering is offered
 * for the life of the client.
 */
export class Extensions {
  #known = new Map<Capability, 'offered' | 'lacking'>();
  #caller: Caller;
  #routes: Routes;
  #url: string;
  #interfaceRead: InterfaceRead;
  /** The screen sizes read so far, to refuse points and rectangles off a screen before sending them. */
  readonly screens = new KnownScreens();
  /** The phone's UI elements, through the vendor's engine (`sendAai`). */
  readonly elements: Elements;

  /**
   * @param url the server's base URL, for messages and for the URLs its answers name
   * @param interfaceRead the read the first answers of a route are weighed against
   */
  constructor(caller: Caller, routes: Routes, url: string, interfaceRead: InterfaceRead) {
    this.#caller = caller;
    this.#routes = routes;
    this.#url = url;
    this.#interfaceRead = interfaceRead;
    this.elements = new Elements(this, routes);
  }

  /** Whether this server is known to lack a capability (decided by an earlier call). */
  lacks(name: Capability): boolean {
    return this.#known.get(name) === 'lacking';
  }

  /** What is known of a capability: offered, lacking, or not asked yet. */
  known(name: Capability): 'offered' | 'lacking' | undefined {
    return this.#known.get(name);
  }

  /** See {@link DeviceClient.devices}. */
  devices(options: CallOptions): Promise<DeviceId[]> {
    return this.#call('deviceList', options, { operation: 'devices', path: (t) => `${this.#routes.devices}?q=all&token=${t}`, statusOptional: true }).then(decodeDeviceList);
  }

  /** See {@link DeviceClient.deviceInfo}. */
  async deviceInfo(device: string, options: CallOptions): Promise<DeviceInfo> {
    const id = parseDeviceId(device);
    const answer = await this.#call('deviceInfo', options, { operation: 'device-info', path: (t) => `${this.#routes.device(id)}?token=${t}`, device: id });
    const info = decodeDeviceInfo(id, answer);
    this.screens.learn(id, info.width, info.height);
    return info;
  }

  /** See {@link DeviceClient.capture}. */
  async capture(device: string, rect: CaptureRect, options: CallOptions): Promise<Capture> {
    const { bytes: png, url } = await this.#captured(device, rect, 'png', options);
    if (imageType(png) !== 'png') throw this.#notAn('a PNG', png, url);
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }

  /**
   * Captures a rectangle of a phone's screen in the type asked, as {@link capture} does: the image as the server
   * sent it, its type read from its bytes (a server may answer a PNG when asked for a JPEG). A server that refuses
   * the type fails as it refuses any capture; an image neither PNG nor JPEG is a protocol error.
   * @param type `'jpg'` (smaller and quicker to decode where the screen is a photo or an app's) or `'png'`
   */
  async captureImage(device: string, rect: CaptureRect, type: 'png' | 'jpg', options: CallOptions): Promise<CaptureImage> {
    const { bytes, url } = await this.#captured(device, rect, type, options);
    const got = imageType(bytes);
    if (!got) throw this.#notAn(type === 'png' ? 'a PNG' : 'a JPEG or a PNG', bytes, url);
    return { bytes, type: got };
  }

  /**
   * Asks for a 1×1 capture at 0,0 in an image format, without downloading it: resolves when the server made it.
   * A refusal of the format on a server that captures fails with the server's message.
   */
  async captureFormat(device: string, type: CaptureType, options: CallOptions): Promise<void> {
    await this.#capture(parseDeviceId(device), PROBE_RECT, type, options);
  }

  /** The package of the app in front (`apps?q=foreground_app`): a read of the apps routes. */
  foregroundApp(device: string, options: CallOptions): Promise<string> {
    const id = parseDeviceId(device);
    return this.#call('apps', options, this.foregroundOperation(id)).then((a) => decodeText(a, 'the foreground app'));
  }

  /** The phone's clipboard (`screen/texts?type=clipboard_text`): a read of the route text is typed through. */
  clipboard(device: string, options: CallOptions): Promise<string> {
    const id = parseDeviceId(device);
    return this.#call('texts', options, this.clipboardOperation(id)).then((a) => decodeText(a, 'the clipboard'));
  }

  /** The text the server's own OCR reads in a rectangle (`screen/texts?rect=…`, one line of English): text only, never where it is. */
  screenText(device: string, rect: CaptureRect, options: CallOptions): Promise<string> {
    const id = parseDeviceId(device);
    this.screens.checkRect(id, rect);
    const { x, y, width, height } = rect;
    const path = (t: string) => `${this.#routes.texts(id)}?token=${t}&rect=[${x},${y},${x + width},${y + height}]&lang=eng&mode=singleline`;
    return this.#call('ocr', options, { operation: 'text recognition', path, device: id }, { check: () => this.screens.checkRect(id, rect) }).then((a) => decodeText(a, 'the text read'));
  }

  /** A capture kept on the server, then the download of the image its answer names. */
  async #captured(device: string, rect: CaptureRect, type: CaptureType, options: CallOptions): Promise<{ bytes: Buffer; url: string }> {
    const answer = await this.#capture(parseDeviceId(device), rect, type, options);
    const url = decodeCaptureUrl(answer, this.#url);
    return { bytes: await this.#caller.download(options, 'screen capture download', url), url };
  }

  #notAn(what: string, bytes: Buffer, url: string): ProtocolError {
    return new ProtocolError('screen capture', `screen capture: the image is not ${what} (${bytes.length} bytes${bytes.length ? `, starting ${JSON.stringify(bytes.toString('latin1', 0, 4))}` : ''}): ${this.#caller.context('', 'GET', url).request}`);
  }

  async #capture(id: DeviceId, rect: CaptureRect, type: CaptureType, options: CallOptions): Promise<Answer> {
    const { x, y, width, height } = rect;
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new UsageError(`invalid capture size ${String(width)}×${String(height)}: expected whole numbers of pixels ≥ 1`);
    }
    this.screens.checkRect(id, rect);
    const op = this.#captureOperation(id, rect, type);
    const isProbe = type === 'png' && x === 0 && y === 0 && width === 1 && height === 1;
    return this.#call('capture', options, op, { check: () => this.screens.checkRect(id, rect), ...(isProbe ? {} : { probe: this.#captureOperation(id, PROBE_RECT, 'png') }) });
  }

  #captureOperation(id: DeviceId, { x, y, width, height }: CaptureRect, type: CaptureType): Operation {
    const route = this.#routes.capture(id);
    return { operation: 'screen capture', path: (t) => `${route}?token=${t}&type=${type}&location=pc&rect=[${x},${y},${x + width},${y + height}]`, device: id };
  }

  /** The read of the foreground app: the request known to be good on the apps routes. */
  foregroundOperation(id: DeviceId): Operation {
    return { operation: 'foreground app', path: (t) => `${this.#routes.apps(id)}?token=${t}&q=foreground_app`, device: id };
  }

  /** The read of the clipboard: the request known to be good on `screen/texts`. */
  clipboardOperation(id: DeviceId): Operation {
    return { operation: 'clipboard', path: (t) => `${this.#routes.texts(id)}?token=${t}&type=clipboard_text`, device: id };
  }

  /**
   * One call of a capability, under the probe this class describes: for the client's modules that add routes
   * (acts.ts). Fails at once, with the one line, when the capability is known to be lacking.
   * @param guard what makes a lacking-route answer trustworthy for this call
   */
  call(name: Capability, options: CallOptions, op: Operation, guard: Guard = {}): Promise<Answer> {
    return this.#call(name, options, op, guard);
  }

  async #call(name: Capability, options: CallOptions, op: Operation, guard: Guard = {}): Promise<Answer> {
    if (this.lacks(name)) throw this.#notOffered(name, op.operation);
    const known = this.#known.has(name);
    try {
      const answer = await this.#caller.call(options, known ? op : { ...op, contrast: (error, deadline) => this.#contrast(name, op, error, deadline, guard) });
      if (!this.#known.has(name)) this.#known.set(name, 'offered');
      return answer;
    } catch (error) {
      // Decided during the call, maybe on a later attempt (after a login again): the line later calls get.
      if (error instanceof ServiceError && error.reason === 'not-offered') throw this.#notOffered(name, op.operation, error.cause);
      throw error;
    }
  }

  /**
   * Weighs a route's answer in a lacking server's form, within the call's deadline: first a request of the same
   * route known to be good (answered: the route is there, and the first answer was the server's refusal of this
   * call, thrown as it came); then a read of the interface about the same phone, at once (no wait for a phone
   * that is away: the policy around the call does that). Answered, and the call's arguments on the phone's
   * screen: the server lacks the route. Failed: the read's error, for the policy and the caller (a phone gone
   * is waited for as any read's; an act is never sent again).
   */
  async #contrast(name: Capability, op: Operation, error: PhonewrightError, deadline: Deadline, guard: Guard): Promise<never> {
    // The route answered since this call began (the call's own count, elements.ts, or another call): it is there.
    if (this.#known.get(name) === 'offered') throw error;
    if (guard.probe && (await this.ask(name, guard.probe, deadline))) throw error;
    try {
      await this.#interfaceRead(op.device, { deadline, phoneReconnectMs: 0 });
    } catch (e) {
      if (!(e instanceof ServiceError && e.reason === 'phone-missing' && op.device)) throw e;
      throw new ServiceError(op.operation, `${op.operation} failed for ${op.device}: the phone is unknown to the server or offline (its settings read said "${e.serverMessage ?? ''}")`, {
        reason: 'phone-missing',
        serverMessage: e.serverMessage,
        hint: 'check the id (phonewright main-device) and that the phone is connected',
        cause: e,
      });
    }
    // The interface read taught the phone's screen: a point or rectangle off it was the call's fault, not the route's absence.
    guard.check?.();
    this.#known.set(name, 'lacking');
    throw this.#notOffered(name, op.operation, error);
  }

  /**
   * One request of a capability's route, to weigh another answer of it: the probe's request known to be good, or
   * a count that tells "nothing found" from a refusal (elements.ts). Sent within `deadline`, without waiting for a
   * phone that is away. Answered: the route is there, and the capability is offered from then on. Undefined when
   * it answered as a lacking route does (HTTP 404, 405 or 501, or the failure envelope), which decides nothing.
   * Its other failures are thrown.
   */
  async ask(name: Capability, op: Operation, deadline: Deadline): Promise<Answer | undefined> {
    try {
      const answer = await this.#caller.call({ deadline, phoneReconnectMs: 0 }, { ...op, contrast: () => Promise.reject(LACKING) });
      if (!this.lacks(name)) this.#known.set(name, 'offered');
      return answer;
    } catch (error) {
      if (error === LACKING) return undefined;
      throw error;
    }
  }

  /** The one line: the capability, and the server. @param cause the route's own answer, when this call saw it */
  #notOffered(name: Capability, operation: string, cause?: unknown): ServiceError {
    return new ServiceError(operation, `this server does not offer ${EXTENSION_NAMES[name]} (a route beyond the device-control interface): ${this.#url}`, {
      reason: 'not-offered',
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/** An image's type from its first bytes: a PNG with its header chunk first, or a JPEG; undefined for anything else. */
function imageType(bytes: Buffer): 'png' | 'jpg' | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR') return 'png';
  if (bytes.length >= 4 && bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return 'jpg';
  return undefined;
}
