// The inspector's template mode: a drag saves the rectangle as an image beside the spec, recording the screen it
// was cut on, and drafts `toShow`; the spec saved from the page then finds it on a phone of twice the density, and
// fails on one like it where the button is gone.
import { readFile } from 'node:fs/promises';
import { cropImage, decodePng, pngText } from '../../src/image/index.js';
import type { ScenarioInput } from '../../src/simulator/index.js';
import { config } from '../helpers/inline.js';
import { dragPixels, expect, labProject, needsChromium, test } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const A = 'device@31';
const B = 'device@32';
const C = 'device@33';
/** A phone with a send button (a teal square, a white arrow and a bar) at a place and size in proportion to its screen. */
const phone = (id: string, name: string, k: number) => ({
  id,
  name,
  model: name.toUpperCase(),
  screen: {
    width: 160 * k,
    height: 120 * k,
    fill: '0xf0ede8',
    rects: [
      { x: 0, y: 0, width: 160 * k, height: 10 * k, color: '0x101820' },
      { x: 120 * k, y: 90 * k, width: 30 * k, height: 20 * k, color: '0x00897b' },
      { x: 124 * k, y: 94 * k, width: 6 * k, height: 12 * k, color: '0xffffff' },
      { x: 134 * k, y: 98 * k, width: 12 * k, height: 4 * k, color: '0xffffff' },
    ],
  },
});
const SCENARIO: ScenarioInput = { main: A, phones: [phone(A, 'phone-a', 1), phone(B, 'phone-b', 2), phone(C, 'phone-c', 2)] };
const PASSWORD = 'tpl-pw-51e0';

test('a drag in template mode saves the image beside the spec and drafts toShow; the saved spec finds it on a phone of twice the density', async ({ simulate, inspect, inline }) => {
  const sim = await simulate({ scenario: SCENARIO, password: PASSWORD });
  const devices = [{ id: A, name: 'phone-a' }, { id: B, name: 'phone-b' }, { id: C, name: 'phone-c' }];
  // The first search of a worker loads OpenCV (~0.5 s, more on a busy machine): Playwright's own 5 s expect timeout.
  const project = await inline.project(labProject(config('', 'json', 'matrix.projects', 5_000), sim.url, devices));
  const env = { LAB_PASSWORD: PASSWORD };
  const { page, problems } = await inspect(['phone-a'], { cwd: project.dir, env });
  await expect(page.locator('#phone-facts .fact', { hasText: '160×120' })).toHaveCount(1);
  await page.getByRole('button', { name: '4×', exact: true }).click();
  await expect(page.locator('#image-card')).toBeHidden();
  await page.getByRole('button', { name: 'Template', exact: true }).click();
  await expect(page.locator('#image-card')).toBeVisible();
  await expect(page.locator('#hint')).toHaveText('Template mode: drag a rectangle to save it as an image the spec looks for');

  // The button with a pixel of the wall around it.
  await page.getByLabel('Name', { exact: true }).fill('send-button.png');
  await dragPixels(page, { x: 119, y: 89 }, { x: 150, y: 110 });
  await expect(page.locator('#image-result')).toHaveText('Saved specs/images/send-button.png (32×22, cut on 160×120)');
  const line = "await expect(device).toShow('images/send-button.png');";
  await expect(page.locator('#image-line')).toHaveText(line);
  await expect(page.locator('#draft-lines li code')).toHaveText([line]);
  const file = project.path('specs', 'images', 'send-button.png');
  const png = await readFile(file);
  expect(pngText(png)).toEqual({ 'phonewright-cut-on': '160x120' });
  const screen = decodePng(sim.screenshot(A), 'the screen');
  expect(Buffer.from(decodePng(png, 'the image').data).equals(Buffer.from(cropImage(screen, { x: 119, y: 89, width: 32, height: 22 }).data)), 'the phone\'s pixels').toBe(true);

  // A second image under the same name is refused until asked to replace it; a click is no drag and saves nothing.
  sim.fillRect(A, { x: 0, y: 0, width: 40, height: 10, color: '0x2299ff' });
  await dragPixels(page, { x: 0, y: 0 }, { x: 39, y: 19 });
  const refusal = 'specs/images/send-button.png exists already; try: replace it from the page (Save image again), or save it under another name';
  await expect(page.locator('#image-result')).toHaveText(refusal);
  expect(await readFile(file)).toEqual(png);
  // Replace is for that file: a change of name takes the offer away, and the name back does not bring it back.
  const replace = page.getByRole('button', { name: 'Replace image' });
  await expect(replace).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('other.png');
  await expect(replace).toBeHidden();
  await expect(page.locator('#image-result')).toHaveText('');
  await page.getByLabel('Name', { exact: true }).fill('send-button.png');
  await expect(replace).toBeHidden();
  await dragPixels(page, { x: 0, y: 0 }, { x: 39, y: 19 });
  await expect(page.locator('#image-result')).toHaveText(refusal);
  await replace.click();
  await expect(page.locator('#image-result')).toHaveText('Saved specs/images/send-button.png (40×20, cut on 160×120)');
  expect(decodePng(await readFile(file), 'replaced').width).toBe(40);
  await expect(page.locator('#draft-lines li code')).toHaveText([line, line]);
  await page.getByRole('button', { name: 'Remove line 2' }).click();
  await expect(page.getByRole('button', { name: 'Replace image' })).toBeHidden();
  sim.fillRect(A, { x: 0, y: 0, width: 40, height: 10, color: '0x101820' });
  await page.getByLabel('Name', { exact: true }).fill('send-button.png');
  await dragPixels(page, { x: 4, y: 4 }, { x: 5, y: 5 });
  await expect(page.locator('#image-result')).toContainText('an image of 2×2 is too small');
  // Back to the button, replacing the bar's cut.
  await dragPixels(page, { x: 119, y: 89 }, { x: 150, y: 110 });
  await page.getByRole('button', { name: 'Replace image' }).click();
  await expect(page.locator('#image-result')).toHaveText('Saved specs/images/send-button.png (32×22, cut on 160×120)');
  await page.getByRole('button', { name: 'Remove line 2' }).click();
  expect(problems()).toEqual([]);

  await page.getByRole('button', { name: 'Save spec' }).click();
  await expect(page.locator('#draft-result')).toHaveText('Saved specs/inspected.spec.ts: npx phonewright test specs/inspected.spec.ts');
  expect(await readFile(project.path('specs', 'inspected.spec.ts'), 'utf8')).toContain(`  ${line}\n`);
  // phone-c is phone-b with the button gone: there the image fails the spec with the best score it saw.
  sim.fillRect(C, { x: 240, y: 180, width: 60, height: 40, color: '0xf0ede8' });
  const run = await project.run({ env });
  expect(run.summary.total, run.output).toEqual({ passed: 2, failed: 1, skipped: 0, flaky: 0 });
  for (const p of ['phone-a', 'phone-b']) expect(run.test("matches the phone's screen", p).status, p).toBe('expected');
  expect(run.test("matches the phone's screen", 'phone-c').error).toMatch(/Received: not found; best score/);
});
