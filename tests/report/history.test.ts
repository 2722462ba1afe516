// `phonewright nightly` run after run: the history record, nightly.md and the exit code say what broke, what
// was fixed, what still fails and what flaked, phone by phone. The product changes between runs through the
// simulator's scenario (a phone's wallpaper, a badge), as a new build would change what the phones show.
import type { HistoryTest } from '../../src/report/history-types.js';
import { expect, listed, phone, test, type Project } from './harness.js';

const SPEC = `import { test } from 'phonewright/fixtures';

test('status bar is dark', async ({ device }) => {
  await device.expectPixel(1, 1).toBe('0x101820');
});

test('wallpaper', async ({ device }) => {
  await device.expectPixel(30, 30).toBe('0x25425c');
});

test('badge shows', async ({ device }) => {
  await device.expectPixel(60, 12).toBe('0xe53935');
});

test('sync', async ({ device }, testInfo) => {
  // The sync service is slow tonight: the first attempt gives up, a retry passes.
  if (process.env.SYNC_SLOW === '1' && testInfo.retry === 0) throw new Error('sync did not finish on the first attempt');
  await device.expectPixel(1, 1).toBe('0x101820');
});
`;

const GOOD = '0x25425c';
const BROKEN = '0x000000';

/** The simulated phones as tonight's build shows them: a wallpaper per phone, the badge or not. */
function scenario(wallpapers: Record<string, string>, badge: boolean): string {
  const ids: Record<string, string> = { 'phone-a': 'device@101', 'phone-b': 'device@102' };
  const phones = Object.entries(wallpapers).map(([name, fill]) =>
    phone(ids[name]!, name, fill, [{ x: 0, y: 0, width: 64, height: 4, color: '0x101820' }, ...(badge ? [{ x: 56, y: 8, width: 8, height: 8, color: '0xe53935' }] : [])]),
  );
  return JSON.stringify({ phones });
}

async function nightly(project: Project, wallpapers: Record<string, string>, badge: boolean, env: Record<string, string> = {}) {
  await project.write({ 'scenario.json': scenario(wallpapers, badge) });
  return project.cli(['nightly'], env);
}

const byKey = (tests: HistoryTest[]) => Object.fromEntries(tests.map((t) => [`${t.phone} › ${t.test}`, t]));

// Each nightly is a real CLI run of Playwright (10–20 s with the retries of the failing specs).
test.describe.configure({ timeout: 240_000 });

