import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ProtocolError, ServiceError, UsageError } from '../core/errors.js';
import type { Routes } from '../core/routes.js';
import type { Caller, CallOptions, Operation } from './caller.js';
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

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The vendor's routes beyond the device-control interface (spec/vendor-extensions.md), each a capability a
 * server may lack. The first HTTP 404 of one tells this server lacks it: remembered, so the next call fails at
 * once with the same one line, naming the capability and the server.
 */
export class Extensions {
  #lacking = new Set<Capability>();
  #caller: Caller;
  #routes: Routes;
  #url: string;

  /** @param url the server's base URL, for messages and for the URLs its answers name */
  constructor(caller: Caller, routes: Routes, url: string) {
    this.#caller = caller;
    this.#routes = routes;
    this.#url = url;
  }

  /** Whether this server is known to lack a capability (it answered 404 to it before). */
  lacks(name: Capability): boolean {
    return this.#lacking.has(name);
  }

  /** See {@link DeviceClient.devices}. */
  devices(options: CallOptions): Promise<DeviceId[]> {
    return this.#call('deviceList', options, {
      operation: 'devices',
      path: (t) => `${this.#routes.devices}?q=all&token=${t}`,
      statusOptional: true,
      decode: decodeDeviceList,
    });
  }

  /** See {@link DeviceClient.deviceInfo}. */
  deviceInfo(device: string, options: CallOptions): Promise<DeviceInfo> {
    const id = parseDeviceId(device);
    return this.#call('deviceInfo', options, {
      operation: 'device-info',
      path: (t) => `${this.#routes.device(id)}?token=${t}`,
      decode: (env, ctx, text) => decodeDeviceInfo(id, env, ctx, text),
    });
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
    const url = await this.#call('capture', options, {
      operation: 'screen capture',
      path: (t) => `${route}?token=${t}&type=png&location=pc&rect=[${x},${y},${x + width},${y + height}]`,
      decode: (env, ctx, text) => decodeCaptureUrl(env, ctx, text, id, this.#url),
    });
    const png = await this.#caller.download(options, 'screen capture download', url);
    if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') {
      throw new ProtocolError('screen capture', `screen capture: the image is not a PNG (${png.length} bytes${png.length ? `, starting ${JSON.stringify(png.toString('latin1', 0, 4))}` : ''}): ${this.#caller.context('', 'GET', url).request}`);
    }
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }

  async #call<T>(name: Capability, options: CallOptions, op: Operation<T>): Promise<T> {
    const lacks = () => new ServiceError(op.operation, `this server does not offer ${EXTENSION_NAMES[name]} (a route beyond the device-control interface): ${this.#url}`, { reason: 'not-offered' });
    if (this.#lacking.has(name)) throw lacks();
    try {
      return await this.#caller.call(options, op);
    } catch (error) {
      if (!(error instanceof ProtocolError && error.reason === 'no-route')) throw error;
      this.#lacking.add(name);
      throw lacks();
    }
  }
}
