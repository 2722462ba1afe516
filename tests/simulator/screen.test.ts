// A screen's PNG: made once while the screen is unchanged (a check polling a still screen asks for it again and
// again), made again after a paint or a swipe, so a capture never shows a screen that was.
import { expect, test } from '../helpers/test.js';
import { decodePng } from '../../src/image/index.js';
import { Screen } from '../../src/simulator/screen.js';

const colorAt = (png: Buffer, x: number, y: number) => {
  const image = decodePng(png, 'capture');
  const o = (y * image.width + x) * 4;
  return (image.data[o]! << 16) | (image.data[o + 1]! << 8) | image.data[o + 2]!;
};

test('an unchanged screen gives the same PNG; a paint or a swipe gives one that shows it', () => {
  const screen = Screen.drawn(40, 30, 0x000000, [{ x: 0, y: 20, width: 10, height: 5, color: 0x00ff00, scrolls: true }]);
  const first = screen.toPng();
  expect(screen.toPng(), 'not encoded again').toBe(first);
  const corner = screen.toPng({ x1: 0, y1: 0, x2: 10, y2: 10 });
  expect(decodePng(corner, 'capture').width, 'another rectangle, its own PNG').toBe(10);

  screen.fillRect({ x: 5, y: 5, width: 2, height: 2, color: 0xff0000 });
  const painted = screen.toPng({ x1: 0, y1: 0, x2: 10, y2: 10 });
  expect(colorAt(painted, 5, 5)).toBe(0xff0000);
  expect(colorAt(screen.toPng(), 5, 5)).toBe(0xff0000);

  screen.scroll(0, -20);
  const swiped = screen.toPng();
  expect([colorAt(swiped, 1, 1), colorAt(swiped, 1, 21)], 'the list moved up').toEqual([0x00ff00, 0x000000]);
});
