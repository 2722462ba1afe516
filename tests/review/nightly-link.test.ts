// nightly.md and the trend page link the review page (review/index.html in the HTML report) when it is there or
// CI says it will be (PHONEWRIGHT_REVIEW_PAGE); otherwise they say nothing of it. Files only, no run.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryRecord } from '../../src/report/history-types.js';
import { writeNightly } from '../../src/report/nightly-files.js';
import { reviewLink } from '../../src/report/report-url.js';
import { expect, test } from '../helpers/test.js';

const URL = 'https://ci.example.com/nightly/123';

function record(): HistoryRecord {
  return {
    version: 1,
    startedAt: new Date(Date.UTC(2025, 10, 20, 2, 30)).toISOString(),
    durationMs: 60_000,
    status: 'failed',
    source: 'run',
    runErrors: [],
    phones: { 'galaxy-s9': { server: 'lab-a', deviceId: 'device@1' } },
    tests: [{ test: 'specs/home.spec.ts › the badge', id: 'a-1', phone: 'galaxy-s9', status: 'failed', durationMs: 100, retries: 2, error: 'Error: expect(device).toMatchRegion(rect, name)' }],
  };
}

test('the review page is linked where it is or will be: in the published report, or beside nightly.md', async ({}, testInfo) => {
  const reports = testInfo.outputPath('reports');
  const CASES: [string, Record<string, string>, boolean, string | undefined, string | undefined][] = [
    ['configured, published', { PHONEWRIGHT_REVIEW_PAGE: '1' }, false, URL, `${URL}/review/index.html`],
    ['configured, not published', { PHONEWRIGHT_REVIEW_PAGE: '1' }, false, undefined, 'html/review/index.html'],
    ['configured off', { PHONEWRIGHT_REVIEW_PAGE: '0' }, false, URL, undefined],
    ['not configured, not there', {}, false, URL, undefined],
    ['there', {}, true, URL, `${URL}/review/index.html`],
  ];
  for (const [what, env, there, url, link] of CASES) {
    if (there) {
      await mkdir(path.join(reports, 'html', 'review'), { recursive: true });
      await writeFile(path.join(reports, 'html', 'review', 'index.html'), '<!doctype html>');
    }
    expect(reviewLink(env, reports, url), what).toBe(link);
  }
});

test('nightly.md and trend.html link the review page when given it, and name none without it', async ({}, testInfo) => {
  const withLink = testInfo.outputPath('with');
  await writeNightly(withLink, record(), { reportUrl: URL, reviewUrl: `${URL}/review/index.html` });
  expect(await readFile(path.join(withLink, 'nightly.md'), 'utf8')).toContain(`Visual failures, side by side, to accept or reject: [the review page](${URL}/review/index.html)`);
  expect(await readFile(path.join(withLink, 'trend.html'), 'utf8')).toContain(`<a href="${URL}/review/index.html">the review page</a>`);
  const without = testInfo.outputPath('without');
  await writeNightly(without, record(), { reportUrl: URL });
  for (const file of ['nightly.md', 'trend.html']) expect(await readFile(path.join(without, file), 'utf8'), file).not.toContain('review page');
});
