import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { UsageError } from '../core/errors.js';
import type { Rgb } from '../core/color.js';
import { pngChunks, readPng } from './png-read.js';

/** PNG's "up" row filter: each byte less the one above it, which a screen of flat areas compresses well. */
const UP_FILTER = 2;

/** The tEXt key a golden records the step it was sampled at under (`toMatchRegion`'s `step`; 1 when absent). */
export const STEP_KEY = 'phonewright-step';

/** An RGBA image in memory. */
export interface Image {
  width: number;
  height: number;
  /** RGBA, row-major, 4 bytes per pixel. */
  data: Uint8Array;
}

/**
 * Encodes an image as PNG, with `text` as tEXt chunks (keyword → value, Latin-1) after the header: how a
 * golden records how it was sampled.
 * @param fast one row filter (up) instead of the best of five per row: a whole 1080×1920 screen in ~25 ms instead
 *   of ~130 ms, for a file a few times larger. For evidence; goldens, kept in repositories, stay small.
 * @default fast false
 */
export function encodePng(image: Image, text: Record<string, string> = {}, fast = false): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const bytes = PNG.sync.write(png, fast ? { filterType: UP_FILTER } : {});
  const chunks = Object.entries(text).map(([key, value]) => pngChunk('tEXt', Buffer.from(`${key}\0${value}`, 'latin1')));
  if (!chunks.length) return bytes;
  const afterHeader = 8 + 8 + 13 + 4; // signature, then IHDR: length, type, 13 bytes, CRC
  return Buffer.concat([bytes.subarray(0, afterHeader), ...chunks, bytes.subarray(afterHeader)]);
}

/** The tEXt chunks of a PNG, keyword → value; {} for bytes that are not a PNG. */
export function pngText(bytes: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { type, body } of pngChunks(bytes)) {
    if (type === 'IDAT' || type === 'IEND') break;
    if (type !== 'tEXt') continue;
    const nul = body.indexOf(0);
    if (nul > 0) out[body.toString('latin1', 0, nul)] = body.toString('latin1', nul + 1);
  }
  return out;
}

/**
 * A PNG chunk: its length, type, body and CRC-32 (zlib's is the PNG specification's, annex D).
 * @internal exported for the PNG reader's tests
 */
export function pngChunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/**
 * Decodes a PNG; a file that is not one is a usage error naming what it was.
 * @param bytes the file's content
 * @param what how to name it in messages, e.g. the golden file's path
 * @param hint what to do about a file that is not one
 */
export function decodePng(bytes: Buffer, what: string, hint = 'delete it and run with --update-snapshots to write it again'): Image {
  try {
    return readPng(bytes);
  } catch (e) {
    throw new UsageError(`${what} is not a readable PNG (${(e as Error).message})`, { hint });
  }
}

/** A new image filled with one colour. */
export function solidImage(width: number, height: number, color: Rgb): Image {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = color.r;
    data[i + 1] = color.g;
    data[i + 2] = color.b;
    data[i + 3] = 255;
  }
  return { width, height, data };
}
