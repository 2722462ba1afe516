import { UsageError } from './errors.js';

/** A rectangle of the screen, in pixels: its top-left corner and its size. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A phone's screen size in pixels. */
export interface ScreenSize {
  width: number;
  height: number;
}

/** What the checks need of a phone: its screen size when known, and its name for messages. */
export interface SizedPhone {
  readonly screen: ScreenSize | undefined;
  toString(): string;
}

/**
 * Refuses a point off the phone's screen, before anything is sent: a read of such a point can only time out
 * or fail on the server's word, and an act there does something no one meant. Without a known size (a server
 * without the device properties) nothing is checked, and the server answers as it does. A coordinate that is
 * no whole number ≥ 0 is the client's to refuse.
 * @param phone the phone, with its screen size
 */
export function checkPointOnScreen(phone: SizedPhone, x: number, y: number): void {
  const screen = phone.screen;
  if (!screen || !isIndex(x) || !isIndex(y) || (x < screen.width && y < screen.height)) return;
  throw new UsageError(`(${x}, ${y}) is off the ${size(screen)} screen of ${phone}`, { hint: within(screen) });
}

/**
 * Refuses a region that is not wholly on the phone's screen, before any read. Without a known size nothing is
 * checked. The rectangle's own shape (whole numbers, x and y ≥ 0, sides ≥ 1) is the region grid's to check.
 * @param phone the phone, with its screen size
 * @param rect the region, in screen coordinates
 */
export function checkRectOnScreen(phone: SizedPhone, rect: Rect): void {
  const screen = phone.screen;
  if (!screen || (rect.x + rect.width <= screen.width && rect.y + rect.height <= screen.height)) return;
  throw new UsageError(`the region ${rect.width}×${rect.height} at (${rect.x}, ${rect.y}) is off the ${size(screen)} screen of ${phone}`, {
    hint: `a region within it: ${within(screen)}, x + width ≤ ${screen.width}, y + height ≤ ${screen.height}`,
  });
}

function isIndex(n: number): boolean {
  return Number.isInteger(n) && n >= 0;
}

function size(screen: ScreenSize): string {
  return `${screen.width}×${screen.height}`;
}

function within(screen: ScreenSize): string {
  return `x from 0 to ${screen.width - 1}, y from 0 to ${screen.height - 1}`;
}
