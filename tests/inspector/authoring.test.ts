// Authoring from the phone's screen, end to end: a spec drafted in the page (a point, a masked region with
// each phone's golden, a tap) and the every-phone table, saved into a project, then a real run of that
// project on both phones. And what the page refuses to write.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pngText } from '../../src/image/index.js';
import type { ScenarioInput } from '../../src/simulator/index.js';
import { on } from '../cli/helpers.js';
import { config, MUST_PASS } from '../helpers/inline.js';
import { clickPixel, dragPixels, expect, labProject, needsChromium, test } from './harness.js';

test.describe.configure({ mode: 'default' });
needsChromium();

const A = 'device@11';
const B = 'device@22';
const CLOCK = { x: 30, y: 2, width: 10, height: 6 };
/** A status bar with a mark and a clock, over a wallpaper of each phone's own colour and size. */
const phone = (id: string, name: string, width: number, height: number, wallpaper: string, clock: string) => ({
  id,
  name,
  model: name.toUpperCase(),
  screen: {
    width,
    height,
    fill: wallpaper,
    rects: [
      { x: 0, y: 0, width, height: 12, color: '0x101820' },
      { x: 2, y: 2, width: 6, height: 6, color: '0xe0e0e0' },
      { ...CLOCK, color: clock },
    ],
  },
});
const SCENARIO: ScenarioInput = { main: A, phones: [phone(A, 'phone-a', 160, 120, '0x3b1f4a', '0x88aa00'), phone(B, 'phone-b', 320, 240, '0x0f3d2e', '0x2299ff')] };
const PASSWORD = 'lab-pw-4be1d09c';

