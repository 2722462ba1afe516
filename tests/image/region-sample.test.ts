// sampleRegion with `resume`: a sample cut short by a failed read is finished by the next one, which reads only
// the pixels it lacks; a complete sample starts the next one afresh.
import { expect, test } from '@playwright/test';
import type { Pixel } from '../../src/client/index.js';
import { formatColor } from '../../src/core/color.js';
import { parseDeviceId } from '../../src/core/device-id.js';
import { PartialRegion, sampleRegion, type Rect } from '../../src/image/index.js';

const PHONE = parseDeviceId('device@6001');
const RECT: Rect = { x: 10, y: 20, width: 6, height: 5 };
const PIXELS = RECT.width * RECT.height;

/** A phone whose screen is `shade(x, y)`, which fails the reads `fails` says to, and logs every read. */
function phone(shade: (x: number, y: number) => number, fails: (x: number, y: number) => boolean = () => false) {
  const reads: string[] = [];
  return {
    reads,
    pixel: async (_device: unknown, x: number, y: number): Promise<Pixel> => {
      reads.push(`${x},${y}`);
      await new Promise((r) => setImmediate(r));
      if (fails(x, y)) throw new Error(`no answer for (${x}, ${y})`);
      return grey(shade(x, y));
    },
  };
}

const grey = (v: number): Pixel => ({ r: v, g: v, b: v, rgb: formatColor({ r: v, g: v, b: v }) });
const shades = (data: Uint8Array) => Array.from({ length: data.length / 4 }, (_, i) => data[i * 4]);
const expected = (shade: (x: number, y: number) => number) =>
  Array.from({ length: PIXELS }, (_, i) => shade(RECT.x + (i % RECT.width), RECT.y + Math.floor(i / RECT.width)));

test('a failed sample keeps what it read: the next one reads only the rest, and the image is whole', async () => {
  const shade = (x: number, y: number) => x * 7 + y;
  let broken = true;
  const p = phone(shade, (x, y) => broken && x === 13 && y === 22);
  const partial = new PartialRegion(RECT);

  await expect(sampleRegion(p, PHONE, RECT, { resume: partial, concurrency: 1 })).rejects.toThrow('no answer for (13, 22)');
  const first = p.reads.length;
  expect(first).toBe(2 * RECT.width + 4); // rows 20 and 21, then (10..13, 22)

  broken = false;
  const image = await sampleRegion(p, PHONE, RECT, { resume: partial, concurrency: 4 });
  expect(p.reads.length - first, 'the second sample reads the pixels the first lacked').toBe(PIXELS - first + 1);
  expect(shades(image.data)).toEqual(expected(shade));
});

test('a complete sample empties the partial: the next sample reads every pixel again, and sees the new screen', async () => {
  let paint = 1;
  const p = phone(() => paint);
  const partial = new PartialRegion(RECT);
  await sampleRegion(p, PHONE, RECT, { resume: partial });
  paint = 2;
  const again = await sampleRegion(p, PHONE, RECT, { resume: partial });
  expect(p.reads).toHaveLength(2 * PIXELS);
  expect(new Set(shades(again.data))).toEqual(new Set([2]));
});

test('a read a failed sample left in flight does not land in a later image', async () => {
  // (10, 20) answers late: after the first sample failed, the second completed and the screen changed.
  let paint = 1;
  let release!: () => void;
  const late = new Promise<void>((r) => (release = r));
  let calls = 0;
  const p = {
    pixel: async (): Promise<Pixel> => {
      calls++;
      const v = paint;
      if (calls === 1) await late; // the first sample's first read, answered late with the old screen
      if (calls === 2) throw new Error('reset');
      return grey(v);
    },
  };
  const partial = new PartialRegion(RECT);
  const first = sampleRegion(p, PHONE, RECT, { resume: partial, concurrency: 2 });
  await expect(first).rejects.toThrow('reset');
  await sampleRegion(p, PHONE, RECT, { resume: partial });
  paint = 3;
  release();
  await new Promise((r) => setImmediate(r));
  const third = await sampleRegion(p, PHONE, RECT, { resume: partial });
  expect(new Set(shades(third.data))).toEqual(new Set([3]));
});

test('a partial of another region is refused', async () => {
  const partial = new PartialRegion({ ...RECT, width: 5 });
  await expect(sampleRegion(phone(() => 0), PHONE, RECT, { resume: partial })).rejects.toThrow(/cannot resume/);
});
