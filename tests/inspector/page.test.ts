// `phonewright inspect` as a tester uses it, on the simulator: the live screen, a click that reads the point
// under the pointer at every zoom, arrow keys, the suggested deltaE, taps. Chromium drives the page.
import { decodePng } from '../../src/image/index.js';
import { deltaE } from '../../src/core/delta-e.js';
import { parseColor } from '../../src/core/color.js';
import type { ScenarioInput } from '../../src/simulator/index.js';
import { on } from '../cli/helpers.js';
import { canvasPixels, clickPixel, expect, needsChromium, pagePoint, placeColour, placesPng, shownColour, test } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const A = 'device@11';
const B = 'device@22';
/** Two phones: A shows where each pixel is (r = x, g = y), B a flat wallpaper with a bar at the top. */
const SCENARIO: ScenarioInput = {
  main: A,
  phones: [
    { id: A, name: 'phone-a', model: 'Model A', screen: { png: placesPng(160, 120) } },
    { id: B, name: 'phone-b', model: 'Model B', screen: { width: 320, height: 240, fill: '0x0f3d2e', rects: [{ x: 0, y: 0, width: 320, height: 20, color: '0x101820' }] } },
  ],
};

test('the header names the phone, its model and screen; the picker lists the server\'s phones; the screen is drawn pixel for pixel and kept live', async ({ simulate, inspect }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page, problems } = await inspect(['phone-a', ...on(sim)]);
  const facts = page.locator('#phone-facts');
  await expect(facts).toContainText('phone-a');
  for (const fact of [A, 'Model A', '160×120']) await expect(facts.locator('.fact', { hasText: fact })).toHaveCount(1);
  await expect(page.locator('#phone-picker option')).toHaveText(['phone-a · Model A', 'phone-b · Model B']);
  await expect(page.locator('#status')).toHaveAttribute('data-kind', 'live');

  // The canvas holds the phone's screen exactly: one canvas pixel per phone pixel.
  const canvas = () => canvasPixels(page);
  expect(Buffer.from(await canvas()).equals(Buffer.from(decodePng(sim.screenshot(A), 'the screen').data))).toBe(true);

  // Painted on the phone, seen on the page without a click: the page captures again while it is visible.
  sim.fillRect(A, { x: 0, y: 0, width: 10, height: 10, color: '0xff2200' });
  await expect.poll(async () => (await canvas()).slice(0, 3), { timeout: 10_000 }).toEqual([0xff, 0x22, 0x00]);

  // Another phone from the picker: its facts and its screen.
  await page.locator('#phone-picker').selectOption(B);
  await expect(facts.locator('.fact', { hasText: '320×240' })).toHaveCount(1);
  await expect.poll(async () => (await canvas()).length).toBe(320 * 240 * 4);
  expect(problems()).toEqual([]);
});

test('a click reads the pixel under the pointer at every zoom: the line holds the colour the phone gives there, which is the colour the page shows there', async ({ simulate, inspect }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page, problems } = await inspect(['phone-a', ...on(sim)]);
  await expect(page.locator('#status')).toHaveAttribute('data-kind', 'live');
  // Each (x, y, where in the pixel's square): corners of a square catch a mapping that rounds instead of flooring.
  const CASES: Record<string, [number, number, number][]> = {
    Fit: [[0, 0, 0.5], [159, 119, 0.5], [37, 81, 0.1], [38, 81, 0.9]],
    '1×': [[5, 6, 0.5], [120, 100, 0.5]],
    '4×': [[13, 7, 0.05], [13, 7, 0.95], [90, 50, 0.5]],
    // 16× scrolls to the point picked last, (90, 50).
    '16×': [[88, 48, 0.03], [88, 48, 0.97], [95, 53, 0.5]],
  };
  let lines = 0;
  for (const [zoom, points] of Object.entries(CASES)) {
    await page.getByRole('button', { name: zoom, exact: true }).click();
    for (const [x, y, at] of points) {
      await clickPixel(page, x, y, at);
      lines += 1;
      await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(${x}, ${y}).toBe('${placeColour(x, y)}');`);
      // The square's centre: a page pixel at its edge may hold some of the next square.
      expect(await shownColour(page, await pagePoint(page, x, y)), `${zoom} (${x}, ${y})`).toBe(placeColour(x, y));
      await expect(page.locator('#draft-count')).toHaveText(String(lines));
    }
  }
  // The pixel grid shows from 8× on, over the screen.
  await expect(page.locator('#grid')).toBeVisible();
  await page.getByRole('button', { name: '4×', exact: true }).click();
  await expect(page.locator('#grid')).toBeHidden();
  expect(problems()).toEqual([]);
});

test('arrow keys move the picked point by one phone pixel (shift: ten); its line follows in place, with the colour read there', async ({ simulate, inspect }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page } = await inspect(['phone-a', ...on(sim)]);
  await page.getByRole('button', { name: '4×', exact: true }).click();
  await clickPixel(page, 10, 10);
  await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(10, 10).toBe('${placeColour(10, 10)}');`);
  const moves: [string, number, number][] = [['ArrowRight', 11, 10], ['ArrowDown', 11, 11], ['ArrowDown', 11, 12], ['Shift+ArrowRight', 21, 12], ['ArrowUp', 21, 11], ['ArrowLeft', 20, 11]];
  for (const [key, x, y] of moves) {
    await page.keyboard.press(key);
    await expect(page.locator('#point-line'), key).toHaveText(`await device.expectPixel(${x}, ${y}).toBe('${placeColour(x, y)}');`);
  }
  // The marker sits on the pixel the line names.
  const marker = (await page.locator('#marker').boundingBox())!;
  const pixel = await pagePoint(page, 20, 11, 0);
  expect(marker.x).toBeCloseTo(pixel.x, 0);
  expect(marker.y).toBeCloseTo(pixel.y, 0);
  // One pick, one line: the nudges rewrote it.
  await expect(page.locator('#draft-lines li code')).toHaveText([`await device.expectPixel(20, 11).toBe('${placeColour(20, 11)}');`]);
});

