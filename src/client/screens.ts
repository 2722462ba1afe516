import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { Rect } from '../core/screen.js';
import type { Point } from './act-forms.js';

/**
 * What a client has read of each phone's screen size, to refuse a point or a rectangle off it before anything
 * is sent: a server's refusal of such an argument must never pass for a route it lacks. A phone turns, and its
 * settings give the native size whichever side is up, so a size read refuses only what fits neither way.
 */
export class KnownScreens {
  #sizes = new Map<DeviceId, { w: number; h: number }>();

  /** A read (the phone's properties or settings) said its screen is `w` by `h`, one way up or the other. */
  learn(device: DeviceId, w: number, h: number): void {
    if (Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0) this.#sizes.set(device, { w, h });
  }

  /** Refuses points off the phone's screen (a UsageError naming the point); nothing when its size is not known. */
  checkPoints(device: DeviceId, points: Point[]): void {
    for (const p of points) this.#check(device, p.x + 1, p.y + 1, () => `(${p.x}, ${p.y})`);
  }

  /** Refuses a rectangle not wholly on the phone's screen; nothing when its size is not known. */
  checkRect(device: DeviceId, rect: Rect): void {
    this.#check(device, rect.x + rect.width, rect.y + rect.height, () => `the rectangle ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`);
  }

  /** Throws unless the far corner (one past the last pixel, right and below) lies on the screen either way up. */
  #check(device: DeviceId, right: number, bottom: number, what: () => string): void {
    const size = this.#sizes.get(device);
    if (!size) return;
    const { w, h } = size;
    if ((right <= w && bottom <= h) || (right <= h && bottom <= w)) return;
    throw new UsageError(`${what()} is off the ${w}×${h} screen of ${device} (either way up): nothing was sent`, {
      hint: `x from 0 to ${Math.max(w, h) - 1}, y from 0 to ${Math.max(w, h) - 1}, within the screen as it is turned now`,
    });
  }
}
