import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ProtocolError, ServiceError, UsageError, type PhonewrightError } from '../core/errors.js';
import type { Routes } from '../core/routes.js';
import type { Caller, CallOptions, Operation } from './caller.js';
import type { Deadline } from './deadline.js';
import type { Answer } from './envelope.js';
import { decodeCaptureUrl, decodeDeviceInfo, decodeDeviceList, EXTENSION_NAMES, type Capability, type DeviceInfo } from './vendor.js';
import { checkCoordinate } from './wire.js';

/** A rectangle of the screen, in pixels. */
export interface CaptureRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A screen capture as the server sent it: PNG bytes and the size its header gives. */
export interface Capture {
  png: Buffer;
  width: number;
  height: number;
}

/** What an app is asked to become: started (in front), closed, or closed and started again. */
export type AppState = 'active' | 'inactive' | 'restart';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The keys by their everyday names; any other `KEY_…` of the vendor's scripting constants passes as it is. */
export const KEYS: Readonly<Record<string, string>> = { back: 'KEY_BACK', home: 'KEY_HOME', menu: 'KEY_MENU' };
const RAW_KEY = /^KEY_[A-Z0-9_]{1,40}$/;
/** Longest gesture taken, in ms: a minute is far past any swipe or hold an app waits for. */
export const MAX_GESTURE_MS = 60_000;
/** Longest text typed in one act, in characters; a longer text is typed in parts. */
export const MAX_TEXT = 1_000;
/** An Android package name: two or more dot-separated parts, each a letter then letters, digits or `_`. */
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
/** Sent as an act's body: nothing (its arguments are in the query). */
const NO_BODY = { method: 'POST' as const, body: () => undefined };

/**
 * A read of the interface that tells whether the server and a phone answer: the phone's settings, or for a
 * route that names no phone the main device. Resolves when it was answered; throws its typed error else.
 */
export type InterfaceRead = (device: DeviceId | undefined, options: CallOptions) => Promise<unknown>;

/**
 * The vendor's routes beyond the device-control interface (docs/capabilities.md), each a capability a
 * server may lack. Until a route has answered once, an answer in the form a server lacking it gives (HTTP
 * 404, 405 or 501, or the failure envelope, whatever its message) is weighed against a read of the interface
 * about the same phone, made at once within the call's deadline: when that read answers, the server lacks the
 * route, which is remembered, and this call and every later one fail at once with the same one line naming
 * the capability and the server. When it fails too, its error is the call's (a phone gone, a server in
 * trouble), and nothing is remembered.
 */
export class Extensions {
  #known = new Map<Capability, 'offered' | 'lacking'>();
  #caller: Caller;
  #routes: Routes;
  #url: string;
  #interfaceRead: InterfaceRead;

  /**
   * @param url the server's base URL, for messages and for the URLs its answers name
   * @param interfaceRead the read the first answers of a route are weighed against
   */
  constructor(caller: Caller, routes: Routes, url: string, interfaceRead: InterfaceRead) {
    this.#caller = caller;
    this.#routes = routes;
    this.#url = url;
    this.#interfaceRead = interfaceRead;
  }

  /** Whether this server is known to lack a capability (decided by an earlier call). */
  lacks(name: Capability): boolean {
    return this.#known.get(name) === 'lacking';
  }

  /** See {@link DeviceClient.devices}. */
  devices(options: CallOptions): Promise<DeviceId[]> {
    return this.#call('deviceList', options, { operation: 'devices', path: (t) => `${this.#routes.devices}?q=all&token=${t}`, statusOptional: true }).then(decodeDeviceList);
  }

  /** See {@link DeviceClient.deviceInfo}. */
  deviceInfo(device: string, options: CallOptions): Promise<DeviceInfo> {
    const id = parseDeviceId(device);
    return this.#call('deviceInfo', options, { operation: 'device-info', path: (t) => `${this.#routes.device(id)}?token=${t}`, device: id }).then((answer) => decodeDeviceInfo(id, answer));
  }

