import { PNG } from 'pngjs';
import { UsageError } from '../core/errors.js';
import type { Rgb } from '../core/color.js';

/** An RGBA image in memory. */
export interface Image {
  width: number;
  height: number;
  /** RGBA, row-major, 4 bytes per pixel. */
  data: Uint8Array;
}

/** Encodes an image as PNG. */
export function encodePng(image: Image): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return PNG.sync.write(png);
}

/**
 * Decodes a PNG; a file that is not one is a usage error naming what it was.
 * @param bytes the file's content
 * @param what how to name it in messages, e.g. the golden file's path
 */
export function decodePng(bytes: Buffer, what: string): Image {
  try {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: png.data };
  } catch (e) {
    throw new UsageError(`${what} is not a readable PNG (${(e as Error).message})`, { hint: 'delete it and run with --update-snapshots to write it again' });
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
