// `phonewright nightly` night after night: the history record, nightly.md and the exit code say what broke,
// what was fixed, what still fails and what flaked, phone by phone, and the triage says whether a failure is on
// every phone (the app) or on some (the phones). The product changes between nights through the simulator's
// scenario (a phone's wallpaper, a badge), as a new build would change what the phones show.
//
// The night that breaks things is a real nightly (Playwright, retries, the HTML report and its screens, the exit
// code); the green night before it and the nights after, where a failure on every phone comes and goes, are
// records written in-process, as the history reporter writes them (src/report/nightly-files.ts), and the CLI's
// verdict on them is its own function (src/cli/nightly-verdict.ts): a nightly run is a Playwright worker per
// phone and one more per failed attempt, for what records already say.
import { existsSync } from 'node:fs';
import { nightlyVerdict } from '../../src/cli/nightly-verdict.js';
import { processOutput } from '../../src/cli/output.js';
import type { HistoryRecord, HistoryStatus, HistoryTest } from '../../src/report/history-types.js';
import { writeNightly } from '../../src/report/nightly-files.js';
import { expect, links, listed, phone, test } from './harness.js';

// The failing checks come last on each phone (a failed test ends its worker: the next test needs another).
const SPEC = `import { test } from 'phonewright/fixtures';

test('status bar is dark', async ({ device }) => {
  await device.expectPixel(1, 1).toBe('0x101820');
});

test('badge shows', async ({ device }) => {
  await device.expectPixel(60, 12).toBe('0xe53935');
});

test('sync', async ({ device }, testInfo) => {
  // The sync service is slow tonight on one phone: the first attempt gives up, a retry passes.
  if (process.env.SYNC_SLOW === testInfo.project.name && testInfo.retry === 0) throw new Error('sync did not finish on the first attempt');
  await device.expectPixel(1, 1).toBe('0x101820');
});

test('wallpaper', async ({ device }) => {
  await device.expectPixel(30, 30).toBe('0x25425c');
});
`;

const GOOD = '0x25425c';
const BROKEN = '0x000000';

/**
 * Two phones, as tonight's build shows them: a wallpaper per phone, and the badge. Two tell a failure on every
 * phone from one on some, at half the CPU of four.
 */
const PHONES = { 'pixel-7': 'device@102', 'moto-g5': 'device@104' };
const ALL = Object.keys(PHONES).sort();

function scenario(wallpapers: Partial<Record<string, string>>): string {
  const phones = Object.entries(PHONES).map(([name, id]) =>
    phone(id, name, wallpapers[name] ?? GOOD, [
      { x: 0, y: 0, width: 64, height: 4, color: '0x101820' },
      { x: 56, y: 8, width: 8, height: 8, color: '0xe53935' },
    ]),
  );
  return JSON.stringify({ phones });
}

const byKey = (tests: HistoryTest[]) => Object.fromEntries(tests.map((t) => [`${t.phone} › ${t.test}`, t]));
const on = (test: string, phones: string[]) => phones.map((p) => `${p} › ${test}`);

// The real nightly is a CLI run of Playwright on two phones (5–15 s with the retries of the failing specs).
test.describe.configure({ timeout: 240_000 });

const STATUS_BAR = 'specs/home.spec.ts › status bar is dark';
const W = 'specs/home.spec.ts › wallpaper';
const BADGE = 'specs/home.spec.ts › badge shows';
const SYNC = 'specs/home.spec.ts › sync';
const URL = 'https://ci.example.com/nightly/42';
const DAY = 86_400_000;