test('three nightlies: one spec breaks on one phone, one flakes, one recovers; history and summary say exactly that', async ({ project }) => {
  const p = await project({ 'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'scenario.json' } }), 'specs/home.spec.ts': SPEC });
  const W = 'specs/home.spec.ts › wallpaper';
  const BADGE = 'specs/home.spec.ts › badge shows';
  const SYNC = 'specs/home.spec.ts › sync';

  // Night 1: the badge is missing on both phones. With no earlier night, its failures are new.
  const first = await nightly(p, { 'phone-a': GOOD, 'phone-b': GOOD }, false);
  expect(first.code, first.output).toBe(1);
  let md = await p.summary();
  expect(listed(md, 'New failures')).toEqual([`phone-a › ${BADGE}`, `phone-b › ${BADGE}`]);
  expect(first.stderr).toMatch(/^phonewright: 2 new failure\(s\) since the previous nightly: phone-a › specs\/home\.spec\.ts › badge shows; phone-b › /m);

  // Night 2: the wallpaper breaks on phone-b only; sync flakes on both; the badge is still missing.
  const second = await nightly(p, { 'phone-a': GOOD, 'phone-b': BROKEN }, false, { SYNC_SLOW: '1' });
  expect(second.code, second.output).toBe(1);
  md = await p.summary();
  expect(listed(md, 'New failures')).toEqual([`phone-b › ${W}`]);
  expect(listed(md, 'Still failing')).toEqual([`phone-a › ${BADGE}`, `phone-b › ${BADGE}`]);
  expect(listed(md, 'Flaky, passed on retry')).toEqual([`phone-a › ${SYNC}`, `phone-b › ${SYNC}`]);
  expect(listed(md, 'Fixed')).toEqual([]);
  expect(md).toContain('**1 new failure** · 0 fixed · 2 still failing · 2 flaky');
  expect(second.stderr).toContain('phonewright: 1 new failure(s) since the previous nightly: phone-b › specs/home.spec.ts › wallpaper;');
  // nightly.json says the same, for the tools that read it, and names nothing else.
  expect(await p.comparison()).toMatchObject({
    newFailures: [{ phone: 'phone-b', test: W }],
    fixed: [],
    stillFailing: [
      { phone: 'phone-a', test: BADGE },
      { phone: 'phone-b', test: BADGE },
    ],
    flaky: [
      { phone: 'phone-a', test: SYNC },
      { phone: 'phone-b', test: SYNC },
    ],
  });

  // Night 3: the badge is back; sync is quick again; phone-b's wallpaper is still broken. Nothing new: exit 0.
  const third = await nightly(p, { 'phone-a': GOOD, 'phone-b': BROKEN }, true);
  expect(third.code, third.output).toBe(0);
  md = await p.summary();
  expect(listed(md, 'New failures')).toEqual([]);
  expect(listed(md, 'Fixed')).toEqual([`phone-a › ${BADGE}`, `phone-b › ${BADGE}`]);
  expect(listed(md, 'Still failing')).toEqual([`phone-b › ${W}`]);
  expect(listed(md, 'Flaky, passed on retry')).toEqual([]);
  expect(third.stdout).toContain('nightly: 0 new failure(s) · 2 fixed · 1 still failing · 0 flaky');

  // One record per night, per test × phone: status, duration, retries (2 by default), first line of the error.
  const records = await p.records();
  expect(records.map((r) => r.tests.length)).toEqual([8, 8, 8]);
  const night2 = byKey(records[1]!.tests);
  expect(night2[`phone-b › ${W}`]).toMatchObject({ status: 'failed', retries: 2 });
  // The matcher's hint, then what the morning review needs: the point, the colour wanted, the colour shown,
  // written from the facts the check attached (facts.test.ts), so the message's wording does not matter.
  expect(night2[`phone-b › ${W}`]!.error).toBe('Error: expect(device).toHavePixel(x, y, color) — Point: (30, 30); Expected: "0x25425c"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92)');
  expect(night2[`phone-a › ${W}`]).toMatchObject({ status: 'passed', retries: 0 });
  expect(night2[`phone-a › ${SYNC}`]).toMatchObject({ status: 'flaky', retries: 1, error: 'Error: sync did not finish on the first attempt' });
  for (const t of records[1]!.tests) expect(t.durationMs, `${t.phone} › ${t.test}`).toBeGreaterThan(0);
  expect(byKey(records[2]!.tests)[`phone-a › ${BADGE}`]).toMatchObject({ status: 'passed', retries: 0 });
  expect(byKey(records[2]!.tests)[`phone-a › ${BADGE}`]!.error).toBeUndefined();
  expect(records[1]!.phones).toEqual({ 'phone-a': { server: 'simulator', deviceId: 'device@101' }, 'phone-b': { server: 'simulator', deviceId: 'device@102' } });

  // The trend page charts the three nights per phone: phone-b went 75% → 50% → 75%.
  const html = await p.trend();
  const section = (name: string) => html.split('<section class="phone"').find((s) => s.startsWith(` id="phone-${name}"`)) ?? '';
  const rates = (name: string) => [...section(name).matchAll(/<rect class="bar [a-z]+" data-run="[^"]+" data-rate="([^"]*)"/g)].map((m) => m[1]);
  expect(rates('phone-a')).toEqual(['0.75', '0.75', '1']);
  expect(rates('phone-b')).toEqual(['0.75', '0.5', '0.75']);
});
