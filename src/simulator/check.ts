import { parseColor } from '../core/color.js';

/** Refuses a value: `where` is its JSON path, `what` says what is wrong and what to write. Never returns. */
export type Fail = (where: string, what: string) => never;

/**
 * Checks that `raw` is a plain object whose keys are all known (a typo is caught, not ignored).
 * @param at the JSON path of the object, for messages ('' for the top level)
 */
export function checkObject(raw: unknown, at: string, keys: readonly string[], fail: Fail): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || raw instanceof Uint8Array) return fail(at || 'the scenario', 'must be a JSON object');
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key)) fail(at ? `${at}.${key}` : key, `is not a known key; write one of ${keys.filter((k) => k !== '$schema').join(', ')}`);
  }
  return raw as Record<string, unknown>;
}

/**
 * Reads a colour written as text (`0x25425c`, `#25425c`, `25425c`) into 0xrrggbb.
 * @param at the JSON path, for messages
 */
export function checkColor(raw: unknown, at: string, fail: Fail): number {
  if (typeof raw === 'string') {
    try {
      const { r, g, b } = parseColor(raw);
      return (r << 16) | (g << 8) | b;
    } catch {
      // the message below says what to write
    }
  }
  return fail(at, `is ${JSON.stringify(raw)}; write a colour such as "0x25425c"`);
}

/** True for an integer from `min` to `max`. */
export function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}
