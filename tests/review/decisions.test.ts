// Deciding in the page, on real runs: Accept for every phone of a model writes each phone's golden once and the
// next run passes there; a rejected failure stays reviewed across the next run; a stale run cannot be accepted; a
// pixel check's literal colour is written into its spec line, a colour from a table is named and left.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { decodePng } from '../../src/image/index.js';
import { BADGE, DOT, golden, PHONES, projectFiles, expect, needsChromium, send, test, WALLPAPER } from './harness.js';

needsChromium();

const PINK = '0xd500f9';
const YELLOW = '0xffd600';
const pixelAt = (file: string, x: number, y: number) => {
  const png = decodePng(readFileSync(file), file);
  const o = (y * png.width + x) * 4;
  return `0x${[png.data[o]!, png.data[o + 1]!, png.data[o + 2]!].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
};
const IN_DOT = [DOT.x - BADGE.x + 1, DOT.y - BADGE.y + 1] as const;

/** Whether a folder is in a git repository's work tree. */
function inGit(dir: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes the project's folder a git repository with everything committed, so the page can say what changed. */
function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', 'specs', 'phones.json');
  git('commit', '-qm', 'goldens');
}

test('accept for every phone of a model writes each golden once, the next run passes there; a rejected failure stays reviewed across that run', async ({ inline, review }) => {
  // The badge changed on both SM-G960F phones alike, and otherwise on the Pixel 7.
  const project = await inline.project(await projectFiles({ 'galaxy-s9': { dot: PINK }, 'galaxy-s9-lab': { dot: PINK }, 'pixel-7': { dot: YELLOW } }));
  gitInit(project.dir);
  const first = await project.run({ env: { FAILS: PHONES.map((p) => `${p.name}/badge`).join(',') } });
  expect(first.summary.total, first.output).toEqual({ passed: 6, failed: 3, skipped: 0, flaky: 0 });

  const { page, port, token, problems, stop } = await review(project.dir);
  await expect(page.locator('#f-chips')).toContainText('galaxy-s9 (device@7101)');
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeEnabled();
  const forModel = page.getByRole('button', { name: 'Accept for every phone of this model' });
  await expect(forModel).toHaveText('Accept for every phone of this model (2)');
  await forModel.click();
  const result = page.locator('#d-result');
  await expect(result).toContainText('Accepted 2: wrote');
  await expect(result.locator('code.written')).toHaveText([golden('galaxy-s9'), golden('galaxy-s9-lab')]);
  // In git's order.
  await expect(result.locator('.git')).toHaveText(`git status:  M ${golden('galaxy-s9-lab')} ·  M ${golden('galaxy-s9')}`);
  for (const phone of ['galaxy-s9', 'galaxy-s9-lab']) expect(pixelAt(project.path(golden(phone)), ...IN_DOT), phone).toBe(PINK);
  expect(pixelAt(project.path(golden('pixel-7')), ...IN_DOT)).not.toBe(YELLOW);
  const written = statSync(project.path(golden('galaxy-s9-lab'))).mtimeMs;

  // The twin is accepted with it (shown with the reviewed ones): its Accept is gone, and the API refuses to write its golden again.
  await expect(page.locator('#queue .item')).toHaveCount(2);
  await page.getByLabel('Show reviewed').check();
  await expect(page.locator('#queue .item')).toHaveCount(3);
  await page.keyboard.press('j');
  await expect(page.locator('#f-chips')).toContainText('galaxy-s9-lab (device@7102)');
  await expect(page.locator('#d-state')).toHaveText('· accepted');
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
  const again = await send(port, '/api/accept', { 'x-phonewright-token': token, 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ id: 'f1', scope: 'one' }) });
  expect([again.status, JSON.parse(again.body).error]).toEqual([400, 'cannot accept this failure: accepted already: its golden or line is written']);
  expect(statSync(project.path(golden('galaxy-s9-lab'))).mtimeMs).toBe(written);

  // The Pixel 7's change is not wanted: rejected, it leaves the queue.
  await page.getByLabel('Show reviewed').uncheck();
  await page.keyboard.press('j');
  await expect(page.locator('#f-chips')).toContainText('pixel-7 (device@7103)');
  await page.keyboard.press('r');
  await expect(page.locator('#d-state')).toHaveText('· rejected');
  await expect(page.locator('#counts')).toHaveText('0 to review of 3 failures');
  await page.keyboard.press('k');
  await expect(page.locator('#queue .item')).toHaveCount(1);
  expect(problems()).toEqual([]);
  await stop();

  // The next run: both SM-G960F phones pass against their new goldens; the Pixel 7 fails as before.
  const second = await project.run({ env: { FAILS: 'pixel-7/badge' }, keep: ['review.json'] });
  expect(second.summary.projects, second.output).toEqual({
    'galaxy-s9': { passed: 3, failed: 0, skipped: 0, flaky: 0 },
    'galaxy-s9-lab': { passed: 3, failed: 0, skipped: 0, flaky: 0 },
    'pixel-7': { passed: 2, failed: 1, skipped: 0, flaky: 0 },
  });
  const next = await review(project.dir);
  await expect(next.page.locator('#counts')).toHaveText('0 to review of 1 failure');
  await expect(next.page.locator('#queue .item')).toHaveCount(1);
  await expect(next.page.locator('#queue .item .pill')).toHaveText('rejected before');
  await expect(next.page.locator('#d-note')).toContainText('on an earlier run: it failed the same way');
  await next.page.getByLabel('Show reviewed').check();
  await expect(next.page.locator('#queue .item')).toHaveCount(1);
  expect(next.problems()).toEqual([]);
});

test('a run older than its golden is stale and cannot be accepted; a pixel check\'s literal colour is written into its line, a table\'s is named and left', async ({ inline, review }) => {
  const project = await inline.project(await projectFiles({ 'galaxy-s9': { dot: PINK }, 'pixel-7': { wallpaper: '0x3b1f4a', bar: '0x202020' } }));
  const run = await project.run({ env: { FAILS: 'galaxy-s9/badge,pixel-7/wallpaper,pixel-7/bar' } });
  expect(run.summary.total, run.output).toEqual({ passed: 6, failed: 3, skipped: 0, flaky: 0 });
  // The golden changed after the run (by hand, or another review): the run did not compare with it.
  const later = new Date(Date.now() + 60_000);
  await utimes(project.path(golden('galaxy-s9')), later, later);
  const before = readFileSync(project.path(golden('galaxy-s9')));

  const { page, port, token, problems } = await review(project.dir);
  await expect(page.locator('#queue .item').first()).toHaveAttribute('data-state', 'stale');
  await expect(page.locator('#queue .item .pill').first()).toHaveText('stale');
  await expect(page.locator('#d-note')).toHaveText(`stale: ${golden('galaxy-s9')} changed after this run, so the run did not compare with it; run the specs again and review that run`);
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
  await page.keyboard.press('a');
  await expect(page.locator('#d-result')).toHaveText(/^cannot accept: stale: /);
  const forced = await send(port, '/api/accept', { 'x-phonewright-token': token, 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ id: 'f0' }) });
  expect(forced.status).toBe(400);
  expect(readFileSync(project.path(golden('galaxy-s9'))).equals(before)).toBe(true);

  // The wallpaper, a literal: its line before and after, then written.
  const spec = project.path('specs/home.spec.ts');
  const source = readFileSync(spec, 'utf8');
  await page.locator('#queue .group', { hasText: 'the wallpaper colour' }).locator('.item').click();
  const diff = page.locator('#d-line');
  await expect(diff.locator('.del')).toHaveText(`- await device.expectPixel(5, 40, { timeout: T('wallpaper') }).toBe('${WALLPAPER}');`);
  await expect(diff.locator('.add')).toHaveText("+ await device.expectPixel(5, 40, { timeout: T('wallpaper') }).toBe('0x3b1f4a');");
  await page.keyboard.press('a');
  await expect(page.locator('#d-result code.written')).toHaveText(['specs/home.spec.ts']);
  // The project is a folder of the repository's test-results/, which git ignores (outside a checkout: no repository).
  await expect(page.locator('#d-result .git')).toHaveText(inGit(project.dir) ? /^git status: !! test-results\/$/ : 'not in a git repository');
  const after = readFileSync(spec, 'utf8');
  expect(after).toBe(source.replace(`toBe('${WALLPAPER}')`, "toBe('0x3b1f4a')"));

  // The bar's colour comes from a table: named, with its line, and nothing is written.
  await page.locator('#queue .group', { hasText: 'the bar colour' }).locator('.item').click();
  await expect(page.locator('#d-note')).toHaveText('the colour is COLOURS.bar, not a literal here: change it where it is defined (a variable, a table); nothing is written');
  await expect(diff).toContainText('specs/home.spec.ts:');
  await expect(diff).toContainText("await device.expectPixel(5, 5, { timeout: T('bar') }).toBe(COLOURS.bar);");
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
  expect(readFileSync(spec, 'utf8')).toBe(after);
  expect(problems()).toEqual([]);

  // The accepted line passes on the phone it was taken from.
  const next = await project.run({ args: ['--project', 'pixel-7', '--grep', 'wallpaper'] });
  expect(next.summary.total, next.output).toEqual({ passed: 1, failed: 0, skipped: 0, flaky: 0 });
});
