// Region comparison in ΔE00: the verdict and its message, case by case (pixelmatch's diffTest shape); masked
// pixels never count and show in the mask colour; options refused before any work. The diff image and
// anti-aliased edges: diff-image.test.ts. A golden records its step in the PNG and reads it back.
import { expect, test } from '../helpers/test.js';
import pixelmatch from 'pixelmatch';
import type { Rgb } from '../../src/core/color.js';
import { deltaE } from '../../src/core/delta-e.js';
import { UsageError } from '../../src/core/errors.js';
import { compareImages, decodePng, encodePng, pngText, solidImage, type CompareOptions, type Image } from '../../src/image/index.js';

const GREY = { r: 128, g: 128, b: 128 };
const MAGENTA = { r: 255, g: 0, b: 255 };
const BLUE = { r: 0x33, g: 0x55, b: 0x77 };
const BROWN = { r: 0x77, g: 0x55, b: 0x33 };

/** `image` with `color` over the rectangle at (x, y). */
function painted(image: Image, x: number, y: number, width: number, height: number, color: Rgb): Image {
  const out = { ...image, data: image.data.slice() };
  for (let j = y; j < y + height; j++) for (let i = x; i < x + width; i++) out.data.set([color.r, color.g, color.b, 255], (j * image.width + i) * 4);
  return out;
}

/** `image` with every channel of every pixel moved by -1, 0 or +1 (a seeded walk): sensor noise. */
function noisy(image: Image): Image {
  const out = { ...image, data: image.data.slice() };
  let seed = 7;
  for (let i = 0; i < out.data.length; i++) {
    if (i % 4 === 3) continue;
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out.data[i] = out.data[i]! + ((seed >>> 16) % 3) - 1;
  }
  return out;
}

const MID = solidImage(40, 25, { r: 90, g: 140, b: 110 });
const FLAT = solidImage(10, 10, GREY);
/** Ten pixels in a 2×5 block: each has three equal neighbours or more, so none is an anti-aliased edge. */
const TEN = painted(FLAT, 3, 2, 2, 5, { r: 200, g: 40, b: 40 });
const LARGEST_TEN = deltaE(GREY, { r: 200, g: 40, b: 40 }).toFixed(1);

const CASES: { name: string; golden: Image; actual: Image; options?: CompareOptions; diffPixels: number | 'some'; message?: string }[] = [
  {
    name: 'a hue swap at equal luminance fails by default',
    golden: solidImage(80, 30, BLUE),
    actual: solidImage(80, 30, BROWN),
    diffPixels: 2400,
    message: `2400 pixels (100% of 80×30) are different by more than ΔE00 2.3 (largest ${deltaE(BLUE, BROWN).toFixed(1)}); 0 allowed.`,
  },
  { name: 'the hue swap passes a bound beyond its distance', golden: solidImage(8, 8, BLUE), actual: solidImage(8, 8, BROWN), options: { deltaE: 33 }, diffPixels: 0 },
  { name: 'noise under ΔE00 1 passes', golden: MID, actual: noisy(MID), diffPixels: 0 },
  { name: 'noise fails deltaE 0: the same bytes', golden: MID, actual: noisy(MID), options: { deltaE: 0 }, diffPixels: 'some' },
  { name: 'identical images match at deltaE 0', golden: MID, actual: { ...MID, data: MID.data.slice() }, options: { deltaE: 0 }, diffPixels: 0 },
  { name: 'ten pixels, none allowed', golden: FLAT, actual: TEN, diffPixels: 10, message: `10 pixels (10% of 10×10) are different by more than ΔE00 2.3 (largest ${LARGEST_TEN}); 0 allowed.` },
  { name: 'maxDiffPixels 10 allows ten', golden: FLAT, actual: TEN, options: { maxDiffPixels: 10 }, diffPixels: 0 },
  { name: 'maxDiffPixels 9 does not', golden: FLAT, actual: TEN, options: { maxDiffPixels: 9 }, diffPixels: 10, message: `10 pixels (10% of 10×10) are different by more than ΔE00 2.3 (largest ${LARGEST_TEN}); 9 allowed.` },
  { name: 'maxDiffPixelRatio 0.1 of 100 allows ten', golden: FLAT, actual: TEN, options: { maxDiffPixelRatio: 0.1 }, diffPixels: 0 },
  { name: 'maxDiffPixelRatio 0.09 does not', golden: FLAT, actual: TEN, options: { maxDiffPixelRatio: 0.09 }, diffPixels: 10, message: `10 pixels (10% of 10×10) are different by more than ΔE00 2.3 (largest ${LARGEST_TEN}); 9 allowed.` },
  { name: 'the larger allowance of the two wins', golden: FLAT, actual: TEN, options: { maxDiffPixels: 2, maxDiffPixelRatio: 0.1 }, diffPixels: 0 },
  {
    name: 'a see-through pixel is seen over white: a transparent golden is not an opaque black',
    golden: { width: 1, height: 1, data: new Uint8Array([0, 0, 0, 0]) },
    actual: solidImage(1, 1, { r: 0, g: 0, b: 0 }),
    diffPixels: 1,
    message: '1 pixels (100% of 1×1) are different by more than ΔE00 2.3 (largest 100.0); 0 allowed.',
  },
  {
    name: 'another size fails, with both sizes and no diff',
    golden: solidImage(4, 3, GREY),
    actual: solidImage(3, 4, GREY),
    diffPixels: 12,
    message: 'Expected an image 4px by 3px, received 3px by 4px.',
  },
];

