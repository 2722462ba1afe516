// sampleRegion with `resume`: a sample cut short by a failed read is finished by the next one, which reads only
// the pixels it lacks; a complete sample starts the next one afresh.
import { expect, test } from '../helpers/test.js';
import type { Pixel } from '../../src/client/index.js';
import { formatColor } from '../../src/core/color.js';
import { parseDeviceId } from '../../src/core/device-id.js';
import { PartialRegion, RegionGrid, type Rect } from '../../src/image/index.js';
import { sampleRegion } from '../../src/phone/screen.js';

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

test('a failed sample reads on and keeps what it read: the next one reads only what failed, and the image is whole', async () => {
  const shade = (x: number, y: number) => x * 7 + y;
  let broken = true;
  const p = phone(shade, (x, y) => broken && (x === 13 || y === 24));
  const partial = new PartialRegion(new RegionGrid(RECT));

  await expect(sampleRegion(p, PHONE, RECT, { resume: partial, concurrency: 4 })).rejects.toThrow(/no answer for/);
  expect(p.reads, 'every pixel was asked for').toHaveLength(PIXELS);

  broken = false;
  const image = await sampleRegion(p, PHONE, RECT, { resume: partial, concurrency: 4 });
  // Column 13 (five pixels) and row 24 (six, one of them in column 13) failed: ten reads again.
  expect(p.reads.slice(PIXELS).sort()).toEqual([...['13,20', '13,21', '13,22', '13,23'], ...[10, 11, 12, 13, 14, 15].map((x) => `${x},24`)].sort());
  expect(shades(image.data)).toEqual(expected(shade));
});

test('without resume, the first read that fails for good ends the sample', async () => {
  const p = phone(() => 0, (x, y) => x === 10 && y === 20);
  await expect(sampleRegion(p, PHONE, RECT, { concurrency: 1 })).rejects.toThrow('no answer for (10, 20)');
  expect(p.reads).toEqual(['10,20']);
});

test('a complete sample empties the partial: the next sample reads every pixel again, and sees the new screen', async () => {
  let paint = 1;
  const p = phone(() => paint);
  const partial = new PartialRegion(new RegionGrid(RECT));
  await sampleRegion(p, PHONE, RECT, { resume: partial });
  paint = 2;
  const again = await sampleRegion(p, PHONE, RECT, { resume: partial });
  expect(p.reads).toHaveLength(2 * PIXELS);
  expect(new Set(shades(again.data))).toEqual(new Set([2]));
});

test('a partial of another region is refused', async () => {
  const partial = new PartialRegion(new RegionGrid({ ...RECT, width: 5 }));
  await expect(sampleRegion(phone(() => 0), PHONE, RECT, { resume: partial })).rejects.toThrow(/cannot resume/);
});

test('step reads every n-th pixel on both axes; a mask is not read and shows its colour', async () => {
  const shade = (x: number, y: number) => x + y;
  const p = phone(shade);
  // 6×5 at step 2: columns 10, 12, 14 and rows 20, 22, 24; the mask covers (12..13, 20..23).
  const image = await sampleRegion(p, PHONE, RECT, { step: 2, mask: [{ x: 12, y: 20, width: 2, height: 4 }], maskColor: { r: 1, g: 2, b: 3 } });
  expect([image.width, image.height]).toEqual([3, 3]);
  expect(p.reads.sort()).toEqual(['10,20', '10,22', '10,24', '12,24', '14,20', '14,22', '14,24'].sort());
  const px = (i: number) => Array.from(image.data.subarray(i * 4, i * 4 + 3));
  expect(px(0)).toEqual([30, 30, 30]);
  expect(px(1)).toEqual([1, 2, 3]); // (12, 20), masked
  expect(px(4)).toEqual([1, 2, 3]); // (12, 22), masked
  expect(px(7)).toEqual([36, 36, 36]); // (12, 24)
});

test('bad steps, masks and regions are refused before any read, saying what to write', () => {
  expect(() => new RegionGrid({ ...RECT, x: -1 })).toThrow('invalid region {"x":-1,"y":20,"width":6,"height":5}: expected whole numbers { x, y, width, height } with width and height ≥ 1');
  expect(() => new RegionGrid({ ...RECT, height: 0 })).toThrow('invalid region');
  expect(() => new RegionGrid(RECT, { step: 0 })).toThrow('invalid step 0: expected a whole number ≥ 1');
  expect(() => new RegionGrid(RECT, { step: 1.5 })).toThrow('invalid step 1.5');
  expect(() => new RegionGrid(RECT, { mask: [{ x: 0, y: 0, width: 5, height: 5 }] })).toThrow(/mask rectangle .* lies outside the region/);
  expect(() => new RegionGrid(RECT, { mask: [{ x: 10, y: 20, width: 0, height: 5 }] })).toThrow('invalid mask rectangle');
});

test('sampling refuses a region of more reads than it takes, before any read; a larger step brings it within bounds', async () => {
  const p = phone(() => 0);
  await expect(sampleRegion(p, PHONE, { x: 0, y: 0, width: 1024, height: 1024 })).rejects.toThrow(/1048576 pixel reads: too many, each is one service call on a server without screen capture/);
  expect(p.reads).toHaveLength(0);
  expect(new RegionGrid({ x: 0, y: 0, width: 1024, height: 1024 }, { step: 4 })).toMatchObject({ width: 256, height: 256 });
});
