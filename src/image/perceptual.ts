import { deltaE2000Of, labInto } from '../core/delta-e.js';

/** The pixels of one image farther than a bound from another's, in CIEDE2000, in pixel order. */
export interface Beyond {
  /** How many pixels are beyond the bound: the first `count` entries of `index` and `delta`. */
  count: number;
  /** Pixel indices (y · width + x), ascending. */
  index: Uint32Array;
  /** The ΔE00 of each, in the same order. */
  delta: Float32Array;
}

/**
 * Measures two RGBA images of one size pixel by pixel in ΔE00 (sRGB, D65, as a point check does) and lists
 * the pixels farther apart than `bound`. Only pixels whose bytes differ are measured; a pair of colours met
 * before is looked up rather than measured again (a screen has few colours, and a change repeats them).
 * @param masked 1 where a pixel is left out (row by row), or undefined
 */
export function pixelsBeyond(expected: Int32Array, actual: Int32Array, bound: number, masked?: Uint8Array): Beyond {
  const cache = new PairCache();
  let index = new Uint32Array(64);
  let delta = new Float32Array(64);
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    const p = expected[i]!;
    const q = actual[i]!;
    if (p === q || (masked && masked[i])) continue;
    const d = cache.distance(p, q);
    if (d <= bound) continue;
    if (count === index.length) {
      index = grown(index, new Uint32Array(count * 2));
      delta = grown(delta, new Float32Array(count * 2));
    }
    index[count] = i;
    delta[count++] = d;
  }
  return { count, index, delta };
}

/**
 * A view of RGBA bytes as one 32-bit number a pixel, for comparing pixels whole. Signed: V8 keeps an int32 in
 * a register, where an opaque pixel read as unsigned (2^31 and more) would be a double, twice as slow here.
 */
export function pixels32(data: Uint8Array): Int32Array {
  const bytes = aligned(data);
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
}

/** The bytes themselves, or a copy where they do not start on a 4-byte boundary (a 32-bit view needs one). */
export function aligned(data: Uint8Array): Uint8Array {
  return data.byteOffset % 4 === 0 ? data : new Uint8Array(data);
}

/**
 * ΔE00 of pairs of RGBA pixels, each packed as an Int32 of the platform's byte order, remembered in a
 * direct-mapped table of 2^16 pairs: a pair seen before costs a hash and two compares. A key pair (0, 0)
 * never occurs (the pixels of a measured pair differ), so an empty slot needs no marker.
 */
class PairCache {
  readonly #first = new Int32Array(SLOTS);
  readonly #second = new Int32Array(SLOTS);
  readonly #value = new Float32Array(SLOTS);
  readonly #lab = new Float64Array(6);

  distance(p: number, q: number): number {
    // Knuth's multiplicative hashing of each pixel, the high 16 bits of the mix as the slot.
    const slot = (Math.imul(p, 0x9e3779b1) ^ Math.imul(q, 0x85ebca6b)) >>> 16;
    if (this.#first[slot] === p && this.#second[slot] === q) return this.#value[slot]!;
    const lab = this.#lab;
    labOfPixel(p, lab, 0);
    labOfPixel(q, lab, 3);
    const d = deltaE2000Of(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!);
    this.#first[slot] = p;
    this.#second[slot] = q;
    this.#value[slot] = d;
    return d;
  }
}

const SLOTS = 1 << 16;
/** Which byte of a packed pixel holds red: the views read memory in the platform's byte order. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A packed pixel's Lab; a see-through pixel is first laid over white, as a viewer shows it. */
function labOfPixel(pixel: number, out: Float64Array, at: number): void {
  const r = LITTLE_ENDIAN ? pixel & 255 : pixel >>> 24;
  const g = LITTLE_ENDIAN ? (pixel >>> 8) & 255 : (pixel >>> 16) & 255;
  const b = LITTLE_ENDIAN ? (pixel >>> 16) & 255 : (pixel >>> 8) & 255;
  const a = LITTLE_ENDIAN ? pixel >>> 24 : pixel & 255;
  if (a === 255) labInto(r, g, b, out, at);
  else labInto(overWhite(r, a), overWhite(g, a), overWhite(b, a), out, at);
}

function overWhite(channel: number, alpha: number): number {
  return Math.round((channel * alpha + 255 * (255 - alpha)) / 255);
}

function grown<T extends Uint32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
