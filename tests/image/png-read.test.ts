// Reading PNGs: phonewright's own reader of screen captures (8-bit RGB or RGBA, not interlaced) gives exactly
// the pixels pngjs gives, for every row filter, odd sizes and split IDAT chunks; every other form and every
// broken file goes to pngjs, so it decodes or fails as pngjs does.
import { deflateSync, inflateSync } from 'node:zlib';
import { expect, test } from '../helpers/test.js';
import { PNG } from 'pngjs';
import { pngChunks, readPlainPng, readPng } from '../../src/image/png-read.js';
import { encodePng, pngChunk, pngText } from '../../src/image/png.js';

/** An image of `width`×`height` whose bytes vary in every direction (a seeded walk), alpha included where asked. */
function pixels(width: number, height: number, alpha: boolean): PNG {
  const png = new PNG({ width, height, colorType: alpha ? 6 : 2, inputHasAlpha: true });
  let seed = width * 31 + height;
  for (let i = 0; i < png.data.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    // Runs of equal bytes beside noise, so that every filter has something to predict.
    png.data[i] = i % 4 === 3 && !alpha ? 255 : (seed >>> 16) % 7 === 0 ? 0x20 : seed >>> 24;
  }
  return png;
}

/** The file's chunks: [type, body]. */
function chunks(bytes: Buffer): [string, Buffer][] {
  return [...pngChunks(bytes)].map((c) => [c.type, c.body]);
}

/** A PNG file of these chunks, each with its CRC. */
function file(parts: [string, Buffer][]): Buffer {
  return Buffer.concat([bytesOf(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), ...parts.map(([type, body]) => pngChunk(type, body))]);
}

const bytesOf = (...b: number[]) => Buffer.from(b);

/** The same file with its IDAT cut into pieces of `size` bytes. */
function splitIdat(bytes: Buffer, size: number): Buffer {
  return file(
    chunks(bytes).flatMap(([type, body]): [string, Buffer][] => {
      if (type !== 'IDAT') return [[type, body]];
      const pieces: [string, Buffer][] = [];
      for (let at = 0; at < body.length; at += size) pieces.push(['IDAT', body.subarray(at, at + size)]);
      return pieces;
    }),
  );
}

/** The same file with one chunk's body changed (its CRC made anew). */
function withChunk(bytes: Buffer, type: string, change: (body: Buffer) => Buffer): Buffer {
  return file(chunks(bytes).map(([t, body]): [string, Buffer] => [t, t === type ? change(Buffer.from(body)) : body]));
}

/** pngjs's answer: its pixels, or the message it throws. */
function pngjs(bytes: Buffer): { width: number; height: number; data: number[] } | string {
  try {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: [...png.data] };
  } catch (e) {
    return (e as Error).message;
  }
}

/** readPng's answer, in the same terms. */
function ours(bytes: Buffer): { width: number; height: number; data: number[] } | string {
  try {
    const image = readPng(bytes);
    return { width: image.width, height: image.height, data: [...image.data] };
  } catch (e) {
    return (e as Error).message;
  }
}

const SIZES: [number, number][] = [[1, 1], [3, 2], [17, 5], [64, 48]];
// 0 none, 1 sub, 2 up, 3 average, 4 Paeth, and pngjs's default: the best of the five chosen row by row.
const FILTERS: (number | undefined)[] = [0, 1, 2, 3, 4, undefined];

for (const alpha of [false, true]) {
  for (const filterType of FILTERS) {
    test(`${alpha ? 'RGBA' : 'RGB'}, row filter ${filterType ?? 'chosen per row'}: the pixels pngjs reads, read without it`, () => {
      for (const [width, height] of SIZES) {
        const bytes = PNG.sync.write(pixels(width, height, alpha), { colorType: alpha ? 6 : 2, ...(filterType === undefined ? {} : { filterType }) });
        expect(readPlainPng(bytes), `${width}×${height}`).toBeDefined();
        expect(ours(bytes), `${width}×${height}`).toEqual(pngjs(bytes));
      }
    });
  }
}

