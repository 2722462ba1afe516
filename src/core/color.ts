import { UsageError } from './errors.js';

/** A colour as three 0–255 channels. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** What a user may write for a colour: `0xrrggbb`, `#rrggbb`, `rrggbb` (any case), or `{ r, g, b }`. */
export type ColorInput = string | Rgb;

/** Per-channel absolute differences, and the largest of them. */
export interface ColorDelta {
  r: number;
  g: number;
  b: number;
  max: number;
}

const HEX = /^(?:0x|#)?([0-9a-f]{6})$/i;

/**
 * Reads a colour written by a user.
 * @param input `0x25425c`, `#25425C`, `25425c` or `{ r: 37, g: 66, b: 92 }`
 */
export function parseColor(input: ColorInput): Rgb {
  if (typeof input === 'string') {
    const m = HEX.exec(input.trim());
    if (!m) {
      throw new UsageError(`invalid colour ${JSON.stringify(input.slice(0, 40))}: expected six hex digits`, {
        hint: "'0x25425c', '#25425c', '25425c' or { r: 37, g: 66, b: 92 }",
      });
    }
    const n = Number.parseInt(m[1]!, 16);
    return { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
  }
  if (input && typeof input === 'object' && isChannel(input.r) && isChannel(input.g) && isChannel(input.b)) {
    return { r: input.r, g: input.g, b: input.b };
  }
  throw new UsageError(`invalid colour ${safeJson(input)}: expected { r, g, b } with integers 0 to 255`, {
    hint: "'0x25425c' or { r: 37, g: 66, b: 92 }",
  });
}

/** Prints a colour the way the server does: `0x` and six lowercase hex digits. */
export function formatColor(color: Rgb): string {
  return `0x${((color.r << 16) | (color.g << 8) | color.b).toString(16).padStart(6, '0')}`;
}

/** Per-channel distance between two colours. */
export function colorDelta(a: Rgb, b: Rgb): ColorDelta {
  const r = Math.abs(a.r - b.r);
  const g = Math.abs(a.g - b.g);
  const bl = Math.abs(a.b - b.b);
  return { r, g, b: bl, max: Math.max(r, g, bl) };
}

/**
 * True when every channel of `a` is within `tolerance` of `b`.
 * @default tolerance 0
 */
export function colorsMatch(a: Rgb, b: Rgb, tolerance = 0): boolean {
  return colorDelta(a, b).max <= tolerance;
}

/** Prints a delta as `Δr=+3 Δg=0 Δb=-12` (signed: actual minus expected). */
export function formatDelta(actual: Rgb, expected: Rgb): string {
  const sign = (n: number) => (n > 0 ? `+${n}` : String(n));
  return `Δr=${sign(actual.r - expected.r)} Δg=${sign(actual.g - expected.g)} Δb=${sign(actual.b - expected.b)}`;
}

/**
 * Checks a per-channel tolerance given by a user.
 * @default value 0
 */
export function parseTolerance(value: unknown = 0): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255) return value;
  throw new UsageError(`invalid tolerance ${safeJson(value)}: expected an integer from 0 to 255 (per channel)`);
}

function isChannel(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 255;
}

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 60);
  } catch {
    return String(value).slice(0, 60);
  }
}
