// The nightly's link to a failed test's film (src/report): the history keeps where the HTML report holds a failed
// attempt's film (data/<sha1>.webm), and nightly.md links it beside the screen, where the report is published.
import { compareRuns } from '../../src/report/compare.js';
import type { HistoryRecord, HistoryTest } from '../../src/report/history-types.js';
import { renderNightlyMarkdown } from '../../src/report/nightly-md.js';
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
