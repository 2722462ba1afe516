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
  const out = new Float64Array(3);
  labInto(color.r, color.g, color.b, out, 0);
  return { l: out[0]!, a: out[1]!, b: out[2]! };
}

/**
 * {@link srgbToLab} without objects, for a whole image: writes L, a, b at `out[at]`, `out[at + 1]`, `out[at + 2]`.
 * @param r channels 0–255, whole numbers (they index a table)
 */
export function labInto(r: number, g: number, b: number, out: Float64Array, at: number): void {
  const lr = LINEAR[r]!;
  const lg = LINEAR[g]!;
  const lb = LINEAR[b]!;
  // IEC 61966-2-1's matrix from linear sRGB to XYZ, each row divided by the D65 white's X, Y, Z.
  const x = f((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / D65.x);
  const y = f(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
  const z = f((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / D65.z);
  out[at] = 116 * y - 16;
  out[at + 1] = 500 * (x - y);
  out[at + 2] = 200 * (y - z);
}

/**
 * CIEDE2000 with the parametric factors kL = kC = kH = 1, as written by G. Sharma, W. Wu and E. N. Dalal,
 * "The CIEDE2000 color-difference formula: implementation notes, supplementary test data, and mathematical
 * observations", Color Research & Application 30(1), 21–30, 2005. Their 34 test pairs are in
 * tests/core/delta-e.test.ts.
 */
export function deltaE2000(one: Lab, two: Lab): number {
  return deltaE2000Of(one.l, one.a, one.b, two.l, two.a, two.b);
}

/**
 * {@link deltaE2000} on plain numbers, the one implementation: a region compares up to millions of pixels,
 * so it makes no objects and raises to the 7th power by multiplying. Equations (2) to (22) in order.
 */
export function deltaE2000Of(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  // (2)–(7): a' stretched by G so that near-neutral colours get their hue right, C' and h' from it.
  const cBar = (Math.sqrt(a1 * a1 + b1 * b1) + Math.sqrt(a2 * a2 + b2 * b2)) / 2;
  const cBar7 = pow7(cBar);
  const g = 0.5 * (1 - Math.sqrt(cBar7 / (cBar7 + POW7_25)));
  const ap1 = (1 + g) * a1;
  const ap2 = (1 + g) * a2;
  const c1 = Math.sqrt(ap1 * ap1 + b1 * b1);
  const c2 = Math.sqrt(ap2 * ap2 + b2 * b2);
  const h1 = hueDegrees(b1, ap1);
  const h2 = hueDegrees(b2, ap2);
  // (8)–(11): the differences; a hue difference is undefined (0) when either colour has no chroma.
  const dL = l2 - l1;
  const dC = c2 - c1;
  let dh = 0;
  if (c1 * c2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(dh * HALF_RAD);
  // (12)–(14): means, the mean hue taken the short way round the circle.
  const lBar = (l1 + l2) / 2;
  const cBarPrime = (c1 + c2) / 2;
  let hBar = h1 + h2;
  if (c1 * c2 !== 0) hBar = Math.abs(h1 - h2) <= 180 ? hBar / 2 : hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
  // (15)–(21): the weights, and the rotation term for blues.
  // T's four cosines from one cosine and one sine of h̄, by the double- and triple-angle identities.
  const c1h = Math.cos(hBar * RAD);
  const s1h = Math.sin(hBar * RAD);
  const c2h = 2 * c1h * c1h - 1;
  const s2h = 2 * s1h * c1h;
  const c3h = c1h * (2 * c2h - 1);
  const s3h = s1h * (2 * c2h + 1);
  const c4h = 2 * c2h * c2h - 1;
  const s4h = 2 * s2h * c2h;
  const t = 1 - 0.17 * (c1h * COS30 + s1h * SIN30) + 0.24 * c2h + 0.32 * (c3h * COS6 - s3h * SIN6) - 0.2 * (c4h * COS63 + s4h * SIN63);
  const dThetaBase = (hBar - 275) / 25;
  const dTheta = 30 * Math.exp(-(dThetaBase * dThetaBase));
  const cBarPrime7 = pow7(cBarPrime);
  const rC = 2 * Math.sqrt(cBarPrime7 / (cBarPrime7 + POW7_25));
  const lBar50 = (lBar - 50) * (lBar - 50);
  const sL = 1 + (0.015 * lBar50) / Math.sqrt(20 + lBar50);
  const sC = 1 + 0.045 * cBarPrime;
  const sH = 1 + 0.015 * cBarPrime * t;
  const rT = -Math.sin(2 * dTheta * RAD) * rC;
  // (22)
  const l = dL / sL;
  const c = dC / sC;
  const h = dH / sH;
  return Math.sqrt(l * l + c * c + h * h + rT * c * h);
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

/** Each 8-bit channel in linear light: a power per channel would be most of a conversion's cost. */
const LINEAR = Float64Array.from({ length: 256 }, (_, c) => linear(c));
const POW7_25 = 25 ** 7;
const RAD = Math.PI / 180;
const HALF_RAD = RAD / 2;
const [COS6, SIN6, COS30, SIN30, COS63, SIN63] = [6, 30, 63].flatMap((d) => [Math.cos(d * RAD), Math.sin(d * RAD)]) as [number, number, number, number, number, number];

function pow7(x: number): number {
  const x2 = x * x;
  return x2 * x2 * x2 * x;
}

function f(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : SLOPE * t + 4 / 29;
}

function hueDegrees(b: number, a: number): number {
  if (a === 0 && b === 0) return 0;
  const h = Math.atan2(b, a) / RAD;
  return h < 0 ? h + 360 : h;
}