test('IDAT in many chunks, and text chunks beside the pixels: read without pngjs, the same pixels', () => {
  const bytes = encodePng(pixels(37, 11, true), { 'phonewright-step': '3' });
  for (const size of [1, 7, 100]) {
    const split = splitIdat(bytes, size);
    expect(readPlainPng(split), `IDAT of ${size} bytes`).toBeDefined();
    expect(ours(split)).toEqual(pngjs(bytes));
  }
});

test('other forms go to pngjs: palette, grey, 16 bits, interlaced, a transparent colour', () => {
  const rgb = PNG.sync.write(pixels(9, 4, false), { colorType: 2 });
  const header = (colorType: number) => Buffer.concat([bytesOf(0, 0, 0, 3, 0, 0, 0, 2), bytesOf(8, colorType, 0, 0, 0)]);
  const forms: [string, Buffer][] = [
    ['palette', file([['IHDR', header(3)], ['PLTE', bytesOf(0x25, 0x42, 0x5c, 0xff, 0xff, 0xff)], ['IDAT', deflateSync(bytesOf(0, 0, 1, 0, 0, 1, 1, 0))], ['IEND', Buffer.alloc(0)]])],
    ['grey', PNG.sync.write(pixels(9, 4, false), { colorType: 0 })],
    ['grey with alpha', PNG.sync.write(pixels(9, 4, true), { colorType: 4 })],
    ['16 bits', PNG.sync.write(pixels(9, 4, true), { colorType: 6, bitDepth: 16 })],
    // The same bytes said to be interlaced: pngjs reads them as Adam7 passes (or refuses them).
    ['interlaced', withChunk(rgb, 'IHDR', (b) => (b[12] = 1, b))],
    // tRNS on truecolour names one colour transparent: pngjs gives its pixels alpha 0.
    ['a transparent colour', file([...chunks(rgb).slice(0, 1), ['tRNS', bytesOf(0, 0x20, 0, 0x20, 0, 0x20)], ...chunks(rgb).slice(1)])],
  ];
  for (const [name, bytes] of forms) {
    expect(readPlainPng(bytes), name).toBeUndefined();
    expect(ours(bytes), name).toEqual(pngjs(bytes));
  }
});

test('a broken file fails as pngjs fails it: bad CRC, cut short, a filter byte out of range, no IEND, not a PNG', () => {
  const bytes = PNG.sync.write(pixels(17, 5, true), { filterType: 4 });
  const idat = bytes.indexOf('IDAT', 0, 'latin1');
  const badCrc = Buffer.from(bytes);
  badCrc[idat + 4 + bytes.readUInt32BE(idat - 4)]! ^= 0xff;
  const broken: [string, Buffer][] = [
    ['a bad CRC', badCrc],
    ['cut short', bytes.subarray(0, idat + 20)],
    ['a filter byte out of range', withChunk(bytes, 'IDAT', (b) => {
      const rows = inflateSync(b);
      rows[(17 * 4 + 1) * 2] = 9; // the third row's filter: there are five (0–4)
      return deflateSync(rows);
    })],
    ['no IEND', bytes.subarray(0, bytes.length - 12)],
    ['not a PNG', Buffer.from('GIF89a, not a PNG at all, and long enough to look at')],
  ];
  for (const [name, file] of broken) {
    expect(readPlainPng(file), name).toBeUndefined();
    const theirs = pngjs(file);
    expect(ours(file), name).toEqual(theirs);
  }
});

test('text chunks: each keyword and value of those before the pixels; none from bytes that are not a PNG or from a chunk cut short', () => {
  const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16) }, { 'phonewright-step': '1', 'phonewright-cut-on': '160x120' });
  expect(pngText(png)).toEqual({ 'phonewright-step': '1', 'phonewright-cut-on': '160x120' });
  expect(pngText(Buffer.from('not a png, though long enough to hold a chunk or two'))).toEqual({});
  const [signature, header, text] = [png.subarray(0, 8), png.subarray(8, 33), png.subarray(33)];
  // The first text chunk whole but for its CRC: a file cut there holds no chunk to read.
  expect(text.toString('latin1', 4, 8 + 'phonewright-step'.length)).toBe('tEXtphonewright-step');
  expect(pngText(Buffer.concat([signature, header, text.subarray(0, 8 + 'phonewright-step\u00001'.length)]))).toEqual({});
});
