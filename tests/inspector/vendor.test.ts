// The inspector on servers other than the simulator: the vendor's capture answers in each of their forms
// (tests/helpers/vendor-capture.ts), and servers without the capture, where the page says so and reads
// points by their coordinates.
import { formatColor } from '../../src/core/color.js';
import type { FakeServer } from '../helpers/fake-server.js';
import { CAPTURE_FORMS, capturing, colorAt } from '../helpers/vendor-capture.js';
import { on, VENDOR_MAIN_DEVICE } from '../cli/helpers.js';
import { canvasPixels, clickPixel, expect, needsChromium, test } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const SIZE = { width: 96, height: 64 };
const hex = (x: number, y: number) => formatColor({ r: colorAt(x, y)[0], g: colorAt(x, y)[1], b: colorAt(x, y)[2] });

/** A vendor-bodied phone: its properties, and every pixel read telling where it is, as its capture does. */
function vendorPhone(server: FakeServer): void {
  server.handle('deviceInfo', { body: `{"status": true, "value": {"name": "mobile1", "width": "${SIZE.width}", "height": "${SIZE.height}", "model": "SM-G960F", "manufacturer": "samsung", "androidVersionRelease": "10"}}` });
  server.handle('pixel', (req) => {
    const [r, g, b] = colorAt(Number(req.query.get('x')), Number(req.query.get('y')));
    return { json: { status: true, value: { r, g, b, rgb: formatColor({ r, g, b }) } } };
  });
}

const FORMS: [string, (server: FakeServer) => void][] = [
  ...CAPTURE_FORMS.map(([name, form]): [string, (server: FakeServer) => void] => [name, (s) => capturing(s, form(s))]),
  ['a rectangle taken inclusive (one pixel larger)', (s) => capturing(s, CAPTURE_FORMS[0]![1](s), true)],
];

for (const [name, form] of FORMS) {
  test(`a vendor's capture, ${name}: the screen is drawn pixel for pixel, and a click reads the point under it`, async ({ serve, inspect }) => {
    const server = await serve();
    vendorPhone(server);
    form(server);
    const { page, problems } = await inspect(['main', ...on(server)]);
    await expect(page.locator('#phone-facts .fact', { hasText: `${SIZE.width}×${SIZE.height}` })).toHaveCount(1);
    await expect(page.locator('#status')).toHaveAttribute('data-kind', 'live');
    const pixels = await canvasPixels(page);
    const expected = Array.from({ length: SIZE.width * SIZE.height }, (_, i) => [...colorAt(i % SIZE.width, Math.floor(i / SIZE.width)), 255]).flat();
    expect(pixels.join() === expected.join(), 'the canvas holds the captured screen').toBe(true);
    await page.getByRole('button', { name: '4×', exact: true }).click();
    await clickPixel(page, 37, 21);
    await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(37, 21).toBe('${hex(37, 21)}');`);
    // The page never sees the server's token: it never asked the server anything itself.
    const token = server.tokens[0]!;
    expect(await page.content()).not.toContain(token);
    expect(problems()).toEqual([]);
  });
}

test('a server with the device properties but no screen capture: the page says so, and reads a point typed by its coordinates', async ({ serve, inspect }) => {
  const server = await serve();
  vendorPhone(server);
  const { page } = await inspect(['main', ...on(server)]);
  await expect(page.locator('#no-capture-text')).toHaveText(`This server does not offer screen capture (a route beyond the device-control interface): ${server.url}. Read points by their coordinates.`);
  await expect(page.locator('#status')).toHaveAttribute('data-kind', 'warn');
  await expect(page.locator('#screen')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Act', exact: true })).toBeDisabled();
  await page.getByLabel('x', { exact: true }).fill('12');
  await page.getByLabel('y', { exact: true }).fill('34');
  await page.getByRole('button', { name: 'Read point' }).click();
  await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(12, 34).toBe('${hex(12, 34)}');`);
  await expect(page.locator('.spread')).toContainText('9×9 spread ΔE00');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#point-line')).toHaveText(`await device.expectPixel(13, 34).toBe('${hex(13, 34)}');`);
  // The capture, and its 1×1 at 0,0 that tells a missing route from a refused rectangle.
  expect(server.count('capture')).toBe(2);
});

test('the simulator serving the interface only: the page says the screen cannot be captured, and reads points by their coordinates', async ({ simulate, inspect }) => {
  const sim = await simulate({ capabilities: 'seed' });
  const { page, problems } = await inspect(['main', ...on(sim)]);
  await expect(page.locator('#no-capture-text')).toHaveText(
    `The screen size of ${VENDOR_MAIN_DEVICE} is not known: this server offers no device properties (a route beyond the device-control interface), so its screen cannot be captured. Read points by their coordinates.`,
  );
  await page.getByLabel('x', { exact: true }).fill('100');
  await page.getByLabel('y', { exact: true }).fill('100');
  await page.getByRole('button', { name: 'Read point' }).click();
  await expect(page.locator('#point-line')).toHaveText("await device.expectPixel(100, 100).toBe('0x25425c');");
  await expect(page.locator('.spread')).toHaveText('9×9 spread ΔE00 0.00: a flat area, the exact colour holds');
  expect(problems()).toEqual([]);
});
