import type { PositionalOptions } from 'yargs';
import { parseDeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import { isFraction, type Coordinate } from '../core/fraction.js';
import type { DeviceRef } from './phones.js';

/**
 * Reads a whole-number argument strictly: digits only. yargs would turn "1e3", "0x10" or "1.5" into
 * numbers; a command takes arguments as strings and reads them here, before any network work.
 * @param name how the argument is named in the error message, e.g. `x coordinate`, `--count`
 * @param raw the text as typed
 * @param min the smallest value allowed
 * @param max the largest value allowed
 * @param hint an example of a correct call
 */
export function wholeNumber(name: string, raw: unknown, min: number, max: number, hint?: string): number {
  const text = String(raw);
  // More digits than `max` has can only be out of range; checking the length first keeps Number() exact.
  if (!/^\d+$/.test(text) || text.length > String(max).length || Number(text) < min || Number(text) > max) {
    throw new UsageError(`invalid ${name} ${JSON.stringify(text.slice(0, 40))}: expected a whole number from ${min} to ${max}`, hint ? { hint } : {});
  }
  return Number(text);
}

/** Largest coordinate the CLI accepts; the client refuses beyond it too (no phone screen is that large). */
const MAX_COORDINATE = 100_000;

/**
 * Reads a pixel coordinate argument (`x` or `y`): a whole number of pixels, or a percentage of the screen
 * (`50%`), which the command resolves against the phone's screen size.
 */
export function coordinate(name: 'x' | 'y', raw: unknown): Coordinate {
  const text = String(raw);
  const refuse = (why: string) => new UsageError(`invalid ${name} coordinate ${JSON.stringify(text.slice(0, 40))}: ${why}`, { hint: 'phonewright pixel device@1116106541 100 100, or 50% 8% for a place by the screen\'s size' });
  if (isFraction(raw)) {
    if (Number(text.replace('%', '')) > 100) throw refuse('a percentage of the screen goes from 0% to 100%');
    return raw.trim() as Coordinate;
  }
  if (!/^\d+$/.test(text) || text.length > String(MAX_COORDINATE).length || Number(text) > MAX_COORDINATE) {
    throw refuse(`expected a whole number of pixels from 0 to ${MAX_COORDINATE} or a percentage of the screen (50%)`);
  }
  return Number(text);
}

/** The `<device>` positional of every command that works on one phone; {@link deviceArg} reads it. */
export const DEVICE_POSITIONAL: PositionalOptions = { type: 'string', demandOption: true, describe: 'Device id (device@1116106541), a phone\'s name (galaxy-s9), or "main"' };

/** The `<x> <y>` positionals of a point on the screen; {@link coordinate} reads each. */
export const POINT_POSITIONALS: Record<'x' | 'y', PositionalOptions> = {
  x: { type: 'string', demandOption: true, describe: 'Column, from 0 at the left edge, or a percentage of the width (50%)' },
  y: { type: 'string', demandOption: true, describe: 'Row, from 0 at the top edge, or a percentage of the height (8%)' },
};

/** Longest phone name taken: a config name, a scenario's, or one a server's device list gives. */
const MAX_NAME = 100;

/**
 * Reads a device argument: `main`, a well-formed id, or a phone's name (all three resolved later, by
 * `resolveDevice`). A text starting with `device@` (in any case) is an id and must be a good one; a bare
 * number is an id missing its prefix.
 * @param what how the argument is named in messages, e.g. `--device`
 * @default what `device id`
 */
export function deviceArg(raw: unknown, what = 'device id'): DeviceRef {
  const text = String(raw);
  if (text === 'main') return 'main';
  if (/^device@/i.test(text)) return parseDeviceId(text, what);
  if (/^-?\d+$/.test(text)) throw new UsageError(`invalid ${what} ${JSON.stringify(text.slice(0, 40))}: a device id starts with device@`, { hint: `device@${text.slice(0, 40)}` });
  if (text.trim() === '' || text.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(text)) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(text.slice(0, 40))}: expected a device id, a phone's name or main`, {
      hint: 'device@1116106541, galaxy-s9 or main (phonewright devices lists ids and names)',
    });
  }
  return text;
}

/** Reads a repeatable string option (`--app a --app b`) into a list; yargs gives undefined, a string or an array. */
export function list(raw: unknown): string[] {
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

/** Reads a rectangle argument `x,y,w,h` (whole pixels, width and height ≥ 1). */
export function rectArg(raw: unknown, hint: string): { x: number; y: number; width: number; height: number } {
  const text = String(raw);
  const parts = text.split(',');
  if (parts.length !== 4) throw new UsageError(`invalid --rect ${JSON.stringify(text.slice(0, 40))}: expected x,y,width,height, e.g. 10,20,30,40`, { hint });
  const [x, y, width, height] = parts.map((p, i) => wholeNumber(`--rect ${['x', 'y', 'width', 'height'][i]}`, p.trim(), i < 2 ? 0 : 1, MAX_COORDINATE, hint)) as [number, number, number, number];
  return { x, y, width, height };
}