test('a spec drafted on the page, with each phone\'s golden, and the every-phone table pass a real run on both phones', async ({ simulate, inspect, inline }) => {
  const sim = await simulate({ scenario: SCENARIO, password: PASSWORD });
  const devices = [{ id: A, name: 'phone-a' }, { id: B, name: 'phone-b' }];
  // Every check of the run must pass: the first read of a phone-a worker, its matcher still loading, once took
  // more than 1 s on a loaded machine.
  const project = await inline.project(labProject(config('', 'json', 'matrix.projects', MUST_PASS), sim.url, devices));
  const env = { LAB_PASSWORD: PASSWORD };
  const { page, problems } = await inspect(['phone-a'], { cwd: project.dir, env });
  await expect(page.locator('#phone-facts .fact', { hasText: '160×120' })).toHaveCount(1);
  await page.getByRole('button', { name: '4×', exact: true }).click();

  // Two points; the table names them and reads them on every phone, each placed by its screen's size.
  await clickPixel(page, 4, 4);
  await expect(page.locator('#point-line')).toHaveText("await device.expectPixel(4, 4).toBe('0xe0e0e0');");
  await clickPixel(page, 80, 60);
  await expect(page.locator('#point-line')).toHaveText("await device.expectPixel(80, 60).toBe('0x3b1f4a');");
  await page.getByLabel('Name of the point (4, 4)').fill('mark');
  await page.getByLabel('Name of the point (80, 60)').fill('wallpaper');
  await page.getByLabel('Name of the point (80, 60)').press('Tab');
  await page.getByRole('button', { name: 'Read on every phone' }).click();
  const row = (p: string) => page.locator(`#every-table tr[data-project="${p}"]`);
  await expect(row('phone-a').locator('td code')).toHaveText(['0xe0e0e0', '0x3b1f4a']);
  // On phone-b, twice the size: (8, 8) is the status bar, (160, 120) its wallpaper; the mark is moved to (4, 4) by hand.
  await expect(row('phone-b').locator('td code')).toHaveText(['0x101820', '0x0f3d2e']);
  await expect(page.getByLabel('x of wallpaper on phone-b')).toHaveValue('160');
  await page.getByLabel('x of mark on phone-b').fill('4');
  await page.getByLabel('x of mark on phone-b').press('Tab');
  await page.getByLabel('y of mark on phone-b').fill('4');
  await page.getByLabel('y of mark on phone-b').press('Tab');
  await expect(row('phone-b').locator('td code')).toHaveText(['0xe0e0e0', '0x0f3d2e']);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('#every-result')).toHaveText('Saved specs/inspected-phones.ts.');
  await expect(page.locator('#every-source')).toContainText("'phone-b': {");

  // The wallpaper differs by phone: it stays in the table, out of the shared test.
  await page.getByRole('button', { name: 'Remove line 2' }).click();

  // A region with a mask over the clock, its golden written for phone-a, then for phone-b.
  await dragPixels(page, { x: 0, y: 0 }, { x: 47, y: 11 });
  await dragPixels(page, { x: 30, y: 2 }, { x: 39, y: 7 }, true);
  await page.getByLabel('Golden').fill('status-bar.png');
  const region = "await expect(device).toMatchRegion({ x: 0, y: 0, width: 48, height: 12 }, 'status-bar.png', { mask: [{ x: 30, y: 2, width: 10, height: 6 }] });";
  await expect(page.locator('#region-line')).toHaveText(region);
  await page.getByRole('button', { name: 'Write golden for phone-a' }).click();
  await expect(page.locator('#golden-result')).toHaveText('Wrote specs/inspected.spec.ts-snapshots/status-bar-phone-a.png (48×12) for phone-a');
  await page.getByRole('button', { name: 'Act', exact: true }).click();
  await clickPixel(page, 100, 100);
  await expect(page.locator('#draft-lines li code').last()).toHaveText('await device.tap(100, 100);');
  await page.locator('#phone-picker').selectOption(B);
  await page.getByRole('button', { name: 'Write golden for phone-b' }).click();
  await expect(page.locator('#golden-result')).toHaveText('Wrote specs/inspected.spec.ts-snapshots/status-bar-phone-b.png (48×12) for phone-b');
  // Back on phone-a its golden is there: refused, Replace offered. The offer is for phone-a's golden: on phone-b,
  // whose golden is there too, the write is refused in its turn, not made over it.
  const phoneB = await readFile(project.path('specs', 'inspected.spec.ts-snapshots', 'status-bar-phone-b.png'));
  await page.locator('#phone-picker').selectOption(A);
  await page.getByRole('button', { name: 'Write golden for phone-a' }).click();
  await expect(page.locator('#golden-result')).toContainText('specs/inspected.spec.ts-snapshots/status-bar-phone-a.png exists already');
  await expect(page.locator('#write-golden')).toHaveText('Replace golden');
  await page.locator('#phone-picker').selectOption(B);
  // The refusal, and what it said about phone-a's golden, go with the switch.
  await expect(page.locator('#golden-result')).toHaveText('');
  await page.getByRole('button', { name: 'Write golden for phone-b' }).click();
  await expect(page.locator('#golden-result')).toContainText('specs/inspected.spec.ts-snapshots/status-bar-phone-b.png exists already');
  expect(await readFile(project.path('specs', 'inspected.spec.ts-snapshots', 'status-bar-phone-b.png'))).toEqual(phoneB);

  await page.getByRole('button', { name: 'Save spec' }).click();
  await expect(page.locator('#draft-result')).toHaveText('Saved specs/inspected.spec.ts: npx phonewright test specs/inspected.spec.ts');
  // The package by its name, which resolves from the project's folder (here, inside the repository, by the
  // package's own name), and so runs below as it does in a team's repository with phonewright installed.
  expect(await readFile(project.path('specs', 'inspected.spec.ts'), 'utf8')).toBe(
    [
      "import { test, expect } from 'phonewright/fixtures';",
      '',
      '// Drafted with phonewright inspect: the lines in the order they were made.',
      "test('matches the phone\\'s screen', async ({ device }) => {",
      "  await device.expectPixel(4, 4).toBe('0xe0e0e0');",
      `  ${region}`,
      '  await device.tap(100, 100);',
      '});',
      '',
    ].join('\n'),
  );
  const goldens = [A, B].map((_, i) => project.path('specs', 'inspected.spec.ts-snapshots', `status-bar-phone-${'ab'[i]}.png`));
  const written = await Promise.all(goldens.map((g) => readFile(g)));
  for (const png of written) expect(pngText(png)).toEqual({ 'phonewright-step': '1' });
  expect(problems()).toEqual([]);

  // A spec of the team's own reads the table: each phone's points and settings.
  await project.write({
    'specs/table.spec.ts': `import { test, expect } from '../fixtures';
import { modelOf } from './inspected-phones';

test('each phone shows its model\\'s points', async ({ device }, testInfo) => {
  const model = modelOf(testInfo.project.name);
  await device.expectPixel(model.mark.x, model.mark.y).toBe(model.mark.color);
  await device.expectPixel(model.wallpaper.x, model.wallpaper.y).toBe(model.wallpaper.color);
  await expect(device).toHaveSettings(model.settings);
});
`,
  });
  // The clock moves on: only the mask keeps the region's check green.
  sim.fillRect(A, { ...CLOCK, color: '0xffffff' });
  sim.fillRect(B, { ...CLOCK, color: '0x000000' });
  const run = await project.run({ env });
  expect(run.summary.total, run.output).toEqual({ passed: 4, failed: 0, skipped: 0, flaky: 0 });
  expect(run.exitCode).toBe(0);
  // The run compared with the inspector's goldens; it wrote none of its own.
  expect(await Promise.all(goldens.map((g) => readFile(g)))).toEqual(written);
  expect(await project.filesUnder(path.join('specs', 'inspected.spec.ts-snapshots'))).toHaveLength(2);
});

