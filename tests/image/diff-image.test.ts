// What a failed region comparison draws, pixel by pixel: red where a pixel differs beyond the bound (the
// stronger the farther), yellow on an anti-aliased edge (not counted), faded grey everywhere else, including
// pixels that differ within the bound.
import { expect, test } from '../helpers/test.js';
import type { Rgb } from '../../src/core/color.js';
import { deltaE } from '../../src/core/delta-e.js';
import { compareImages, solidImage, type Image } from '../../src/image/index.js';

const WHITE = { r: 255, g: 255, b: 255 };
const BLACK = { r: 0, g: 0, b: 0 };
const EDGE = { r: 128, g: 128, b: 128 };
const RED = { r: 200, g: 40, b: 40 };

function painted(image: Image, cells: [number, number][], color: Rgb): Image {
  const out = { ...image, data: image.data.slice() };
  for (const [x, y] of cells) out.data.set([color.r, color.g, color.b, 255], (y * image.width + x) * 4);
  return out;
}
const rect = (x: number, y: number, width: number, height: number) =>
  Array.from({ length: width * height }, (_, i): [number, number] => [x + (i % width), y + Math.floor(i / width)]);

type Mark = 'red' | 'yellow' | 'grey';
/** How the diff shows each pixel. */
function marks(diff: Image): Mark[] {
  const out: Mark[] = [];
  for (let i = 0; i < diff.data.length; i += 4) {
    const [r, g, b, a] = diff.data.subarray(i, i + 4);
    expect(a).toBe(255);
    // Faded grey: pixelmatch's alpha 0.1 leaves a tenth of the golden's darkness, so never below 229.
    if (r === g && g === b && r! >= 229) out.push('grey');
    else if (r === 255 && g === 255 && b === 0) out.push('yellow');
    else if (r === 255 && g === b && g! < 255) out.push('red');
    else throw new Error(`pixel ${i / 4} is drawn ${[r, g, b]}`);
  }
  return out;
}

// A black bar three pixels wide on white (columns 6–8); the screen now has a grey column beside it (column 9:
// a font or a shape rendered with a soft edge) and a red block the golden lacks (columns 14–15, rows 3–7).
const GOLDEN = painted(solidImage(20, 12, WHITE), rect(6, 0, 3, 12), BLACK);
const SOFT_EDGE = painted(GOLDEN, rect(9, 0, 1, 12), EDGE);
const BLOCK = rect(14, 3, 2, 5);

test('an anti-aliased edge is not counted: the edge alone matches, beside a real change it is drawn yellow', () => {
  expect(deltaE(WHITE, EDGE)).toBeGreaterThan(2.3);
  expect(compareImages(GOLDEN, SOFT_EDGE)).toBeNull();
  const mismatch = compareImages(GOLDEN, painted(SOFT_EDGE, BLOCK, RED));
  expect(mismatch!.diffPixels).toBe(10);
  expect(mismatch!.errorMessage).toMatch(/^10 pixels \(4\.17% of 20×12\) are different by more than ΔE00 2\.3 \(largest [\d.]+\); 0 allowed\. 12 more on anti-aliased edges, not counted\.$/);
  const seen = marks(mismatch!.diff!);
  seen.forEach((mark, i) => {
    const [x, y] = [i % 20, Math.floor(i / 20)];
    const expected = BLOCK.some(([bx, by]) => bx === x && by === y) ? 'red' : x === 9 ? 'yellow' : 'grey';
    expect(mark, `(${x}, ${y})`).toBe(expected);
  });
});

test('the diff marks exactly the pixels beyond the bound, redder the farther; a pixel within it stays grey', () => {
  const grey = { r: 128, g: 128, b: 128 };
  const golden = solidImage(12, 12, grey);
  const slight = { r: 138, g: 124, b: 126 };
  const within = { r: 129, g: 128, b: 128 };
  const now = painted(painted(painted(golden, [[2, 2]], slight), [[8, 8]], RED), [[5, 10]], within);
  expect(deltaE(grey, slight)).toBeGreaterThan(2.3);
  expect(deltaE(grey, slight)).toBeLessThan(10);
  expect(deltaE(grey, within)).toBeLessThan(1);
  const mismatch = compareImages(golden, now)!;
  expect(mismatch.diffPixels).toBe(2);
  const seen = marks(mismatch.diff!);
  expect(seen.flatMap((m, i) => (m === 'red' ? [i] : []))).toEqual([2 * 12 + 2, 8 * 12 + 8]);
  const green = (x: number, y: number) => mismatch.diff!.data[(y * 12 + x) * 4 + 1]!;
  expect(green(2, 2)).toBeGreaterThan(green(8, 8));
  // Faded grey as pixelmatch draws alike pixels: the golden's brightness, nearly white.
  expect(Array.from(mismatch.diff!.data.subarray((10 * 12 + 5) * 4, (10 * 12 + 5) * 4 + 4))).toEqual(Array.from(mismatch.diff!.data.subarray(0, 4)));
  expect(mismatch.diff!.data[0]).toBeGreaterThan(220);
  // deltaE 0 counts the pixel within the bound too.
  expect(compareImages(golden, now, { deltaE: 0 })!.diffPixels).toBe(3);
});
