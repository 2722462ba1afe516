// Image comparison beyond Playwright's options: masked pixels never count, and show in the mask colour in the
// diff; a golden records its step in the PNG and reads it back.
import { expect, test } from '@playwright/test';
import { compareImages, decodePng, encodePng, pngText, solidImage } from '../../src/image/index.js';

const GREY = { r: 128, g: 128, b: 128 };
const MAGENTA = { r: 255, g: 0, b: 255 };

test('masked pixels are ignored, whatever either image holds there, and painted in the mask colour in the diff', () => {
  const golden = solidImage(4, 4, GREY);
  const now = solidImage(4, 4, GREY);
  now.data.set([0, 0, 0, 255], 5 * 4); // (1, 1) changed
  const masked = new Uint8Array(16);
  masked[5] = 1;
  expect(compareImages(golden, now, {}, { masked, color: MAGENTA })).toBeNull();
  now.data.set([0, 0, 0, 255], 10 * 4); // (2, 2) changed too, outside the mask
  const mismatch = compareImages(golden, now, {}, { masked, color: MAGENTA });
  expect(mismatch?.diffPixels).toBe(1);
  expect(Array.from(mismatch!.diff!.data.subarray(5 * 4, 5 * 4 + 4))).toEqual([255, 0, 255, 255]);
  expect(Array.from(mismatch!.diff!.data.subarray(10 * 4, 10 * 4 + 3))).not.toEqual([255, 0, 255]);
});

test('a PNG carries text chunks through encoding, and stays a PNG any decoder reads', () => {
  const bytes = encodePng(solidImage(3, 2, GREY), { 'phonewright-step': '4' });
  expect(pngText(bytes)).toEqual({ 'phonewright-step': '4' });
  const back = decodePng(bytes, 'golden.png');
  expect([back.width, back.height, ...back.data.subarray(0, 4)]).toEqual([3, 2, 128, 128, 128, 255]);
  expect(pngText(encodePng(solidImage(1, 1, GREY)))).toEqual({});
  expect(pngText(Buffer.from('not a png at all'))).toEqual({});
});
