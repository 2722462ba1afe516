// What the page shows of a phone: its screen from one capture at a time, and a point's colour as the
// interface's own pixel read gives it, with how much the colours around it differ.
import type { CallOptions } from '../client/index.js';
import { formatColor, type Rgb } from '../core/color.js';
import { deltaE } from '../core/delta-e.js';
import type { DeviceId } from '../core/device-id.js';
import { ServiceError } from '../core/errors.js';
import { encodePng } from '../image/index.js';
import { captureImage, readNeighbourhood, type RegionClient } from '../phone/screen.js';
import type { InspectedPhone } from './phones.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * Above this spread (ΔE00) the neighbourhood holds another colour: an edge, text. A tolerance that wide would
 * pass a wrong colour (5 and more reads as another colour), so none is suggested.
 */
export const EDGE_SPREAD = 5;

/** A point as the page shows it. */
export interface PointRead {
  x: number;
  y: number;
  /** The colour, as the server gives it (`0x25425c`). */
  rgb: string;
  r: number;
  g: number;
  b: number;
  /** The largest ΔE00 between the point and a pixel of its 9×9 neighbourhood, two decimals. */
  spread: number;
  /** The `deltaE` to suggest: the spread rounded up to a tenth; none on a flat area or at an edge. */
  deltaE: number | undefined;
  /** The neighbourhood's top-left pixel, and its colours row by row (null where a read failed). */
  x0: number;
  y0: number;
  cells: (string | null)[];
}

/**
 * Captures a phone's whole screen, as PNG bytes: the server's own image when it has exactly the screen's size,
 * else the capture made to fit (a server whose rectangle is one pixel larger). Concurrent requests for one
 * phone share one capture: a phone makes one at a time.
 */
export class ScreenCapturer {
  #inFlight = new Map<DeviceId, Promise<Buffer>>();
  readonly #client: RegionClient;

  constructor(client: RegionClient) {
    this.#client = client;
  }

  /**
   * The phone's screen now. A phone whose size is not known (a server without the device properties) cannot
   * be captured whole: that fails as a server without the capture does.
   * @param phone the phone
   */
  capture(phone: InspectedPhone, call: CallOptions): Promise<Buffer> {
    const running = this.#inFlight.get(phone.id);
    if (running) return running;
    const done = this.#capture(phone, call).finally(() => this.#inFlight.delete(phone.id));
    this.#inFlight.set(phone.id, done);
    return done;
  }

  async #capture(phone: InspectedPhone, call: CallOptions): Promise<Buffer> {
    if (!phone.screen) {
      const who = phone.name === phone.id ? phone.id : `${phone.name} (${phone.id})`;
      throw new ServiceError('screen capture', `the screen size of ${who} is not known: this server offers no device properties (a route beyond the device-control interface), so its screen cannot be captured`, {
        reason: 'not-offered',
      });
    }
    const rect = { x: 0, y: 0, ...phone.screen };
    const shot = await this.#client.capture(phone.id, rect, call);
    if (shot.width === rect.width && shot.height === rect.height && shot.png.subarray(0, 8).equals(PNG_SIGNATURE)) return shot.png;
    return encodePng(await captureImage({ capture: async () => shot }, phone.id, rect, call));
  }
}

/**
 * Reads a point: its colour by the interface's pixel read (so a lossy capture never shows in a check), and
 * its 9×9 neighbourhood (one capture, or 81 reads) for the spread.
 * @param client the logged-in client
 * @param device the phone
 * @param screen its size, where known: near the right or bottom edge the neighbourhood is still one capture
 */
export async function readPoint(client: RegionClient, device: DeviceId, x: number, y: number, call: CallOptions, screen?: { width: number; height: number }): Promise<PointRead> {
  const [pixel, around] = await Promise.all([client.pixel(device, x, y, call), readNeighbourhood(client, device, x, y, { ...call, screen })]);
  const center = { r: pixel.r, g: pixel.g, b: pixel.b };
  const { spread, deltaE: suggested } = suggestDeltaE(center, around.cells);
  return { x, y, rgb: pixel.rgb, ...center, spread, deltaE: suggested, x0: around.x0, y0: around.y0, cells: around.cells.map((c) => (c ? formatColor(c) : null)) };
}

/**
 * The spread of a neighbourhood around its point's colour, and the `deltaE` it suggests: the largest ΔE00
 * from the point, rounded up to a tenth. A flat area needs none (the exact colour holds); a neighbourhood
 * that holds another colour (spread above {@link EDGE_SPREAD}) gets none either.
 * @param center the point's colour
 * @param cells the neighbourhood's colours; undefined where unread
 */
export function suggestDeltaE(center: Rgb, cells: readonly (Rgb | undefined)[]): { spread: number; deltaE: number | undefined } {
  const spread = Math.max(0, ...cells.map((c) => (c ? deltaE(center, c) : 0)));
  const rounded = Math.ceil(spread * 100) / 100;
  const suggested = spread < 0.005 || spread > EDGE_SPREAD ? undefined : Math.ceil(spread * 10) / 10;
  return { spread: rounded, deltaE: suggested };
}
