// Where the review writes: under its root (the working folder, or --root), never under a folder a report names. A
// report whose run was made in another folder of this machine (rootDir "/" names every file of it) is reviewed
// read-only: every failure shown, Accept off with one line saying why (the page, and stderr once), an accept
// refused with a 400 and nothing written. On made-up reports (bench/review-report.ts); the page in Chromium.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeSyntheticRun } from '../../bench/review-report.js';
import { readVisualRun } from '../../src/report/visual-failures.js';
import { Decisions } from '../../src/web/review/decisions.js';
import { Review } from '../../src/web/review/review.js';
import { errorLine, run } from '../cli/helpers.js';
import { listing } from '../helpers/bad-input.js';
import { expect, needsChromium, send, startReview, test } from './harness.js';

const url = (id: string, kind: string) => `${id}/${kind}`;
const json = (token: string) => ({ 'x-phonewright-token': token, 'content-type': 'application/json' });

/**
 * A project `app` holding, in its reports/, a results.json from elsewhere: rootDir "/", its spec named from there,
 * so that every path it names leads to `victim`, a run of another folder of this machine.
 */
async function reportFromSlash(tmp: string): Promise<{ app: string; victim: string }> {
  const victim = path.join(tmp, 'victim');
  const made = await writeSyntheticRun(victim, 1);
  const report = JSON.parse(await readFile(path.join(made.reports, 'results.json'), 'utf8'));
  report.config.rootDir = '/';
  const spec = path.relative('/', path.join(victim, 'specs', 'home.spec.ts'));
  for (const suite of report.suites) {
    suite.title = suite.file = spec;
    for (const s of suite.specs) s.file = spec;
  }
  const app = path.join(tmp, 'app');
  await mkdir(path.join(app, 'reports'), { recursive: true });
  await writeFile(path.join(app, 'reports', 'results.json'), JSON.stringify(report));
  return { app, victim };
}

test('a results.json whose rootDir is "/" is reviewed read-only: every failure listed, Accept refused saying why, nothing written anywhere', async ({ tmp }) => {
  const { app } = await reportFromSlash(tmp);
  const before = await listing(tmp);
  const review = new Review(readVisualRun(path.join(app, 'reports', 'results.json'), app), Decisions.load(path.join(app, 'reports', 'review.json')), app);
  const readOnly = review.runJson().readOnly;
  expect(readOnly).toMatch(/^the run was made in \/, not in .*\/app: /);
  const items = review.items(url);
  expect(items).toHaveLength(4);
  for (const item of items) expect(item.accept).toEqual({ ok: false, why: readOnly, stale: false, readOnly: true });
  for (const [id, scope] of [['f0', 'one'], ['f0', 'model'], ['f2', 'phone']] as const) {
    await expect(review.accept(id, scope), `${id} ${scope}`).rejects.toThrow(`this review is read-only, nothing was written: ${readOnly}`);
  }
  expect(await listing(tmp)).toEqual(before);
});

test('the command says once on stderr that the review is read-only, and its API refuses an accept with a 400 saying why', async ({ tmp }) => {
  const { app } = await reportFromSlash(tmp);
  const before = await listing(tmp);
  const { port, token, cli } = await startReview(app);
  const said = cli.stderr().split('\n').filter((l) => l.includes('read-only'));
  expect(said).toEqual([expect.stringMatching(/^review: read-only, Accept writes nothing: the run was made in \/, not in .*\/app: /)]);
  const data = JSON.parse((await send(port, '/api/review', json(token))).body);
  expect(data.items).toHaveLength(4);
  expect(data.run.readOnly).toMatch(/^the run was made in \/, not in /);
  for (const scope of ['one', 'phone', 'model']) {
    const r = await send(port, '/api/accept', json(token), { method: 'POST', body: JSON.stringify({ id: 'f0', scope }) });
    expect([r.status, JSON.parse(r.body).error], scope).toEqual([400, `this review is read-only, nothing was written: ${data.run.readOnly}`]);
  }
  expect(await listing(tmp)).toEqual(before);
  cli.interrupt();
  expect((await cli.exited).code).toBe(0);
});

test('a run of another folder of this machine is read-only from here, and written there with --root; a --root that is no folder is refused', async ({ tmp }) => {
  const project = path.join(tmp, 'project');
  const made = await writeSyntheticRun(project, 1);
  const here = path.join(tmp, 'here');
  await mkdir(here);
  const before = await listing(tmp);
  const from = await startReview(here, ['--report', '../project/reports']);
  const refused = await send(from.port, '/api/accept', json(from.token), { method: 'POST', body: JSON.stringify({ id: 'f0' }) });
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.body).error).toMatch(/^this review is read-only, nothing was written: the run was made in .*\/project, not in .*\/here: /);
  expect(await listing(tmp)).toEqual(before);
  from.cli.interrupt();
  await from.cli.exited;

  const given = await startReview(here, ['--report', '../project/reports', '--root', '../project']);
  expect(given.cli.stderr()).not.toContain('read-only');
  const accepted = await send(given.port, '/api/accept', json(given.token), { method: 'POST', body: JSON.stringify({ id: 'f0' }) });
  expect(accepted.status, accepted.body).toBe(200);
  // Paths are shown from the working folder.
  expect(JSON.parse(accepted.body).result.written).toEqual([`../project/${made.golden(0, 'galaxy-s9')}`]);
  given.cli.interrupt();
  await given.cli.exited;

  const r = await run(['review', '--report', '../project/reports', '--root', 'nowhere'], { cwd: here });
  expect([r.code, errorLine(r)]).toEqual([2, 'phonewright: --root "nowhere" is not a folder; try: give the folder of the project whose run this is']);
});

test.describe('the page', () => {
  needsChromium();

  test('a read-only review shows every failure, Accept off and one line saying why', async ({ tmp, review }) => {
    const { app } = await reportFromSlash(tmp);
    const before = await listing(tmp);
    const { page, problems } = await review(app);
    await expect(page.locator('#queue .item')).toHaveCount(4);
    const line = page.locator('#read-only');
    await expect(line).toHaveText(/^Read-only: the run was made in \/, not in .*\/app: /);
    await expect(page.locator('#d-note')).toHaveText('');
    await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: /Accept for every phone of this model/ })).toBeHidden();
    await page.keyboard.press('a');
    await expect(page.locator('#d-result')).toHaveText(/^cannot accept: the run was made in \//);
    await page.keyboard.press('j');
    await expect(line).toBeVisible();
    await page.locator('#decide-card').screenshot({ path: test.info().outputPath('read-only.png') });
    expect(await listing(tmp)).toEqual(before);
    expect(problems()).toEqual([]);
  });
});
