// The simulator's JPEG encoder (src/simulator/jpeg.ts): what it writes decodes, with a decoder of its own (jpeg-js)
// and with ffmpeg's, to the pixels it was given, whatever the size (not a multiple of the 8×8 block) and however busy
// the picture; a block of one colour comes back as that colour.
import { spawnSync } from 'node:child_process';
import { decode as decodeJpeg } from 'jpeg-js';
import { encodeJpeg } from '../../src/simulator/jpeg.js';
import { encoderPath } from '../../src/video/index.js';
import { expect, test } from '../helpers/test.js';

type Paint = (x: number, y: number) => [number, number, number];
/** A seeded generator, so the busy picture is the same in every run. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) >>> 0) >>> 8) / 16_777_216;
}
const noise = lcg(7);

const CASES: [name: string, width: number, height: number, paint: Paint, meanBelow: number][] = [
  ['one pixel', 1, 1, () => [200, 30, 90], 2],
  ['flat bars, 9×17', 9, 17, (_x, y) => (y < 8 ? [16, 24, 32] : [37, 66, 92]), 2],
  ['a drawn screen, 721×500', 721, 500, (x, y) => (y < 48 ? [16, 24, 32] : x > 100 && x < 244 && y > 140 && y < 284 ? [229, 57, 53] : [37, 66, 92]), 1],
  ['a gradient', 64, 40, (x, y) => [x * 4, y * 6, (x + y) * 2], 2],
  ['noise, 33×19', 33, 19, () => [(noise() * 256) | 0, (noise() * 256) | 0, (noise() * 256) | 0], 12],
];

for (const [name, width, height, paint, meanBelow] of CASES) {
  test(`decodes to its pixels: ${name}`, () => {
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const [r, g, b] = paint(x, y);
        rgba.set([r, g, b, 255], (y * width + x) * 4);
      }
    }
    const jpeg = encodeJpeg(rgba, width, height, 90);
    const decoded = decodeJpeg(jpeg, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([width, height]);
    let sum = 0;
    for (let i = 0; i < rgba.length; i++) if (i % 4 !== 3) sum += Math.abs(decoded.data[i]! - rgba[i]!);
    expect(sum / (width * height * 3), name).toBeLessThan(meanBelow);
    // A corner of one colour (every case but the noise starts with one) comes back within a level or two.
    if (!name.startsWith('noise')) for (let c = 0; c < 3; c++) expect(Math.abs(decoded.data[c]! - rgba[c]!), name).toBeLessThanOrEqual(2);
    // ffmpeg reads it too, with no complaint: it is what films are encoded from.
    const ff = spawnSync(encoderPath(), ['-hide_banner', '-loglevel', 'error', '-f', 'image2pipe', '-c:v', 'mjpeg', '-i', '-', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { input: jpeg, maxBuffer: 1 << 24 });
    expect(ff.stderr.toString(), name).toBe('');
    expect(ff.stdout.length, name).toBe(width * height * 3);
  });
}
