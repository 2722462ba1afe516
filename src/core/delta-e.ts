import type { Rgb } from './color.js';
import { UsageError } from './errors.js';

/** A colour in CIELAB: lightness 0–100, and the a (green–red) and b (blue–yellow) axes. */
export interface Lab {
  l: number;
  a: number;
  b: number;
}

/**
 * The perceived distance between two sRGB colours: CIEDE2000 (ΔE00) of their CIELAB values under a D65
 * white. Below 1 nobody sees a difference; about 2.3 is the just-noticeable difference.
 */
export function deltaE(a: Rgb, b: Rgb): number {
  return deltaE2000(srgbToLab(a), srgbToLab(b));
}

/**
 * sRGB (IEC 61966-2-1) to CIELAB (CIE 15:2004), through linear light and XYZ, white point D65.
 * @param color channels 0–255
 */
export function srgbToLab(color: Rgb): Lab {
  const r = linear(color.r);
  const g = linear(color.g);
  const b = linear(color.b);
  // IEC 61966-2-1's matrix from linear sRGB to XYZ, each row divided by the D65 white's X, Y, Z.
  const x = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / D65.x);
  const y = f(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
  const z = f((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / D65.z);
  return { l: 116 * y - 16, a: 500 * (x - y), b: 200 * (y - z) };
}

/**
 * CIEDE2000 with the parametric factors kL = kC = kH = 1, as written by G. Sharma, W. Wu and E. N. Dalal,
 * "The CIEDE2000 color-difference formula: implementation notes, supplementary test data, and mathematical
 * observations", Color Research & Application 30(1), 21–30, 2005: equations (2) to (22) in order. Their
 * 34 test pairs are in tests/core/delta-e.test.ts.
 */
export function deltaE2000(one: Lab, two: Lab): number {
  // (2)–(7): a' stretched by G so that near-neutral colours get their hue right, C' and h' from it.
  const cBar = (Math.hypot(one.a, one.b) + Math.hypot(two.a, two.b)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const a1 = (1 + g) * one.a;
  const a2 = (1 + g) * two.a;
  const c1 = Math.hypot(a1, one.b);
  const c2 = Math.hypot(a2, two.b);
  const h1 = hueDegrees(one.b, a1);
  const h2 = hueDegrees(two.b, a2);
  // (8)–(11): the differences; a hue difference is undefined (0) when either colour has no chroma.
  const dL = two.l - one.l;
  const dC = c2 - c1;
  let dh = 0;
  if (c1 * c2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(rad(dh / 2));
  // (12)–(14): means, the mean hue taken the short way round the circle.
  const lBar = (one.l + two.l) / 2;
  const cBarPrime = (c1 + c2) / 2;
  let hBar = h1 + h2;
  if (c1 * c2 !== 0) hBar = Math.abs(h1 - h2) <= 180 ? hBar / 2 : hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
  // (15)–(21): the weights, and the rotation term for blues.
  const t = 1 - 0.17 * cos(hBar - 30) + 0.24 * cos(2 * hBar) + 0.32 * cos(3 * hBar + 6) - 0.2 * cos(4 * hBar - 63);
  const dTheta = 30 * Math.exp(-(((hBar - 275) / 25) ** 2));
  const rC = 2 * Math.sqrt(cBarPrime ** 7 / (cBarPrime ** 7 + 25 ** 7));
  const sL = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sC = 1 + 0.045 * cBarPrime;
  const sH = 1 + 0.015 * cBarPrime * t;
  const rT = -Math.sin(rad(2 * dTheta)) * rC;
  // (22)
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}

/**
 * Checks a ΔE00 bound given by a user.
 * @param value a number from 0 to 100
 */
export function parseDeltaE(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100) return value;
  throw new UsageError(`invalid deltaE ${JSON.stringify(value) ?? String(value)}: expected a CIEDE2000 distance from 0 to 100`, {
    hint: 'below 1 no one sees a difference; 2.3 is just noticeable: { deltaE: 2.3 }',
  });
}

/** The D65 white's X and Z (Y is 1), as IEC 61966-2-1 rounds them. */
const D65 = { x: 0.95047, z: 1.08883 };
/** CIE 15's cut between the cube root and the straight line near black: (6/29)³, and the line's slope. */
const EPSILON = (6 / 29) ** 3;
const SLOPE = 1 / (3 * (6 / 29) ** 2);

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function f(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : SLOPE * t + 4 / 29;
}

function hueDegrees(b: number, a: number): number {
  if (a === 0 && b === 0) return 0;
  const h = (Math.atan2(b, a) * 180) / Math.PI;
  return h < 0 ? h + 360 : h;
}

function rad(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

function cos(degrees: number): number {
  return Math.cos(rad(degrees));
}
