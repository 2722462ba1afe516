// What a night says against the night before, case by case; what the history keeps of an error; and that
// record files sort by time.
import { compareRuns, type NamedRecord } from '../../src/report/compare.js';
import { recordFileName } from '../../src/report/history-store.js';
import type { HistoryRecord, HistoryStatus } from '../../src/report/history-types.js';
import { firstLine } from '../../src/report/redact.js';
import { expect, test } from './harness.js';

type List = 'newFailures' | 'fixed' | 'stillFailing' | 'flaky';

const CASES: { before: HistoryStatus | 'absent'; now: HistoryStatus; lists: List[] }[] = [
  { before: 'passed', now: 'failed', lists: ['newFailures'] },
  { before: 'flaky', now: 'failed', lists: ['newFailures'] },
  { before: 'skipped', now: 'failed', lists: ['newFailures'] },
  { before: 'absent', now: 'failed', lists: ['newFailures'] },
  { before: 'failed', now: 'failed', lists: ['stillFailing'] },
  { before: 'failed', now: 'passed', lists: ['fixed'] },
  { before: 'failed', now: 'flaky', lists: ['fixed', 'flaky'] },
  { before: 'passed', now: 'flaky', lists: ['flaky'] },
  { before: 'passed', now: 'passed', lists: [] },
  { before: 'failed', now: 'skipped', lists: [] },
];

for (const { before, now, lists } of CASES) {
  test(`a test ${before} last night and ${now} tonight is listed in: ${lists.join(', ') || 'nothing'}`, () => {
    const prev = run('2025-11-21', before === 'absent' ? {} : { t: before });
    const c = compareRuns(run('2025-11-22', { t: now }), [prev]);
    const found = (['newFailures', 'fixed', 'stillFailing', 'flaky'] as const).filter((l) => c[l].some((e) => e.phone === 'phone-a' && e.test === 't'));
    expect(found).toEqual(lists);
  });
}

test('each phone is compared with the latest earlier night that ran it, not merely the latest night', () => {
  // Night 2 ran only phone-b (one server's nightly); phone-a's baseline is night 1.
  const night1 = run('2025-11-20', { t: 'failed' }, { t: 'passed' });
  const night2: NamedRecord = { name: 'n2', record: { ...run('2025-11-21', {}, { t: 'failed' }).record, phones: { 'phone-b': {} } } };
  night2.record.tests = night2.record.tests.filter((t) => t.phone === 'phone-b');
  const c = compareRuns(run('2025-11-22', { t: 'failed' }, { t: 'failed' }), [night1, night2]);
  expect(c.baselines).toEqual({ 'phone-a': night1.name, 'phone-b': 'n2' });
  expect(c.stillFailing.map((e) => e.phone)).toEqual(['phone-a', 'phone-b']);
  expect(c.newFailures).toEqual([]);
});

test('the first night has no baseline: its failures are new', () => {
  const c = compareRuns(run('2025-11-22', { t: 'failed', u: 'passed' }), []);
  expect(c.baselines).toEqual({ 'phone-a': null });
  expect(c.newFailures).toEqual([{ phone: 'phone-a', test: 't', retries: 2, error: 'Error: boom' }]);
  expect(c.counts['phone-a']).toEqual({ passed: 1, failed: 1, flaky: 0, skipped: 0, passRate: 0.5 });
});

const LINES: { name: string; message: string; secrets: string[]; line: string }[] = [
  { name: 'the first non-empty line, colours removed', message: '\n\u001b[31mError: expect(device)\u001b[39m\n  at x.ts:1', secrets: [], line: 'Error: expect(device)' },
  { name: 'a password', message: 'login refused for qa with s3cr3t-pw', secrets: ['s3cr3t-pw'], line: 'login refused for qa with ***' },
  { name: 'a URL-encoded password', message: 'GET /login?p=a%2Fb%3Dc', secrets: ['a/b=c'], line: 'GET /login?p=***' },
  { name: 'a token parameter', message: 'GET http://lab:8090/TotalControl/v1/devices?token=abc123def', secrets: [], line: 'GET http://lab:8090/TotalControl/v1/devices?token=***' },
  { name: 'a token outside a URL', message: 'bad answer {"token": "abc123def", "status": true}', secrets: [], line: 'bad answer {"token": "***", "status": true}' },
  {
    // A device assertion's line is written from its facts (facts.test.ts); without them, its message is read as any assertion's.
    name: "an assertion's first four detail lines, up to its stack",
    message: 'Error: expect(device).toHavePixel(x, y, color)\n\nPhone:    device@1116106541 (galaxy-s9)\nPoint:    (100, 100)\nExpected: "0x25425c"\nReceived: "0x000000" (Δr=-37 Δg=-66 Δb=-92)\nPolled:   12 reads over 5003 ms (timeout 5000 ms)\n    at specs/home.spec.ts:5:3',
    secrets: [],
    line: 'Error: expect(device).toHavePixel(x, y, color) — Phone: device@1116106541 (galaxy-s9); Point: (100, 100); Expected: "0x25425c"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92)',
  },
  {
    name: 'a heading detail line run on into the line it introduces',
    message: 'expect(device).not.toHaveSettings(expected)\n\n1 field(s) differ:\n  display_orientation: expected "portrait", received "landscape"\nCall log:\n  - read',
    secrets: [],
    line: 'expect(device).not.toHaveSettings(expected) — 1 field(s) differ: display_orientation: expected "portrait", received "landscape"',
  },
  {
    name: "Playwright's own assertion's expected and received",
    message: 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 5\nReceived: 4',
    secrets: [],
    line: 'Error: expect(received).toBe(expected) // Object.is equality — Expected: 5; Received: 4',
  },
  { name: 'a long line, cut', message: 'x'.repeat(400), secrets: [], line: `${'x'.repeat(299)}…` },
];

for (const { name, message, secrets, line } of LINES) {
  test(`an error line keeps ${name}`, () => {
    expect(firstLine(message, secrets)).toBe(line);
  });
}

test('record file names sort as the runs started, across days, months and years', () => {
  const dates = ['2025-12-31T23:59:59.999Z', '2025-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2025-01-01T10:00:00.000Z'].map((d) => new Date(d));
  const byName = [...dates].sort((a, b) => recordFileName(a).localeCompare(recordFileName(b)));
  expect(byName).toEqual([...dates].sort((a, b) => a.getTime() - b.getTime()));
  expect(recordFileName(dates[0]!)).toBe('2025-12-31T23-59-59-999Z.json');
});

/** A night of phone-a (and phone-b when given): test → status. */
function run(day: string, a: Record<string, HistoryStatus>, b?: Record<string, HistoryStatus>): NamedRecord {
  const tests = Object.entries({ 'phone-a': a, ...(b ? { 'phone-b': b } : {}) }).flatMap(([phone, statuses]) =>
    Object.entries(statuses).map(([test, status]) => ({ test, phone, status, durationMs: 10, retries: status === 'failed' ? 2 : status === 'flaky' ? 1 : 0, ...(status === 'failed' ? { error: 'Error: boom' } : {}) })),
  );
  const record: HistoryRecord = { version: 1, startedAt: `${day}T02:30:00.000Z`, durationMs: 1, status: 'failed', source: 'run', runErrors: [], phones: { 'phone-a': {}, ...(b ? { 'phone-b': {} } : {}) }, tests };
  return { name: `${day}T02-30-00-000Z.json`, record };
}
