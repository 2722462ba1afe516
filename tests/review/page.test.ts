// `phonewright review` as a reviewer uses it, after a run whose badge changed on all three phones and whose
// wallpaper and bar changed on one: the queue by test and phone, the four views, zoom and pan, the keyboard.
// One run, read by every test of the file; no test here decides (decisions.test.ts does).
import type { Locator, Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { formatColor, parseColor } from '../../src/core/color.js';
import { deltaE } from '../../src/core/delta-e.js';
import { heatColour } from '../../src/image/index.js';
import { cli } from '../helpers/bad-input.js';
import { sharedRun } from '../helpers/inline.js';
import { shownColour } from '../inspector/harness.js';
import { BADGE, CLOCK, DOT, projectFiles, expect, needsChromium, test } from './harness.js';

needsChromium();

const PINK = '0xd500f9';
const CHANGES = { 'galaxy-s9': { dot: PINK }, 'galaxy-s9-lab': { dot: PINK }, 'pixel-7': { dot: '0xffd600', wallpaper: '0x3b1f4a', bar: '0x202020' } };

const shared = sharedRun(async ({ project }) => {
  const p = await project(await projectFiles(CHANGES));
  const run = await p.run({ env: { FAILS: 'galaxy-s9/badge,galaxy-s9-lab/badge,pixel-7' } });
  return { p, run };
});

test('the queue lists every failed check by test, then phone, with its model; the badge on galaxy-s9 comes first', async ({ review }) => {
  const { p, run } = await shared();
  expect(run.summary.projects, run.output).toEqual({
    'galaxy-s9': { passed: 2, failed: 1, skipped: 0, flaky: 0 },
    'galaxy-s9-lab': { passed: 2, failed: 1, skipped: 0, flaky: 0 },
    'pixel-7': { passed: 0, failed: 3, skipped: 0, flaky: 0 },
  });
  const { page, problems } = await review(p.dir);
  const groups = page.locator('#queue .group');
  await expect(groups.locator('h3')).toHaveText([/the badge matches its golden/, /the wallpaper colour/, /the bar colour/]);
  const badge = groups.nth(0);
  await expect(badge.locator('.phone h4')).toHaveText(['galaxy-s9SM-G960F', 'galaxy-s9-labSM-G960F', 'pixel-7Pixel 7']);
  await expect(badge.locator('.item .what')).toHaveText(['badge.png', 'badge.png', 'badge.png']);
  await expect(groups.nth(1).locator('.item .what')).toHaveText(['(5, 40)']);
  await expect(page.locator('#counts')).toHaveText('5 to review of 5 failures');
  // The first failure is shown: galaxy-s9's badge, its phone and model, its golden, and the phone's screen.
  await expect(page.locator('#f-test')).toHaveText('specs/home.spec.ts › home screen › the badge matches its golden');
  await expect(page.locator('#f-chips .chip')).toContainText(['galaxy-s9', 'SM-G960F', 'galaxy-s9 (device@7101)', 'Region 40×30 at (60, 30)', 'specs/home.spec.ts:', 'specs/home.spec.ts-snapshots/badge-galaxy-s9.png']);
  await expect(page.locator('#phone-screen')).toBeVisible();
  expect(await page.locator('#phone-screen').evaluate((i) => [(i as unknown as { naturalWidth: number }).naturalWidth])).toEqual([120]);
  expect(problems()).toEqual([]);
});

/** Where pixel (x, y) of an image of the page is drawn, its centre; and the colour shown there, from a screenshot. */
async function at(_page: Page, img: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
  // Loaded, and laid out at the view's zoom.
  await expect.poll(() => img.evaluate((i) => (i as unknown as { complete: boolean; naturalWidth: number }).complete && (i as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect.poll(async () => (await img.boundingBox())?.width ?? 0).toBeGreaterThan(0);
  const box = (await img.boundingBox())!;
  const [w] = await img.evaluate((i) => [(i as unknown as { naturalWidth: number }).naturalWidth]);
  const scale = box.width / w!;
  return { x: box.x + (x + 0.5) * scale, y: box.y + (y + 0.5) * scale };
}

const GREEN = '0x3ddc84';
/** The dot's place in the badge's images, and a place of the badge away from dot and clock. */
const IN_DOT = { x: DOT.x - BADGE.x + 2, y: DOT.y - BADGE.y + 2 };
const PLAIN = { x: 30, y: 25 };
const IN_CLOCK = { x: CLOCK.x - BADGE.x + 4, y: CLOCK.y - BADGE.y + 4 };

test('the four views by name: side by side, a slider whose divider is dragged across, blink, and the ΔE00 heat map with its mask', async ({ review }) => {
  const { p } = await shared();
  const { page, problems } = await review(p.dir);
  const views = page.locator('#views button');
  await expect(views).toHaveText(['Side by side', 'Slider', 'Blink', 'Diff']);

  // Side by side: the golden and the sample, each magnified to fit with crisp pixels.
  const expected = page.locator('.pane[data-pane="expected"] img');
  const actual = page.locator('.pane[data-pane="actual"] img');
  await expect(expected).toBeVisible();
  await expect(actual).toBeVisible();
  expect(await expected.evaluate((i) => (globalThis as unknown as { getComputedStyle(e: unknown): { imageRendering: string } }).getComputedStyle(i).imageRendering)).toBe('pixelated');
  await expect.poll(async () => (await actual.boundingBox())?.width).toBeGreaterThan(40 * 4);
  expect(await shownColour(page, await at(page, expected, IN_DOT.x, IN_DOT.y))).toBe(GREEN);
  expect(await shownColour(page, await at(page, actual, IN_DOT.x, IN_DOT.y))).toBe(PINK);

  // Slider: expected left of the divider, actual right of it; the dot's side of the badge turns as it passes.
  await page.getByRole('button', { name: 'Slider', exact: true }).click();
  const pane = page.locator('.pane[data-pane="slider"]');
  const front = pane.locator('img[data-kind="actual"]');
  await expect(front).toBeVisible();
  const dot = await at(page, front, IN_DOT.x, IN_DOT.y);
  const right = await at(page, front, 36, PLAIN.y);
  await expect.poll(() => shownColour(page, dot)).toBe(GREEN);
  const divider = pane.locator('.divider');
  const box = (await divider.boundingBox())!;
  const paneBox = (await pane.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(paneBox.x + 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => shownColour(page, dot)).toBe(PINK);
  expect(await shownColour(page, right)).toBe(GREEN);
  await expect(divider).toHaveAttribute('aria-valuenow', '0');

  // Blink: expected and actual in turn, named as they show.
  await page.getByRole('button', { name: 'Blink', exact: true }).click();
  const blink = page.locator('.pane[data-pane="blink"]');
  for (const showing of ['actual', 'expected', 'actual']) {
    await expect(blink).toHaveAttribute('data-showing', showing);
    await expect(blink.locator('.label')).toHaveText(showing === 'actual' ? 'Actual' : 'Expected');
    await expect(blink.locator(`img[data-kind="${showing}"]`)).toBeVisible();
  }

  // Diff: the dot in the colour of its ΔE00, the masked clock striped magenta, the rest the golden faded.
  await page.getByRole('button', { name: 'Diff', exact: true }).click();
  const heat = page.locator('.pane[data-pane="diff"] img[data-kind="heat"]');
  await expect(heat).toBeVisible();
  const distance = deltaE(parseColor(GREEN), parseColor(PINK));
  const [r, g, b] = heatColour(distance);
  await expect.poll(async () => shownColour(page, await at(page, heat, IN_DOT.x, IN_DOT.y))).toBe(formatColor({ r, g, b }));
  expect(['0xff00ff', '0xffd6ff']).toContain(await shownColour(page, await at(page, heat, IN_CLOCK.x, IN_CLOCK.y)));
  const grey = await shownColour(page, await at(page, heat, PLAIN.x, PLAIN.y));
  expect(grey.slice(2, 4).repeat(3)).toBe(grey.slice(2));
  await expect(page.locator('.pane[data-pane="diff"] .maskbox')).toHaveCount(1);
  await expect(page.locator('#legend')).toBeVisible();
  await expect(page.locator('#heat-facts')).toHaveText(`36 pixels differ · largest ΔE00 ${Math.round(distance * 100) / 100}`);
  expect(problems()).toEqual([]);
});

test('zoom keeps pixels crisp and both sides pan together; the keyboard walks the queue and switches the views', async ({ review }) => {
  const { p } = await shared();
  const { page, problems } = await review(p.dir);
  const expected = page.locator('.pane[data-pane="expected"] img');
  const actual = page.locator('.pane[data-pane="actual"] img');
  await page.getByRole('button', { name: '16×', exact: true }).click();
  await expect(page.locator('#zoom-level')).toHaveText('16×');
  await expect.poll(async () => (await expected.boundingBox())?.width).toBe(40 * 16);
  const before = [(await expected.boundingBox())!, (await actual.boundingBox())!];
  // A drag in one pane pans both by as much.
  const pane = (await page.locator('.pane[data-pane="expected"]').boundingBox())!;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.down();
  await page.mouse.move(pane.x + pane.width / 2 + 60, pane.y + pane.height / 2 + 30, { steps: 4 });
  await page.mouse.up();
  const after = [(await expected.boundingBox())!, (await actual.boundingBox())!];
  for (const i of [0, 1]) expect([after[i]!.x - before[i]!.x, after[i]!.y - before[i]!.y]).toEqual([60, 30]);
  // One screen pixel is 16 page pixels of one colour: no smoothing at its edge.
  const c = await at(page, actual, IN_DOT.x, IN_DOT.y);
  expect(await shownColour(page, { x: c.x - 7, y: c.y - 7 })).toBe(PINK);
  await page.keyboard.press('+');
  await expect(page.locator('#zoom-level')).toHaveText('32×');
  await page.keyboard.press('0');
  await expect(page.locator('#zoom-level')).toHaveText(/^Fit: \d+×$/);

  const current = () => page.locator('#queue .item[aria-current="true"]');
  await expect(current()).toHaveAttribute('data-id', 'f0');
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('j');
    seen.push((await current().getAttribute('data-id'))!);
  }
  await page.keyboard.press('j');
  seen.push((await current().getAttribute('data-id'))!);
  await page.keyboard.press('k');
  seen.push((await current().getAttribute('data-id'))!);
  // Five failures: j stops at the last, k goes back one.
  expect(seen).toEqual(['f1', 'f2', 'f3', 'f4', 'f4', 'f3']);
  await expect(page.locator('#f-test')).toHaveText(/the wallpaper colour|the bar colour/);
  for (const [key, view] of [['2', 'slider'], ['3', 'blink'], ['4', 'diff'], ['1', 'side']]) {
    await page.keyboard.press(key!);
    await expect(page.locator('#stage')).toHaveAttribute('data-view', view!);
  }
  expect(problems()).toEqual([]);
});

test('--static writes the same page without the decisions, into the HTML report: it opens from the disk, its images linked from the report\'s data', async ({ chromiumBrowser }) => {
  const { p } = await shared();
  const r = await cli(['review', '--static', 'reports/html/review'], { cwd: p.dir });
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(r.stdout).toBe('wrote reports/html/review/index.html (5 visual failures)\n');
  const html = await readFile(p.path('reports/html/review/index.html'), 'utf8');
  expect(html).not.toMatch(/token|%TOKEN%|https?:\/\//);
  const data = await readFile(p.path('reports/html/review/data.js'), 'utf8');
  // The images the HTML report holds are linked there; the heat maps are drawn beside the page.
  expect(data).toMatch(/"actual":"\.\.\/data\/[0-9a-f]{40}\.png"/);
  expect(data).toMatch(/"heat":"img\/f0-heat\.png"/);

  const context = await (await chromiumBrowser()).newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const requested: string[] = [];
    await context.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.request().url().startsWith('file:') ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(p.path('reports/html/review/index.html')).href);
    await page.locator('body[data-ready="true"]').waitFor();
    await expect(page.locator('#queue .item')).toHaveCount(5);
    await expect(page.locator('#run-facts')).toContainText('static');
    await expect(page.locator('#static-note')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Accept for every phone of this model' })).toBeHidden();
    const actual = page.locator('.pane[data-pane="actual"] img');
    await expect.poll(() => actual.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)).toBe(40);
    await page.getByRole('button', { name: 'Diff', exact: true }).click();
    await expect.poll(() => page.locator('.pane[data-pane="diff"] img').evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)).toBe(40);
    await expect(page.locator('#heat-facts')).toHaveText(/^36 pixels differ/);
    await page.keyboard.press('r');
    expect(existsSync(p.path('reports/review.json'))).toBe(false);
    expect(requested.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
