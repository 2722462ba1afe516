// Decisions made at once are made one after another: twenty accepts of pixel checks on twenty lines of one spec,
// sent together, change the twenty lines; twenty rejects sent together leave twenty decisions in review.json. On
// made-up reports, the Review called in-process, as the page's server calls it; no browser.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeSyntheticRun } from '../../bench/review-report.js';
import { readVisualRun } from '../../src/report/visual-failures.js';
import { Decisions } from '../../src/web/review/decisions.js';
import { Review } from '../../src/web/review/review.js';
import { expect, test } from '../helpers/bad-input.js';

const N = 20;
const WALLPAPER = '0x25425c';

/** The review of the run whose report is in `<dir>/reports`, from `dir`. */
function reviewOf(dir: string): Review {
  const reports = path.join(dir, 'reports');
  return new Review(readVisualRun(path.join(reports, 'results.json'), dir), Decisions.load(path.join(reports, 'review.json')), dir);
}

test('twenty accepts sent at once, on twenty lines of one spec, change the twenty lines; each answers that it wrote the spec', async ({ dir }) => {
  await writePixelRun(dir, N);
  const review = reviewOf(dir);
  const results = await Promise.all(Array.from({ length: N }, (_, i) => review.accept(`f${i}`, 'one')));
  for (const r of results) expect(r).toMatchObject({ written: ['specs/pixels.spec.ts'], decided: 1, skipped: 0 });
  const lines = (await readFile(path.join(dir, 'specs/pixels.spec.ts'), 'utf8')).split('\n');
  for (let i = 0; i < N; i++) expect(lines[lineOf(i) - 1], `line ${lineOf(i)}`).toBe(`  await device.expectPixel(5, ${i}).toBe('${colourOf(i)}');`);
  // Every decision is kept, and the page's next answer says each failure is accepted.
  const kept = JSON.parse(await readFile(path.join(dir, 'reports/review.json'), 'utf8')).decisions;
  expect(kept).toHaveLength(N);
  expect(review.items((id, kind) => `${id}/${kind}`).map((i) => i.decision?.verdict)).toEqual(Array(N).fill('accepted'));
});

test('twenty rejects sent at once leave twenty decisions in review.json, and a review opened after shows each rejected', async ({ dir }) => {
  // Five tests on four phones: twenty failures.
  const run = await writeSyntheticRun(dir, 5);
  expect(run.failures).toBe(N);
  const review = reviewOf(dir);
  await Promise.all(Array.from({ length: N }, (_, i) => review.reject(`f${i}`)));
  const kept = JSON.parse(await readFile(path.join(dir, 'reports/review.json'), 'utf8')).decisions;
  expect(kept).toHaveLength(N);
  expect(new Set(kept.map((d: { test: string; project: string }) => `${d.test} ${d.project}`)).size).toBe(N);
  expect(reviewOf(dir).items((id, kind) => `${id}/${kind}`).map((i) => i.decision?.verdict)).toEqual(Array(N).fill('rejected'));
});

test('decisions sent at once are made in the order they came: a reject, then an accept of the same failure, ends accepted; a refused one lets the next go on', async ({ dir }) => {
  await writePixelRun(dir, 2);
  const review = reviewOf(dir);
  const [rejected, accepted, again, other] = await Promise.allSettled([review.reject('f0'), review.accept('f0', 'one'), review.accept('f0', 'one'), review.reject('f1')]);
  expect(rejected).toMatchObject({ status: 'fulfilled', value: { written: [], decided: 1 } });
  expect(accepted).toMatchObject({ status: 'fulfilled', value: { written: ['specs/pixels.spec.ts'], decided: 1 } });
  expect(again).toMatchObject({ status: 'rejected', reason: { message: 'cannot accept this failure: accepted already: its golden or line is written' } });
  expect(other).toMatchObject({ status: 'fulfilled', value: { decided: 1 } });
  const kept = JSON.parse(await readFile(path.join(dir, 'reports/review.json'), 'utf8')).decisions;
  expect(kept.map((d: { check: string; verdict: string }) => `${d.check} ${d.verdict}`)).toEqual(['pixel (5, 0) accepted', 'pixel (5, 1) rejected']);
});

/** Line of the i-th check in the spec. */
function lineOf(i: number): number {
  return 4 + 4 * i;
}

/** The colour the phone showed at the i-th check: each its own, so that each line changes to its own. */
function colourOf(i: number): string {
  return `0x${(0xd50000 + i).toString(16)}`;
}

/**
 * A run of `n` tests in one spec, each failing a pixel check whose literal colour is on its own line (the i-th at
 * (5, i), line 4 + 4i), on one phone: `specs/pixels.spec.ts` and `reports/results.json`, rootDir `dir`.
 */
async function writePixelRun(dir: string, n: number): Promise<void> {
  const spec = 'specs/pixels.spec.ts';
  const source = ["import { test } from 'phonewright/fixtures';", ''];
  const specs = [];
  for (let i = 0; i < n; i++) {
    source.push(`test('pixel ${i}', async ({ device }) => {`, `  await device.expectPixel(5, ${i}).toBe('${WALLPAPER}');`, '});', '');
    const facts = { matcher: 'toHavePixel', phone: 'galaxy-s9 (device@7101)', isNot: false, point: { x: 5, y: i }, expected: WALLPAPER, tolerance: 0, received: colourOf(i), reads: { answered: 3, unanswered: 0, ms: 1500, timeout: 1500 } };
    const message = `Error: expect(device).toHavePixel(x, y, color)\n\nPoint:    (5, ${i})\nExpected: "${WALLPAPER}"\nReceived: "${colourOf(i)}"`;
    specs.push({
      title: `pixel ${i}`, ok: false, tags: [], id: `s${i}`, file: spec, line: lineOf(i) - 1, column: 1,
      tests: [{
        projectName: 'galaxy-s9', projectId: 'galaxy-s9', status: 'unexpected', expectedStatus: 'passed', annotations: [], timeout: 20000,
        results: [{
          status: 'failed', retry: 0, duration: 1600, startTime: new Date().toISOString(), workerIndex: 0, parallelIndex: 0, stdout: [], stderr: [], annotations: [],
          errors: [{ message, location: { file: path.join(dir, spec), line: lineOf(i), column: 44 } }],
          attachments: [{ name: 'phonewright-facts.json', contentType: 'application/json', body: Buffer.from(JSON.stringify(facts)).toString('base64') }],
        }],
      }],
    });
  }
  const report = {
    config: { rootDir: dir, projects: [{ name: 'galaxy-s9', id: 'galaxy-s9', testDir: path.join(dir, 'specs'), metadata: { model: 'SM-G960F' } }] },
    suites: [{ title: spec, file: spec, line: 0, column: 0, specs, suites: [] }],
    errors: [],
    stats: { startTime: new Date().toISOString(), duration: 2000, expected: 0, unexpected: n, flaky: 0, skipped: 0 },
  };
  await mkdir(path.join(dir, 'specs'), { recursive: true });
  await mkdir(path.join(dir, 'reports'), { recursive: true });
  await writeFile(path.join(dir, spec), source.join('\n'));
  await writeFile(path.join(dir, 'reports', 'results.json'), JSON.stringify(report));
}