test('the 9×9 spread around a point suggests a deltaE; a flat area needs none, and an edge gets none', async ({ simulate, inspect }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page } = await inspect(['phone-a', ...on(sim)]);
  await page.getByRole('button', { name: '4×', exact: true }).click();
  await clickPixel(page, 20, 20);
  // On phone A every neighbour differs a little: the spread is the largest ΔE00 from the point.
  const center = parseColor(placeColour(20, 20));
  let spread = 0;
  for (let y = 16; y <= 24; y++) for (let x = 16; x <= 24; x++) spread = Math.max(spread, deltaE(center, parseColor(placeColour(x, y))));
  const suggested = Math.ceil(spread * 10) / 10;
  await expect(page.locator('.spread')).toHaveText(`9×9 spread ΔE00 ${(Math.ceil(spread * 100) / 100).toFixed(2)}: suggests deltaE ${suggested}`);
  await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(20, 20).toBe('${placeColour(20, 20)}');`);
  await page.getByLabel(`with { deltaE: ${suggested} }`).check();
  await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(20, 20, { deltaE: ${suggested} }).toBe('${placeColour(20, 20)}');`);
  await expect(page.locator('#draft-lines li code')).toHaveText([`await device.expectPixel(20, 20, { deltaE: ${suggested} }).toBe('${placeColour(20, 20)}');`]);

  await page.locator('#phone-picker').selectOption(B);
  await expect(page.locator('#screen')).toHaveAttribute('width', '320');
  await clickPixel(page, 100, 100);
  await expect(page.locator('.spread')).toHaveText('9×9 spread ΔE00 0.00: a flat area, the exact colour holds');
  await clickPixel(page, 100, 21);
  await expect(page.locator('.spread')).toContainText('another colour is near');
  await expect(page.locator('#point-line')).toHaveText("await device.expectPixel(100, 21).toBe('0x0f3d2e');");
});

test('act mode: a click taps the phone there, back and home press its keys; each is a line of the draft', async ({ simulate, inspect }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page, problems } = await inspect(['phone-b', ...on(sim)]);
  await expect(page.locator('#screen')).toHaveAttribute('width', '320');
  await page.getByRole('button', { name: 'Act', exact: true }).click();
  await clickPixel(page, 150, 90);
  await expect(page.locator('#draft-lines li code')).toHaveText(['await device.tap(150, 90);']);
  await page.getByRole('button', { name: '◀ Back' }).click();
  await page.getByRole('button', { name: '● Home' }).click();
  await expect(page.locator('#draft-lines li code')).toHaveText(['await device.tap(150, 90);', "await device.press('back');", "await device.press('home');"]);
  expect(sim.acts().map(({ at: _at, ...act }) => act)).toEqual([
    { device: B, via: 'inputs', kind: 'tap', x: 150, y: 90 },
    { device: B, via: 'inputs', kind: 'key', key: 'back', state: 'press' },
    { device: B, via: 'inputs', kind: 'key', key: 'home', state: 'press' },
  ]);
  // No point was read: act mode taps, it does not pick.
  await expect(page.locator('#point-code')).toBeHidden();
  expect(problems()).toEqual([]);
});
