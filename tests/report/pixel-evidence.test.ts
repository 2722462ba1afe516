// A failing pixel check as a reviewer sees it: the HTML report of a real run, opened in Debian's chromium
// (headless, the network cut), the test's image-diff viewer on its "Actual" tab. It shows the screen around
// the point, pixel by pixel, not a flat swatch; and the phone's whole screen, the point ringed where it is.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { config, expect, smallPhone, spec, test } from '../helpers/inline.js';
import { startsHeavy } from '../helpers/test.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PHONE = { id: 'device@7001', name: 'review-phone' };
const WALL = '0x25425c';
const STRIPE = '0x00c853';
const TITLE = 'the point is black';

test('the HTML report\'s image-diff viewer shows the screen around a failing point, in Chromium', async ({ inline, startSim }, testInfo) => {
  test.skip(!existsSync(CHROMIUM), `Debian's chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it)`);
  // A green stripe two pixels left of the point: the evidence must show it there.
  const sim = await startSim({ scenario: { phones: [smallPhone(PHONE.id, PHONE.name, WALL, [{ x: 18, y: 0, width: 1, height: 48, color: STRIPE }])] } });
  const run = await inline.run({
    'playwright.config.ts': config('', 'all'),
    'phonewright.config.json': JSON.stringify({ url: sim.url, devices: [PHONE] }),
    'specs/evidence.spec.ts': spec(`
test('${TITLE}', async ({ device }) => {
  await device.expectPixel(20, 20, { timeout: 300 }).toBe('0x000000');
});
`),
  });
  expect(run.summary.total, run.output).toEqual({ passed: 0, failed: 1, skipped: 0, flaky: 0 });

  const browser = await (startsHeavy('a browser'), chromium.launch({ executablePath: CHROMIUM, args: ARGS }));
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 1400 }, deviceScaleFactor: 1 });
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(`${run.dir}/reports/html/index.html`).href);
    await tab.getByText(TITLE).first().click();
    // The phone's model and screen, read from its properties by the worker, under the test's annotations.
    await expect(tab.getByText(`model: ${PHONE.name}, 64×48`)).toBeVisible();
    const viewer = tab.getByTestId('test-result-image-mismatch');
    await expect(viewer).toBeVisible();
    await viewer.getByText('Actual', { exact: true }).click();
    const image = viewer.locator('img').first();
    await expect(image).toBeVisible();
    expect(await image.evaluate((img) => [(img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { naturalHeight: number }).naturalHeight])).toEqual([216, 216]);
    const shot = await image.screenshot();
    await testInfo.attach('actual-tab.png', { body: shot, contentType: 'image/png' });
    await testInfo.attach('report-page.png', { body: await tab.screenshot({ fullPage: true }), contentType: 'image/png' });

    // Read the picture as drawn: 9×9 cells of the screen around (20, 20), i.e. screen pixels (16..24, 16..24).
    const png = PNG.sync.read(shot);
    const cell = png.width / 9;
    const at = (i: number, j: number) => {
      const o = (Math.floor((j + 0.5) * cell) * png.width + Math.floor((i + 0.5) * cell)) * 4;
      return `0x${[0, 1, 2].map((k) => png.data[o + k]!.toString(16).padStart(2, '0')).join('')}`;
    };
    const cells = Array.from({ length: 81 }, (_, n) => ({ x: 16 + (n % 9), y: 16 + Math.floor(n / 9), colour: at(n % 9, Math.floor(n / 9)) }));
    for (const c of cells) expect(c.colour, `screen pixel (${c.x}, ${c.y})`).toBe(c.x === 18 ? STRIPE : WALL);
    expect(new Set(cells.map((c) => `${c.x},${c.y}`)).size).toBeGreaterThanOrEqual(49);
    // The point is ringed: black just inside its cell's left edge, white just outside.
    const edge = (dx: number) => {
      const o = (Math.floor(4.5 * cell) * png.width + Math.floor(4 * cell) + dx) * 4;
      return [png.data[o], png.data[o + 1], png.data[o + 2]];
    };
    expect([edge(-1), edge(1)]).toEqual([
      [255, 255, 255],
      [0, 0, 0],
    ]);

    // The phone's whole screen beside it, at its real size, the point ringed where it is on the screen.
    const shown = await tab.locator('img').evaluateAll((imgs) => imgs.map((i) => [i.getAttribute('src') ?? '', (i as unknown as { naturalWidth: number }).naturalWidth, (i as unknown as { naturalHeight: number }).naturalHeight] as const));
    const whole = shown.find(([, w, h]) => w === 64 && h === 48);
    expect(whole, JSON.stringify(shown)).toBeDefined();
    const drawn = PNG.sync.read(readFileSync(new URL(whole![0], pathToFileURL(path.join(run.dir, 'reports', 'html', 'index.html')))));
    const pixel = (x: number, y: number) => `0x${[0, 1, 2].map((k) => drawn.data[(y * drawn.width + x) * 4 + k]!.toString(16).padStart(2, '0')).join('')}`;
    // The point itself as the phone shows it; a ring of black and white around it, 6 to 12 pixels out.
    expect(pixel(20, 20)).toBe(WALL);
    expect(new Set([6, 7, 8, 9, 10, 11].map((d) => pixel(20 + d, 20)))).toEqual(new Set(['0x000000', '0xffffff']));
    expect(pixel(40, 20)).toBe(WALL);
  } finally {
    await browser.close();
  }
});
