// The blocks a screen is cut into before its text is read: a page of rows and columns of one colour around a
// title, a button and the text inside the button; nothing cut where there is no such gap.
import { cropWithMargin, textBlocks } from '../../src/image/ocr-layout.js';
import { solidImage, type Image } from '../../src/image/index.js';
import { expect, test } from '../helpers/test.js';

const WHITE = { r: 255, g: 255, b: 255 };
const INK = { r: 32, g: 33, b: 36 };
const BLUE = { r: 26, g: 115, b: 232 };

function paint(image: Image, x: number, y: number, width: number, height: number, c: { r: number; g: number; b: number }): void {
  for (let j = y; j < y + height; j++) {
    for (let i = x; i < x + width; i++) image.data.set([c.r, c.g, c.b, 255], (j * image.width + i) * 4);
  }
}

/**
 * "Text" as a row of glyph-like bars on `ground`: each 4 px wide, 3 px apart (narrower gaps than the band's
 * height), with a notch of the ground at a height that differs from its neighbours', as letters differ.
 */
function text(image: Image, x: number, y: number, letters: number, height: number, c: { r: number; g: number; b: number }, ground: { r: number; g: number; b: number }): void {
  for (let k = 0; k < letters; k++) {
    paint(image, x + k * 7, y, 4, height, c);
    paint(image, x + k * 7, y + 2 + (k % 3) * 3, 4, 1, ground);
  }
}

test('a title, and a button with its text, on a page: the title, and the text inside the button, each a block', () => {
  const page = solidImage(200, 120, WHITE);
  text(page, 20, 10, 8, 12, INK, WHITE); // a title: 20..73 × 10..22
  paint(page, 20, 60, 160, 40, BLUE); // a button
  text(page, 70, 74, 5, 12, WHITE, BLUE); // its text: 70..102 × 74..86
  expect(textBlocks(page)).toEqual([
    { x: 20, y: 10, width: 53, height: 12 },
    { x: 70, y: 74, width: 32, height: 12 },
  ]);
});

test('a screen of no rows or columns of one colour is one block; a one-colour screen none', () => {
  const noisy = solidImage(40, 30, WHITE);
  for (let i = 0; i < noisy.data.length; i += 4) noisy.data[i] = (i * 37) % 256;
  expect(textBlocks(noisy)).toEqual([{ x: 0, y: 0, width: 40, height: 30 }]);
  expect(textBlocks(solidImage(40, 30, BLUE))).toEqual([]);
});

test('words on one line stay one block: a space is no column gap', () => {
  const page = solidImage(120, 40, WHITE);
  text(page, 10, 10, 3, 14, INK, WHITE);
  text(page, 40, 10, 3, 14, INK, WHITE); // 12 px from the first word's last letter: less than the band's 14
  expect(textBlocks(page)).toEqual([{ x: 10, y: 10, width: 48, height: 14 }]);
});

test('a crop keeps a margin inside the image, and says where it was', () => {
  const page = solidImage(50, 40, WHITE);
  paint(page, 2, 30, 10, 8, INK);
  const { image, at } = cropWithMargin(page, { x: 2, y: 30, width: 10, height: 8 }, 6);
  expect(at).toEqual({ x: 0, y: 24, width: 18, height: 16 });
  expect([image.width, image.height]).toEqual([18, 16]);
  expect(Array.from(image.data.subarray(((6 * 18) + 2) * 4, ((6 * 18) + 2) * 4 + 4))).toEqual([32, 33, 36, 255]);
});