for (const c of CASES) {
  test(`compare: ${c.name}`, () => {
    const mismatch = compareImages(c.golden, c.actual, c.options);
    if (c.diffPixels === 0) return expect(mismatch).toBeNull();
    expect(mismatch).not.toBeNull();
    if (c.diffPixels !== 'some') expect(mismatch!.diffPixels).toBe(c.diffPixels);
    else expect(mismatch!.diffPixels).toBeGreaterThan(0);
    if (c.message) expect(mismatch!.errorMessage).toBe(c.message);
    expect(mismatch!.diff === undefined).toBe(c.golden.width !== c.actual.width || c.golden.height !== c.actual.height);
  });
}

test('the hue swap is the one pixelmatch passed: YIQ at 0.2 sees no difference, ΔE00 sees 32', () => {
  const [blue, brown] = [solidImage(8, 8, BLUE), solidImage(8, 8, BROWN)];
  expect(pixelmatch(blue.data, brown.data, undefined, 8, 8, { threshold: 0.2 })).toBe(0);
  expect(deltaE(BLUE, BROWN)).toBeGreaterThan(32);
  expect(compareImages(blue, brown)?.diffPixels).toBe(64);
});

test('noise under ΔE00 1 is what the noise case sends: no pixel of it is 1 or more from the golden', () => {
  const now = noisy(MID);
  let largest = 0;
  for (let i = 0; i < now.data.length; i += 4) largest = Math.max(largest, deltaE({ r: 90, g: 140, b: 110 }, { r: now.data[i]!, g: now.data[i + 1]!, b: now.data[i + 2]! }));
  expect(largest).toBeGreaterThan(0.3);
  expect(largest).toBeLessThan(1);
});

test('masked pixels are ignored, whatever either image holds there, and painted in the mask colour in the diff', () => {
  const golden = solidImage(4, 4, GREY);
  const now = solidImage(4, 4, GREY);
  now.data.set([0, 0, 0, 255], 5 * 4); // (1, 1) changed
  const masked = new Uint8Array(16);
  masked[5] = 1;
  expect(compareImages(golden, now, {}, { masked, color: MAGENTA })).toBeNull();
  expect(compareImages(golden, now, { deltaE: 0 }, { masked, color: MAGENTA })).toBeNull();
  now.data.set([0, 0, 0, 255], 10 * 4); // (2, 2) changed too, outside the mask
  const mismatch = compareImages(golden, now, {}, { masked, color: MAGENTA });
  expect(mismatch?.diffPixels).toBe(1);
  expect(Array.from(mismatch!.diff!.data.subarray(5 * 4, 5 * 4 + 4))).toEqual([255, 0, 255, 255]);
  expect(Array.from(mismatch!.diff!.data.subarray(10 * 4, 10 * 4 + 3))).toEqual([255, 0, 0]);
  // The masked pixel of the image just taken is left as it was.
  expect(Array.from(now.data.subarray(5 * 4, 5 * 4 + 4))).toEqual([0, 0, 0, 255]);
});

const REFUSED: { options: Record<string, unknown>; message: string | RegExp }[] = [
  { options: { threshold: 0.2 }, message: /^threshold 0\.2 is no longer read: .* ΔE00.*; try: replace threshold with deltaE, .*\{ deltaE: 2\.3 \} \(the default, just noticeable\), \{ deltaE: 0 \} for the same bytes$/ },
  { options: { threshold: 0 }, message: /^threshold 0 is no longer read/ },
  { options: { threshold: 0.1, deltaE: 3 }, message: /^threshold 0\.1 is no longer read/ },
  { options: { deltaE: -1 }, message: /^invalid deltaE -1: expected a CIEDE2000 distance from 0 to 100; try: .*\{ deltaE: 2\.3 \}/ },
  { options: { deltaE: 101 }, message: /^invalid deltaE 101/ },
  { options: { deltaE: '2' }, message: /^invalid deltaE "2"/ },
  { options: { deltaE: Number.NaN }, message: /^invalid deltaE null/ },
  { options: { maxDiffPixels: 1.5 }, message: 'invalid maxDiffPixels 1.5: expected a whole number ≥ 0' },
  { options: { maxDiffPixels: -1 }, message: 'invalid maxDiffPixels -1: expected a whole number ≥ 0' },
  { options: { maxDiffPixelRatio: 2 }, message: 'invalid maxDiffPixelRatio 2: expected a number from 0 to 1' },
];

for (const r of REFUSED) {
  test(`refused before any work: ${JSON.stringify(r.options)}`, () => {
    // Images of two sizes: a comparison that did any work would return a mismatch instead of throwing.
    const call = () => compareImages(solidImage(2, 2, GREY), solidImage(3, 3, GREY), r.options as CompareOptions);
    expect(call).toThrow(UsageError);
    expect(call).toThrow(r.message);
  });
}

test('a PNG carries text chunks through encoding, and stays a PNG any decoder reads', () => {
  const bytes = encodePng(solidImage(3, 2, GREY), { 'phonewright-step': '4' });
  expect(pngText(bytes)).toEqual({ 'phonewright-step': '4' });
  const back = decodePng(bytes, 'golden.png');
  expect([back.width, back.height, ...back.data.subarray(0, 4)]).toEqual([3, 2, 128, 128, 128, 255]);
  expect(pngText(encodePng(solidImage(1, 1, GREY)))).toEqual({});
  expect(pngText(Buffer.from('not a png at all'))).toEqual({});
});
