import { test, expect, capturesScreen } from 'phonewright/fixtures';
import { modelOf } from './phones';

// Home-screen pixels and images: the status bar, the wallpaper, the dock and the chat app in it, on every phone
// of the matrix. Places are fractions of the screen and the chat app is an image, so one spec fits every size
// and orientation; only the wallpaper's colour differs per model (specs/phones.ts).
test.describe('home screen', () => {
  test('status bar is dark', async ({ device }) => {
    await device.expectPixel(5, 5).toBe('0x101820');
  });

  test('wallpaper shows at its point', async ({ device }, testInfo) => {
    const { wallpaper } = modelOf(testInfo.project.name);
    // Left of the app grid, halfway down: wallpaper on a phone and on a tablet, upright or on its side.
    await device.expectPixel('2%', '50%').toBe(wallpaper);
    await expect(device).toHavePixel('2%', '50%', wallpaper);
  });

  test('dock sits at the bottom edge', async ({ device }) => {
    await device.expectPixel('0%', '100%', { tolerance: 6 }).toBe('#1c2b36');
    await device.expectPixel('0%', '100%').not.toBe('0x000000');
  });

  test('the screen is not blank', async ({ device }) => {
    const corner = await device.pixel(0, 0);
    const middle = await device.pixel(40, 40);
    expect(corner.rgb !== middle.rgb || corner.rgb !== '0x000000').toBe(true);
  });

  test('the chat app is in the dock', async ({ device }) => {
    test.skip(!(await capturesScreen(device)), "images are looked for on the vendor's screen capture, which this server does not offer");
    // Cut on the galaxy-s9 (1080 wide, recorded in the file), found at each phone's own scale.
    await expect(device).toShow('images/chat-app.png');
    const icon = await device.locate('images/chat-app.png');
    expect(icon.center.y / device.screen!.height, 'in the bottom fifth: the dock').toBeGreaterThan(0.8);
  });
});
