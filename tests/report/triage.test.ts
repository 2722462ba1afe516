// "Is it the app or the phone?": a night's failing tests across its phones, the flaky ranking, and the links
// into the HTML report that nightly.md gives each failure.
import { compareRuns } from '../../src/report/compare.js';
import type { HistoryRecord, HistoryStatus, HistoryTest, NamedRecord } from '../../src/report/history-types.js';
import { renderNightlyMarkdown } from '../../src/report/nightly-md.js';
import { reportUrl } from '../../src/report/report-url.js';
import { whereItFails } from '../../src/report/triage.js';
import { expect, test } from './harness.js';

const PHONES = ['galaxy-s9', 'galaxy-tab-s7', 'moto-g5', 'pixel-7'];

/** A night: test → status per phone (phones not given did not run it). */
function night(day: string, tests: Record<string, Partial<Record<string, HistoryStatus>>>, extra: Partial<HistoryTest> = {}): NamedRecord {
  const entries: HistoryTest[] = Object.entries(tests).flatMap(([test, byPhone]) =>
    Object.entries(byPhone).map(([phone, status]) => ({
      test,
      id: `${test.length}${phone.length}-${phone}`,
      phone,
      status: status!,
      durationMs: 10,
      retries: status === 'failed' ? 2 : status === 'flaky' ? 1 : 0,
      ...(status === 'failed' || status === 'flaky' ? { error: 'Error: boom' } : {}),
      ...extra,
    })),
  );
  const record: HistoryRecord = { version: 1, startedAt: `${day}T02:30:00.000Z`, durationMs: 1, status: 'failed', source: 'run', runErrors: [], phones: Object.fromEntries(PHONES.map((p) => [p, {}])), tests: entries };
  return { name: `${day}T02-30-00-000Z.json`, record };
}

const all = (status: HistoryStatus) => Object.fromEntries(PHONES.map((p) => [p, status]));

test('each failing test once: every phone or which ones, new or still failing, sorted with the app\'s failures first', () => {
  const before = night('2026-11-21', { badge: all('passed'), wallpaper: { ...all('passed'), 'moto-g5': 'failed' }, dock: all('passed'), sync: all('passed') });
  const now = night('2026-11-22', {
    badge: all('failed'),
    wallpaper: { ...all('passed'), 'moto-g5': 'failed' },
    dock: { ...all('passed'), 'galaxy-s9': 'failed', 'pixel-7': 'failed' },
    // Skipped on one phone: it ran on three, and failed on all three.
    sync: { ...all('failed'), 'galaxy-tab-s7': 'skipped' },
  });
  const c = compareRuns(now, [before]);
  expect(c.triage).toEqual([
    { test: 'badge', failingOn: PHONES, ranOn: PHONES, scope: 'every-phone', status: 'new', flaky: 0 },
    { test: 'sync', failingOn: ['galaxy-s9', 'moto-g5', 'pixel-7'], ranOn: ['galaxy-s9', 'moto-g5', 'pixel-7'], scope: 'every-phone', status: 'new', flaky: 0 },
    { test: 'dock', failingOn: ['galaxy-s9', 'pixel-7'], ranOn: PHONES, scope: 'some-phones', status: 'new', flaky: 0 },
    { test: 'wallpaper', failingOn: ['moto-g5'], ranOn: PHONES, scope: 'some-phones', status: 'still-failing', flaky: 0 },
  ]);
  expect(c.triage.map(whereItFails)).toEqual(['on every phone (4/4)', 'on every phone (3/3)', 'on 2 of 4: galaxy-s9, pixel-7', 'only on moto-g5 (1/4)']);
});

test('a pool counts as its phones: a failure is on the pool phone that ran it', () => {
  const pooled = night('2026-11-22', { badge: { 'pool-a': 'failed' }, wallpaper: { 'pool-a': 'passed' } });
  pooled.record.tests[0]!.ranOn = 's9-1';
  pooled.record.tests[1]!.ranOn = 's9-2';
  const c = compareRuns(pooled, []);
  expect(c.triage).toEqual([{ test: 'badge', failingOn: ['s9-1'], ranOn: ['s9-1'], scope: 'every-phone', status: 'new', flaky: 0 }]);
});

test('the flakiest tests over the last 20 nights, with a count per phone; nights before those do not count', () => {
  const nights = Array.from({ length: 25 }, (_, i) => {
    const day = `2026-10-${String(i + 1).padStart(2, '0')}`;
    // sync: flaky on pixel-7 every night and on moto-g5 on the last three; dock: flaky on every phone on the first five only.
    return night(day, { sync: { ...all('passed'), 'pixel-7': 'flaky', ...(i >= 22 ? { 'moto-g5': 'flaky' } : {}) }, dock: i < 5 ? all('flaky') : all('passed'), badge: all('passed') });
  });
  const c = compareRuns(nights.at(-1)!, nights.slice(0, -1));
  expect(c.flakiest).toEqual([{ test: 'sync', count: 23, phones: { 'pixel-7': 20, 'moto-g5': 3 } }]);
});

test('nightly.md opens with the triage, and links each failure to its page in the HTML report, or gives its test id', () => {
  const c = compareRuns(night('2026-11-22', { badge: all('failed'), wallpaper: { ...all('passed'), 'moto-g5': 'failed' } }), []);
  const linked = renderNightlyMarkdown(night('2026-11-22', {}).record, c, 'https://ci.example.com/nightly/report');
  const triage = linked.slice(linked.indexOf('## Triage'), linked.indexOf('## New failures'));
  expect(triage).toContain('| badge | on every phone (4/4) | **new** | 0 |');
  expect(triage).toContain('| wallpaper | only on moto-g5 (1/4) | **new** | 0 |');
  expect(linked.indexOf('## Triage')).toBeLessThan(linked.indexOf('## New failures'));
  expect(linked).toContain('| moto-g5 | [wallpaper](https://ci.example.com/nightly/report/#?testId=9' + '7-moto-g5) [2 retries] | Error: boom |');
  const plain = renderNightlyMarkdown(night('2026-11-22', {}).record, c);
  expect(plain).toContain('| moto-g5 | wallpaper (test id `97-moto-g5`) [2 retries] | Error: boom |');
  expect(plain).not.toContain('](');
});

test('the report URL: the variable beats the config file; a trailing slash or index.html is dropped; anything else is not a link', () => {
  const configured = 'https://ci.example.com/from-config/';
  expect(reportUrl({}, configured)).toBe('https://ci.example.com/from-config');
  expect(reportUrl({ PHONEWRIGHT_REPORT_URL: 'https://ci.example.com/run/42/index.html' }, configured)).toBe('https://ci.example.com/run/42');
  expect(reportUrl({ PHONEWRIGHT_REPORT_URL: 'javascript:alert(1)' }, configured)).toBeUndefined();
  expect(reportUrl({}, 'javascript:alert(1)')).toBeUndefined();
  expect(reportUrl({}, undefined)).toBeUndefined();
});
