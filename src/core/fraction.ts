import { UsageError } from './errors.js';
import type { ScreenSize, SizedPhone } from './screen.js';

/**
 * A coordinate or a length on the screen: pixels, or a percentage of the screen's width (x, width) or height
 * (y, height), such as `'50%'` or `'12.5%'`, so one spec names the same place on phones of every size.
 */
export type Coordinate = number | `${number}%`;

/** A rectangle whose sides may be given as percentages of the screen. */
export interface RectInput {
  x: Coordinate;
  y: Coordinate;
  width: Coordinate;
  height: Coordinate;
}

/** A point resolved to pixels, with how it was written when percentages were given: `(50%, 8%) = (540, 154) on 1080×1920`. */
export interface ResolvedPoint {
  x: number;
  y: number;
  /** How the point reads in messages. */
  label: string;
}

const PERCENT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

/** Whether a coordinate is given as a percentage of the screen. */
export function isFraction(value: unknown): value is `${number}%` {
  return typeof value === 'string' && PERCENT.test(value);
}

/**
 * A point in pixels: percentages resolved against the phone's screen, rounded to the nearest pixel and kept on
 * the screen (100% of the width is its last column). Pixels pass as they are, for the caller's own checks.
 * @param phone the phone, with its screen size when known (percentages need it)
 */
export function resolvePoint(phone: SizedPhone, x: Coordinate, y: Coordinate): ResolvedPoint {
  if (!isFraction(x) && !isFraction(y)) return { x: pixels('x', x), y: pixels('y', y), label: `(${String(x)}, ${String(y)})` };
  const screen = needScreen(phone, `(${String(x)}, ${String(y)})`);
  const px = along('x', x, screen.width, true);
  const py = along('y', y, screen.height, true);
  return { x: px, y: py, label: `(${String(x)}, ${String(y)}) = (${px}, ${py}) on ${screen.width}×${screen.height}` };
}

/**
 * A rectangle in pixels: x and width against the screen's width, y and height against its height, each rounded
 * to the nearest pixel, so `{ x: '0%', y: '0%', width: '100%', height: '4%' }` is the top 4 % of any screen.
 * @param phone the phone, with its screen size when known (percentages need it)
 */
export function resolveRect(phone: SizedPhone, rect: RectInput): { x: number; y: number; width: number; height: number } {
  const given = [rect.x, rect.y, rect.width, rect.height];
  if (!given.some(isFraction)) return rect as { x: number; y: number; width: number; height: number };
  const screen = needScreen(phone, `the region { x: ${String(rect.x)}, y: ${String(rect.y)}, width: ${String(rect.width)}, height: ${String(rect.height)} }`);
  return { x: along('x', rect.x, screen.width, false), y: along('y', rect.y, screen.height, false), width: along('width', rect.width, screen.width, false), height: along('height', rect.height, screen.height, false) };
}

/** A number as it is (its own checks come later); anything else that is not a percentage is refused here. */
function pixels(name: string, value: unknown): number {
  if (typeof value === 'number') return value;
  throw new UsageError(`invalid ${name} ${JSON.stringify(value)}: expected a number of pixels or a percentage of the screen such as '50%'`);
}

/** A coordinate along one side of the screen, in pixels; a point is kept on the screen, a length is not. */
function along(name: string, value: Coordinate, side: number, point: boolean): number {
  if (!isFraction(value)) return pixels(name, value);
  const percent = Number(PERCENT.exec(value)![1]);
  if (percent > 100) throw new UsageError(`invalid ${name} ${JSON.stringify(value)}: a percentage of the screen goes from 0% to 100%`);
  const at = Math.round((percent / 100) * side);
  return point ? Math.min(at, side - 1) : at;
}

function needScreen(phone: SizedPhone, what: string): ScreenSize {
  if (phone.screen) return phone.screen;
  throw new UsageError(`${what} on ${phone} needs the phone's screen size, which this server does not say (its device properties)`, {
    hint: 'give the point in pixels, or run on a server that offers the device properties',
  });
}