test('four nightlies on two phones: one spec breaks on moto-g5 only, one on every phone, one flakes; triage, history and summary say exactly that', async ({ project }) => {
  const p = await project({ 'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'scenario.json' } }), 'specs/home.spec.ts': SPEC });

  // Night 1, yesterday: all green.
  await writeNightly(p.path('reports'), night(Date.now() - DAY, {}));

  // Night 2, a real nightly: tonight's build breaks the wallpaper on moto-g5; sync flakes on pixel-7. One retry
  // tonight (the user's --retries wins over the nightly's 2). CI publishes the HTML report at URL.
  await p.write({ 'scenario.json': scenario({ 'moto-g5': BROKEN }) });
  const second = await p.cli(['nightly', '--retries', '1'], { SYNC_SLOW: 'pixel-7', PHONEWRIGHT_REPORT_URL: URL });
  expect(second.code, second.output).toBe(1);
  expect(second.stderr).toContain(`phonewright: 1 new failure(s) since the previous nightly: moto-g5 › ${W}`);
  const c2 = await p.comparison();
  expect(c2.triage).toEqual([{ test: W, failingOn: ['moto-g5'], ranOn: ALL, scope: 'some-phones', status: 'new', flaky: 0 }]);
  let md = await p.summary();
  expect(md.slice(md.indexOf('## Triage'), md.indexOf('## New failures'))).toContain(`| ${W} | only on moto-g5 (1/2) | **new** | 0 |`);
  expect(listed(md, 'New failures')).toEqual([`moto-g5 › ${W}`]);
  expect(listed(md, 'Flaky, passed on retry')).toEqual([`pixel-7 › ${SYNC}`]);
  expect(md).toContain('**1 new failure** · 0 fixed · 0 still failing · 1 flaky');
  // Each failure links to its test's page in the HTML report, by the id Playwright gave it on that phone.
  const records = await p.records();
  expect(records.map((r) => r.tests.length)).toEqual([8, 8]);
  const night2 = byKey(records[1]!.tests);
  const failed = c2.newFailures.map((e) => `${e.test} → ${URL}/#?testId=${night2[`${e.phone} › ${e.test}`]!.id}`);
  expect(links(md).filter((l) => l.includes('#?testId=')).slice(0, failed.length)).toEqual(failed);
  // And to the phone's screen at each failure, which the published report holds under that name.
  const screens = links(md).filter((l) => l.startsWith('the screen → '));
  // The new failure and the flaky test (the screen of its failed attempt).
  expect(screens).toHaveLength(failed.length + c2.flaky.length);
  for (const s of screens) {
    const file = s.slice(`the screen → ${URL}/`.length);
    expect(file).toMatch(/^data\/[0-9a-f]{40}\.png$/);
    expect(existsSync(p.path('reports', 'html', file)), file).toBe(true);
  }
  expect(new Set(Object.values(night2).map((t) => t.id)).size, 'an id per test and phone').toBe(8);

  // One record per night, per test × phone: status, duration, retries, first line of the error. The matcher's
  // hint, then what the morning review needs: the point, the colour wanted, the colour shown, written from the
  // facts the check attached (facts.test.ts), so the message's wording does not matter.
  expect(night2[`moto-g5 › ${W}`]).toMatchObject({ status: 'failed', retries: 1 });
  expect(night2[`moto-g5 › ${W}`]!.error).toBe(MOTO_LINE);
  expect(night2[`pixel-7 › ${SYNC}`]).toMatchObject({ status: 'flaky', retries: 1, error: 'Error: sync did not finish on the first attempt' });
  expect(night2[`moto-g5 › ${SYNC}`]).toMatchObject({ status: 'passed', retries: 0 });
  for (const t of records[1]!.tests) expect(t.durationMs, `${t.phone} › ${t.test}`).toBeGreaterThan(0);
  expect(night2[`pixel-7 › ${STATUS_BAR}`]).toMatchObject({ status: 'passed', retries: 0 });
  expect(night2[`pixel-7 › ${STATUS_BAR}`]!.error).toBeUndefined();
  expect(records[1]!.phones['moto-g5']).toEqual({ server: 'simulator', deviceId: 'device@104' });

  // Night 3: the next build loses the badge on every phone; moto-g5's wallpaper is still broken (two retries,
  // the nightly's default). The badge is the app's failure, the wallpaper the phone's: the verdict fails on the badge.
  const still = { ...night2[`moto-g5 › ${W}`]!, retries: 2 };
  const noBadge = (phone: string): HistoryTest => ({ test: BADGE, id: `${phone}-badge`, phone, status: 'failed', durationMs: 5_000, retries: 2, error: 'Error: expect(device).toHavePixel(x, y, color)' });
  const third = Date.parse(records[1]!.startedAt) + DAY;
  let said = verdict(await writeNightly(p.path('reports'), night(third, { [`moto-g5 › ${W}`]: still, [`moto-g5 › ${BADGE}`]: noBadge('moto-g5'), [`pixel-7 › ${BADGE}`]: noBadge('pixel-7') })));
  expect(said).toEqual([
    'nightly: 2 new failure(s) · 0 fixed · 1 still failing · 0 flaky',
    ...on(BADGE, ALL).map((f) => `  new failure: ${f}`),
    expect.stringMatching(/^nightly: summary /),
    expect.stringMatching(new RegExp(`^${escape(`thrown: 2 new failure(s) since the previous nightly: ${on(BADGE, ALL).join('; ')}; try: read `)}.*nightly\\.md`)),
  ]);
  expect((await p.comparison()).triage).toEqual([
    { test: BADGE, failingOn: ALL, ranOn: ALL, scope: 'every-phone', status: 'new', flaky: 0 },
    { test: W, failingOn: ['moto-g5'], ranOn: ALL, scope: 'some-phones', status: 'still-failing', flaky: 0 },
  ]);
  md = await p.summary();
  const triage = md.slice(md.indexOf('## Triage'), md.indexOf('## New failures'));
  expect(triage).toContain(`| ${BADGE} | on every phone (2/2) | **new** | 0 |`);
  expect(triage).toContain(`| ${W} | only on moto-g5 (1/2) | still failing | 0 |`);
  expect(listed(md, 'New failures')).toEqual(on(BADGE, ALL));

  // Night 4: the badge is back; moto-g5's wallpaper is still broken. Nothing new: the verdict passes. No report
  // URL tonight: nightly.md gives the test id.
  said = verdict(await writeNightly(p.path('reports'), night(third + DAY, { [`moto-g5 › ${W}`]: still })));
  expect(said[0]).toBe('nightly: 0 new failure(s) · 2 fixed · 1 still failing · 0 flaky');
  expect(said.some((l) => l.startsWith('thrown: '))).toBe(false);
  md = await p.summary();
  expect((await p.comparison()).triage).toEqual([{ test: W, failingOn: ['moto-g5'], ranOn: ALL, scope: 'some-phones', status: 'still-failing', flaky: 0 }]);
  expect(listed(md, 'Fixed')).toEqual(on(BADGE, ALL));
  expect(listed(md, 'Still failing')).toEqual([`moto-g5 › ${W}`]);
  expect(listed(md, 'New failures')).toEqual([]);
  expect(links(md)).toEqual([]);
  expect(md).toContain(`wallpaper (test id \`${still.id}\`)`);
  expect(md).toContain(`| ${SYNC} | 1 | pixel-7 1 |`);

  // The trend page charts the four nights per phone: moto-g5 went 100% → 75% → 50% → 75%, pixel-7 (a flaky
  // test passed) 100% → 100% → 75% → 100%.
  const html = await p.trend();
  const section = (name: string) => html.split('<section class="phone"').find((s) => s.startsWith(` id="phone-${name}"`)) ?? '';
  const rates = (name: string) => [...section(name).matchAll(/<rect class="bar [a-z]+" data-run="[^"]+" data-rate="([^"]*)"/g)].map((m) => m[1]);
  expect(rates('moto-g5')).toEqual(['1', '0.75', '0.5', '0.75']);
  expect(rates('pixel-7')).toEqual(['1', '1', '0.75', '1']);
  expect(html).toContain('<h2 id="grid">Tests × phones</h2>');
});

const MOTO_LINE = 'Error: expect(device).toHavePixel(x, y, color) — Point: (30, 30); Expected: "0x25425c"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92, ΔE00 21.94)';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the CLI's verdict on a night written in-process prints, line by line, and what it throws (`thrown: …`). */
function verdict(written: Awaited<ReturnType<typeof writeNightly>>): string[] {
  const said: string[] = [];
  const sink = { write: (text: string) => said.push(...text.split('\n').filter(Boolean)) };
  try {
    nightlyVerdict({ broke: false, status: 'failed', runErrors: [], partial: false, ...written }, 1, processOutput(sink, sink), 'the nightly run', false);
  } catch (error) {
    said.push(`thrown: ${(error as Error).message}`);
  }
  return said;
}

/** A night the history reporter could have written: every test on both phones passed, but for `failures`. */
function night(startedAt: number, failures: Record<string, HistoryTest>): HistoryRecord {
  const tests = Object.keys(PHONES)
    .sort()
    .flatMap((p) => [STATUS_BAR, BADGE, SYNC, W].map((t) => failures[`${p} › ${t}`] ?? { test: t, id: `${p}-${t}`, phone: p, status: 'passed' as HistoryStatus, durationMs: 120, retries: 0 }));
  const failed = tests.some((t) => t.status === 'failed');
  return {
    version: 1,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: 30_000,
    status: failed ? 'failed' : 'passed',
    source: 'run',
    runErrors: [],
    phones: Object.fromEntries(Object.entries(PHONES).map(([name, id]) => [name, { server: 'simulator', deviceId: id }])),
    tests,
  };
}
