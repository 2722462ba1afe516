import { crc32, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { Image } from './png.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** IHDR colour types read here: 2 truecolour (RGB), 6 truecolour with alpha (RGBA); bytes per pixel at 8 bits. */
const BYTES_PER_PIXEL: Record<number, number> = { 2: 3, 6: 4 };
/**
 * Chunks that leave the pixels as IDAT has them (text, time, density, colour space: pngjs reads none of them into
 * the pixels either). Any other (a palette, tRNS's transparent colour, sBIT, bKGD, one nobody knows) goes to pngjs.
 */
const INERT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'tIME', 'pHYs', 'gAMA', 'cHRM', 'sRGB', 'iCCP']);

/**
 * Decodes a PNG into RGBA, as pngjs's `PNG.sync.read` does, byte for byte. A phone's screen capture is 8-bit
 * RGB or RGBA, not interlaced: that form is read here, two to three times faster than pngjs (a 1080×1920
 * screen in ~20 ms instead of 50–70: pngjs unfilters through a chain of stream callbacks), with every chunk's
 * CRC checked as pngjs checks it. Any other form, or a file that is not right, is left to pngjs, whose errors
 * (thrown) say what is wrong.
 * @param bytes the file's content
 */
export function readPng(bytes: Buffer): Image {
  const fast = readPlainPng(bytes);
  if (fast) return fast;
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/**
 * The image of an 8-bit RGB(A), non-interlaced PNG whose chunks all check out; undefined for anything else.
 * @internal exported for its tests: which files take the fast path
 */
export function readPlainPng(bytes: Buffer): Image | undefined {
  if (bytes.length < 8 + 25) return undefined;
  let header: { width: number; height: number; bpp: number } | undefined;
  const idat: Buffer[] = [];
  for (const chunk of pngChunks(bytes)) {
    const { type, body } = chunk;
    if (crc32(chunk.checked) !== chunk.crc) return undefined;
    if (type === 'IHDR') {
      if (header || body.length !== 13) return undefined;
      const [depth, colorType, compression, filter, interlace] = body.subarray(8, 13);
      const bpp = BYTES_PER_PIXEL[colorType!];
      if (depth !== 8 || !bpp || compression !== 0 || filter !== 0 || interlace !== 0) return undefined;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), bpp };
      if (!header.width || !header.height) return undefined;
    } else if (type === 'IDAT') {
      if (!header) return undefined;
      idat.push(body);
    } else if (type === 'IEND') {
      return header && idat.length ? unfiltered(header, idat) : undefined;
    } else if (!header || !INERT_CHUNKS.has(type)) {
      return undefined;
    }
  }
  // The file ended, or broke off, before IEND.
  return undefined;
}

/** A chunk of a PNG file: its type, its body, the bytes its CRC covers (type and body) and the CRC it carries. */
export interface PngChunk {
  type: string;
  body: Buffer;
  checked: Buffer;
  crc: number;
}

/**
 * The chunks of a PNG file, in order, up to the first that the file does not hold whole; none when the file does
 * not open with PNG's signature. CRCs are not checked here: whoever reads the chunk decides.
 * @internal also walked by png.ts's pngText
 */
export function* pngChunks(bytes: Buffer): Generator<PngChunk> {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) return;
  for (let at = 8; at + 12 <= bytes.length; ) {
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) return;
    yield { type: bytes.toString('latin1', at + 4, at + 8), body: bytes.subarray(at + 8, end - 4), checked: bytes.subarray(at + 4, end - 4), crc: bytes.readUInt32BE(end - 4) };
    at = end;
  }
}

/** The pixels of IDAT's stream: inflated, each row unfiltered (PNG specification, section 9), as RGBA. */
function unfiltered({ width, height, bpp }: { width: number; height: number; bpp: number }, idat: Buffer[]): Image | undefined {
  let raw: Buffer;
  try {
    raw = inflateSync(idat.length === 1 ? idat[0]! : Buffer.concat(idat));
  } catch {
    return undefined;
  }
  const stride = width * bpp;
  if (raw.length < (stride + 1) * height) return undefined;
  const data = new Uint8Array(width * height * 4);
  // Rows are unfiltered in place: each filter reads the row above and the bytes to the left, already unfiltered.
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const up = row - stride - 1;
    const filter = raw[row - 1];
    if (filter === 1) {
      for (let i = bpp; i < stride; i++) raw[row + i] = (raw[row + i]! + raw[row + i - bpp]!) & 0xff;
    } else if (filter === 2) {
      if (y > 0) for (let i = 0; i < stride; i++) raw[row + i] = (raw[row + i]! + raw[up + i]!) & 0xff;
    } else if (filter === 3) {
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? raw[row + i - bpp]! : 0;
        const above = y > 0 ? raw[up + i]! : 0;
        raw[row + i] = (raw[row + i]! + ((left + above) >> 1)) & 0xff;
      }
    } else if (filter === 4) {
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? raw[row + i - bpp]! : 0;
        const b = y > 0 ? raw[up + i]! : 0;
        const c = i >= bpp && y > 0 ? raw[up + i - bpp]! : 0;
        raw[row + i] = (raw[row + i]! + paeth(a, b, c)) & 0xff;
      }
    } else if (filter !== 0) {
      return undefined;
    }
    if (bpp === 4) {
      data.set(raw.subarray(row, row + stride), y * width * 4);
    } else {
      for (let i = row, o = y * width * 4, last = row + stride; i < last; i += 3, o += 4) {
        data[o] = raw[i]!;
        data[o + 1] = raw[i + 1]!;
        data[o + 2] = raw[i + 2]!;
        data[o + 3] = 255;
      }
    }
  }
  return { width, height, data };
}

/** The Paeth predictor: of left, above and upper left, the one nearest to left + above − upper left. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