  /** See {@link DeviceClient.capture}. */
  async capture(device: string, rect: CaptureRect, options: CallOptions): Promise<Capture> {
    const id = parseDeviceId(device);
    const { x, y, width, height } = rect;
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new UsageError(`invalid capture size ${String(width)}×${String(height)}: expected whole numbers of pixels ≥ 1`);
    }
    const route = this.#routes.capture(id);
    const answer = await this.#call('capture', options, {
      operation: 'screen capture',
      path: (t) => `${route}?token=${t}&type=png&location=pc&rect=[${x},${y},${x + width},${y + height}]`,
      device: id,
    });
    const url = decodeCaptureUrl(answer, this.#url);
    const png = await this.#caller.download(options, 'screen capture download', url);
    if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') {
      throw new ProtocolError('screen capture', `screen capture: the image is not a PNG (${png.length} bytes${png.length ? `, starting ${JSON.stringify(png.toString('latin1', 0, 4))}` : ''}): ${this.#caller.context('', 'GET', url).request}`);
    }
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }

  /** See {@link DeviceClient.tap}. */
  async tap(device: string, x: number, y: number, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    await this.#act('script', id, options, { operation: 'tap', route: this.#routes.script(id), query: `cmd=click&param=[${x},${y}]` });
  }

  /** See {@link DeviceClient.press}. */
  async press(device: string, key: string, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    const constant = keyConstant(key);
    await this.#act('script', id, options, { operation: 'press', route: this.#routes.script(id), query: `cmd=send&param=sigmaConst.${constant}` });
  }

  /** See {@link DeviceClient.swipe}. */
  async swipe(device: string, from: Point, to: Point, durationMs: number, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkPoint(from);
    checkPoint(to);
    checkGestureMs(durationMs);
    await this.#act('script', id, options, { operation: 'swipe', route: this.#routes.script(id), query: `cmd=swipe&param=${gesture(from, to, durationMs)}` });
  }

  /** See {@link DeviceClient.longPress}. */
  async longPress(device: string, at: Point, durationMs: number, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkPoint(at);
    checkGestureMs(durationMs);
    await this.#act('script', id, options, { operation: 'long press', route: this.#routes.script(id), query: `cmd=swipe&param=${gesture(at, at, durationMs)}` });
  }

  /** See {@link DeviceClient.type}. */
  async type(device: string, text: string, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkText(text);
    await this.#act('script', id, options, { operation: 'type', route: this.#routes.script(id), query: `cmd=inputText&param=${encodeURIComponent(JSON.stringify(text))}` });
  }

  /** See {@link DeviceClient.setAppState}. */
  async setAppState(device: string, pkg: string, state: AppState, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkPackage(pkg);
    if (state !== 'active' && state !== 'inactive' && state !== 'restart') throw new UsageError(`invalid app state ${JSON.stringify(state)}: expected active, inactive or restart`);
    await this.#act('appState', id, options, { operation: state === 'inactive' ? 'close app' : 'launch', route: this.#routes.app(id, pkg), query: `state=${state}` });
  }

  /**
   * An act: a POST that changes the phone. Never sent twice once the server may have done it (the policy
   * retries a request that did not leave, never one that may have been acted on).
   */
  async #act(name: Capability, device: DeviceId, options: CallOptions, { operation, route, query }: { operation: string; route: string; query: string }): Promise<void> {
    await this.#call(name, options, { operation, path: (t) => `${route}?token=${t}&${query}`, device, idempotent: false, request: NO_BODY });
  }

  async #call(name: Capability, options: CallOptions, op: Operation): Promise<Answer> {
    if (this.lacks(name)) throw this.#notOffered(name, op.operation);
    const known = this.#known.has(name);
    try {
      const answer = await this.#caller.call(options, known ? op : { ...op, contrast: (error, deadline) => this.#contrast(name, op, error, deadline) });
      if (!this.#known.has(name)) this.#known.set(name, 'offered');
      return answer;
    } catch (error) {
      // Decided during the call, maybe on a later attempt (after a login again): the line later calls get.
      if (error instanceof ServiceError && error.reason === 'not-offered') throw this.#notOffered(name, op.operation, error.cause);
      throw error;
    }
  }

  /**
   * Weighs a route's answer in a lacking server's form against a read of the interface about the same phone,
   * at once (no wait for a phone that is away: the policy around the call does that) and within the call's
   * deadline. Answered: the server lacks the route. Failed: the read's error, for the policy and the caller
   * (a phone gone is waited for as any read's; an act is never sent again).
   */
  async #contrast(name: Capability, op: Operation, error: PhonewrightError, deadline: Deadline): Promise<never> {
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
    this.#known.set(name, 'lacking');
    throw this.#notOffered(name, op.operation, error);
  }

  /** The one line: the capability, and the server. @param cause the route's own answer, when this call saw it */
  #notOffered(name: Capability, operation: string, cause?: unknown): ServiceError {
    return new ServiceError(operation, `this server does not offer ${EXTENSION_NAMES[name]} (a route beyond the device-control interface): ${this.#url}`, {
      reason: 'not-offered',
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/** A point of the screen, in pixels. */
export interface Point {
  x: number;
  y: number;
}

/**
 * The scripting library's point list for a finger put down at `from` and lifted at `to` `durationMs` later:
 * `[[x1,y1,0],[x2,y2,ms]]`, each point's third value the time taken to reach it. The same point twice is a hold
 * in place: a long press, in one request, so a failed act can never leave the finger down.
 */
function gesture(from: Point, to: Point, durationMs: number): string {
  return `[[${from.x},${from.y},0],[${to.x},${to.y},${durationMs}]]`;
}

function checkPoint(point: Point): void {
  checkCoordinate('x', point?.x);
  checkCoordinate('y', point?.y);
}

/** Checks a gesture's duration given by a user: whole milliseconds from 1 to {@link MAX_GESTURE_MS}. */
export function checkGestureMs(durationMs: number): void {
  if (!Number.isInteger(durationMs) || durationMs < 1 || durationMs > MAX_GESTURE_MS) {
    throw new UsageError(`invalid duration ${String(durationMs)}: expected a whole number of milliseconds from 1 to ${MAX_GESTURE_MS}`);
  }
}

/** Checks a text to type given by a user: 1 to {@link MAX_TEXT} characters. */
export function checkText(text: string): void {
  if (typeof text !== 'string' || text.length < 1 || text.length > MAX_TEXT) {
    const got = typeof text === 'string' ? `${text.length} characters` : typeof text;
    throw new UsageError(`invalid text to type (${got}): expected 1 to ${MAX_TEXT} characters`, typeof text === 'string' && text.length > MAX_TEXT ? { hint: 'type a longer text in parts, one act each' } : {});
  }
}

/** Checks an app's package name given by a user. */
export function checkPackage(pkg: string): void {
  if (typeof pkg !== 'string' || pkg.length > 255 || !PACKAGE.test(pkg)) {
    throw new UsageError(`invalid package name ${JSON.stringify(String(pkg).slice(0, 80))}: expected an Android package such as com.example.chat`);
  }
}

/** `back` → `KEY_BACK`; a `KEY_…` constant as it is; anything else is refused with the names to write. */
export function keyConstant(key: string): string {
  const known = KEYS[String(key).toLowerCase()];
  if (known) return known;
  if (typeof key === 'string' && RAW_KEY.test(key)) return key;
  throw new UsageError(`invalid key ${JSON.stringify(String(key).slice(0, 40))}: expected ${Object.keys(KEYS).join(', ')}, or one of the vendor's constants such as KEY_VOLUME_UP`);
}
