// The nightly's link to a failed test's film (src/report): the history keeps where the HTML report holds a failed
// attempt's film (data/<sha1>.webm), and nightly.md links it beside the screen, where the report is published; the
// films themselves stay in the report, so they go with it.
import type { FullConfig, Suite } from '@playwright/test/reporter';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareRuns } from '../../src/report/compare.js';
import type { HistoryRecord, HistoryTest } from '../../src/report/history-types.js';
import { writeNightly } from '../../src/report/nightly-files.js';
import { renderNightlyMarkdown } from '../../src/report/nightly-md.js';
import { buildRecord } from '../../src/report/record.js';
import { expect, test } from '../helpers/test.js';

const REPORT = 'https://ci.example.com/nightly/report';

function night(startedAt: string, tests: HistoryTest[]): { name: string; record: HistoryRecord } {
  return { name: `${startedAt}.json`, record: { version: 1, startedAt, durationMs: 1_000, status: 'failed', source: 'run', runErrors: [], phones: { 'galaxy-s9': {} }, tests } };
}

test("nightly.md links a new failure's film beside its screen; a test without one links none", () => {
  const passed: HistoryTest = { test: 'home.spec.ts › dock', id: 'a1', phone: 'galaxy-s9', status: 'passed', durationMs: 300, retries: 0 };
  const before = night('2026-12-01T02:00:00.000Z', [passed, { ...passed, test: 'home.spec.ts › bar', id: 'b1' }]);
  const failed: HistoryTest = { ...passed, status: 'failed', error: 'toHavePixel: 0x101820', screen: 'data/aa.png', film: 'data/bb.webm' };
  const now = night('2026-12-02T02:00:00.000Z', [failed, { ...failed, test: 'home.spec.ts › bar', id: 'b1', film: undefined }]);
  const md = renderNightlyMarkdown(now.record, compareRuns(now, [before]), REPORT);
  const rows = md.split('\n').filter((l) => l.startsWith('| galaxy-s9'));
  expect(rows.find((r) => r.includes('dock'))).toContain(`([the screen](${REPORT}/data/aa.png)) ([the film](${REPORT}/data/bb.webm))`);
  expect(rows.find((r) => r.includes('bar'))).not.toContain('the film');
  // Unpublished: no link to make.
  expect(renderNightlyMarkdown(now.record, compareRuns(now, [before]))).not.toContain('the film');
});

/** A test of the run as the history reporter sees it: its attempts' verdicts, each with a film of its own bytes. */
function playwrightTest(title: string, outcome: 'expected' | 'unexpected' | 'flaky', attempts: { status: 'passed' | 'failed'; film: string }[], dir: string) {
  const results = attempts.map((a, i) => {
    const file = path.join(dir, `${title}-${i}.webm`);
    writeFileSync(file, a.film);
    return { status: a.status, duration: 100, retry: i, errors: a.status === 'failed' ? [{ message: 'Error: the bar is not black' }] : [], error: a.status === 'failed' ? { message: 'Error: the bar is not black' } : undefined, annotations: [], steps: [], attachments: [{ name: 'phone-video', contentType: 'video/webm', path: file }] };
  });
  return { id: title, title, annotations: [], results, outcome: () => outcome, titlePath: () => ['', 'galaxy-s9', 'film.spec.ts', title], parent: { project: () => ({ name: 'galaxy-s9' }) } };
}

test('the history keeps the film of a failed attempt only, as the HTML report names it, and no film of its own', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'phonewright-history-film-'));
  try {
    const tests = [
      playwrightTest('fails', 'unexpected', [{ status: 'failed', film: 'first' }, { status: 'failed', film: 'second' }], dir),
      playwrightTest('flakes', 'flaky', [{ status: 'failed', film: 'red' }, { status: 'passed', film: 'green' }], dir),
      playwrightTest('passes', 'expected', [{ status: 'passed', film: 'on' }], dir),
    ];
    const config = { projects: [{ name: 'galaxy-s9', dependencies: [], metadata: {} }] };
    const suite = { allTests: () => tests };
    const record = buildRecord(config as unknown as FullConfig, suite as unknown as Suite, { status: 'failed', startTime: new Date('2026-12-02T02:00:00Z'), duration: 1_000 }, { source: 'run', runErrors: [], secrets: [] });
    const sha1 = (s: string) => `data/${createHash('sha1').update(s).digest('hex')}.webm`;
    // The last failed attempt of a failed test, the failed attempt of a flaky one; a passing test's film ('on') none.
    expect(record.tests.map((t) => [t.test, t.status, t.film])).toEqual([
      ['film.spec.ts › fails', 'failed', sha1('second')],
      ['film.spec.ts › flakes', 'flaky', sha1('red')],
      ['film.spec.ts › passes', 'passed', undefined],
    ]);
    // The history holds the links alone: the films stay in the HTML report and are gone with it.
    await writeNightly(path.join(dir, 'reports'), record);
    expect(readdirSync(path.join(dir, 'reports', 'history')).every((f) => f.endsWith('.json'))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