test('the page writes no spec over another, none outside specs/, and a golden over another only when told, for that golden', async ({ simulate, inspect, tmp }) => {
  const sim = await simulate({ scenario: SCENARIO });
  const { page } = await inspect(['phone-a', ...on(sim)], { cwd: tmp });
  await page.getByRole('button', { name: '4×', exact: true }).click();
  await clickPixel(page, 4, 4);
  await expect(page.locator('#draft-count')).toHaveText('1');
  const save = page.getByRole('button', { name: 'Save spec' });
  const said = page.locator('#draft-result');
  await save.click();
  await expect(said).toHaveText('Saved specs/inspected.spec.ts: npx phonewright test specs/inspected.spec.ts');
  const first = await readFile(path.join(tmp, 'specs', 'inspected.spec.ts'), 'utf8');
  await page.getByLabel('Test').fill('another test');
  await save.click();
  await expect(said).toHaveText('specs/inspected.spec.ts exists already; try: choose another name: a spec is never replaced from the page');
  expect(await readFile(path.join(tmp, 'specs', 'inspected.spec.ts'), 'utf8')).toBe(first);
  for (const name of ['../escape.spec.ts', '/tmp/escape.spec.ts', 'a/../../escape.spec.ts', 'notes.txt']) {
    await page.getByLabel('Spec').fill(name);
    await save.click();
    await expect(said).toContainText(`invalid file name ${JSON.stringify(name)}: expected a name ending in .spec.ts, inside specs/`);
  }

  await dragPixels(page, { x: 0, y: 0 }, { x: 15, y: 11 });
  await page.getByLabel('Spec').fill('inspected.spec.ts');
  // A server given by --url runs its main device as the project `main`, whose goldens are named after its model and screen.
  const write = page.locator('#write-golden');
  await expect(write).toHaveText('Write golden for main');
  await write.click();
  await expect(page.locator('#golden-result')).toHaveText('Wrote specs/inspected.spec.ts-snapshots/region-1-PHONE-A-160x120.png (16×12) for main');
  const golden = path.join(tmp, 'specs', 'inspected.spec.ts-snapshots', 'region-1-PHONE-A-160x120.png');
  const before = await readFile(golden);
  const name = page.locator('#golden-name');
  await name.fill('other.png');
  await write.click();
  await expect(page.locator('#golden-result')).toHaveText('Wrote specs/inspected.spec.ts-snapshots/other-PHONE-A-160x120.png (16×12) for main');
  const other = await readFile(path.join(tmp, 'specs', 'inspected.spec.ts-snapshots', 'other-PHONE-A-160x120.png'));
  await name.fill('region-1.png');
  sim.fillRect(A, { x: 0, y: 0, width: 16, height: 12, color: '0x00ff00' });
  await write.click();
  await expect(page.locator('#golden-result')).toContainText('specs/inspected.spec.ts-snapshots/region-1-PHONE-A-160x120.png exists already');
  expect(await readFile(golden)).toEqual(before);
  await expect(write).toHaveText('Replace golden');
  // The refusal was for that golden: another name, one already there, is refused in its turn, not written over.
  await name.fill('other.png');
  await expect(write).toHaveText('Write golden for main');
  await write.click();
  await expect(page.locator('#golden-result')).toContainText('specs/inspected.spec.ts-snapshots/other-PHONE-A-160x120.png exists already');
  expect(await readFile(path.join(tmp, 'specs', 'inspected.spec.ts-snapshots', 'other-PHONE-A-160x120.png'))).toEqual(other);
  // Back to the first name: its refusal was forgotten with the change, and is asked again.
  await name.fill('region-1.png');
  await expect(write).toHaveText('Write golden for main');
  await write.click();
  await expect(write).toHaveText('Replace golden');
  expect(await readFile(golden)).toEqual(before);
  await write.click();
  await expect(page.locator('#golden-result')).toHaveText('Wrote specs/inspected.spec.ts-snapshots/region-1-PHONE-A-160x120.png (16×12) for main');
  expect(await readFile(golden)).not.toEqual(before);
});
