import { test, expect } from '../fixtures';
import { modelOf } from './phones';

// Home-screen pixels: the status bar, the wallpaper and the dock, on every phone of the matrix.
test.describe('home screen', () => {
  test('status bar is dark', async ({ device }) => {
    await device.expectPixel(5, 5).toBe('0x101820');
  });

  test('wallpaper shows at its point', async ({ device }, testInfo) => {
    const { wallpaper } = modelOf(testInfo.project.name);
    await device.expectPixel(wallpaper.x, wallpaper.y).toBe(wallpaper.color);
    await expect(device).toHavePixel(wallpaper.x, wallpaper.y, wallpaper.color);
  });

  test('dock sits at the bottom edge', async ({ device }) => {
    const { display_resolution: size } = await device.settings();
    await device.expectPixel(5, size.h - 5, { tolerance: 6 }).toBe('#1c2b36');
    await device.expectPixel(5, size.h - 5).not.toBe('0x000000');
  });

  test('the screen is not blank', async ({ device }) => {
    const corner = await device.pixel(0, 0);
    const middle = await device.pixel(40, 40);
    expect(corner.rgb !== middle.rgb || corner.rgb !== '0x000000').toBe(true);
  });
});
