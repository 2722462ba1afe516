// The trend page in a real browser (Debian's chromium, headless, JavaScript off, the network cut): the
// per-phone pass-rate chart is drawn, bar for bar, and shows in a screenshot.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import type { HistoryRecord, HistoryStatus } from '../../src/report/history-types.js';
import { BAR_COLOURS } from '../../src/report/trend-chart.js';
import { writeNightly } from '../../src/report/nightly-files.js';
import { expect, test } from './harness.js';
import { startsHeavy } from '../helpers/test.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Three nights of two phones, five tests each: the statuses per night. */
const NIGHTS: Record<string, HistoryStatus[]>[] = [
  { 'phone-a': ['passed', 'passed', 'passed', 'passed', 'passed'], 'phone-b': ['passed', 'passed', 'passed', 'passed', 'failed'] },
  { 'phone-a': ['passed', 'passed', 'passed', 'failed', 'failed'], 'phone-b': ['passed', 'passed', 'passed', 'passed', 'flaky'] },
  { 'phone-a': ['passed', 'passed', 'passed', 'passed', 'failed'], 'phone-b': ['failed', 'failed', 'failed', 'failed', 'failed'] },
];
/** What the chart must say: pass rate per phone per night. */
const RATES = { 'phone-a': ['1', '0.6', '0.8'], 'phone-b': ['0.8', '1', '0'] };

test('the trend page shows each phone\'s pass rate as bars, in headless Chromium with no script and no network', async ({}, testInfo) => {
  test.skip(!existsSync(CHROMIUM), `Debian's chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it)`);
  const reports = testInfo.outputPath('reports');
  for (const [n, night] of NIGHTS.entries()) await writeNightly(reports, record(n, night));
  const page = testInfo.outputPath('reports', 'trend.html');
  expect(await readFile(page, 'utf8')).not.toMatch(/<script|https?:\/\/|<link|@import|url\(/i);

  const browser = await (startsHeavy('a browser'), chromium.launch({ executablePath: CHROMIUM, args: ARGS }));
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 900, height: 700 }, deviceScaleFactor: 1 });
    const requested: string[] = [];
    await context.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.request().url().startsWith('file:') ? route.continue() : route.abort();
    });
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    expect(requested).toEqual([pathToFileURL(page).href]);

    await expect(tab.locator('svg.chart')).toHaveCount(2);
    for (const [phone, rates] of Object.entries(RATES)) {
      const bars = tab.locator(`section[data-phone="${phone}"] svg.chart rect.bar`);
      await expect(bars).toHaveCount(3);
      expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-rate')))).toEqual(rates);
      await expect(tab.locator(`section[data-phone="${phone}"] svg.chart`)).toBeVisible();
      // Drawn heights follow the rates: 100% is the full plot, 0% a sliver that still shows.
      const heights = await Promise.all((await bars.all()).map(async (b) => (await b.boundingBox())!.height));
      rates.forEach((rate, i) => expect(heights[i]!, `${phone} night ${i + 1}`).toBeCloseTo(Math.max(3, Number(rate) * 120), 0));
    }
    await expect(tab.locator('section[data-phone="phone-b"] h3[data-list="newFailures"]')).toHaveText('New failures (5)');

    const shot = await tab.screenshot({ fullPage: true });
    await testInfo.attach('trend.png', { body: shot, contentType: 'image/png' });
    const colours = countColours(shot);
    expect(colours.size, 'a blank page has a handful of colours').toBeGreaterThan(20);
    // Bars of all three verdicts are on screen: 100% green, 80% amber, 60% and 0% red.
    for (const [kind, hex] of Object.entries({ pass: BAR_COLOURS.pass, warn: BAR_COLOURS.warn, fail: BAR_COLOURS.fail })) {
      expect(colours.get(hex) ?? 0, `${kind} bars (${hex}) in the screenshot`).toBeGreaterThan(500);
    }
  } finally {
    await browser.close();
  }
});

test('the trend page\'s "Tests × phones" grid: a row per test that failed or flaked, newest on the right; failures link into the HTML report', async ({}, testInfo) => {
  test.skip(!existsSync(CHROMIUM), `Debian's chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it)`);
  const reports = testInfo.outputPath('reports');
  for (const [n, night] of NIGHTS.entries()) await writeNightly(reports, record(n, night), { reportUrl: 'https://ci.example.com/nightly/report' });
  const page = testInfo.outputPath('reports', 'trend.html');
  expect(await readFile(page, 'utf8')).not.toMatch(/<script|<link|@import|url\(/i);

  const browser = await (startsHeavy('a browser'), chromium.launch({ executablePath: CHROMIUM, args: ARGS }));
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    const rows = tab.locator('table.grid tbody tr');
    // Failing on both phones now first; then those failing on one, by name. Check 1–3 broke last night only.
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-test')))).toEqual(['check 5', 'check 1', 'check 2', 'check 3', 'check 4'].map((t) => `specs/home.spec.ts › ${t}`));
    const marks = (test: string, phone: string) => tab.locator(`table.grid tr[data-test="specs/home.spec.ts › ${test}"] td[data-phone="${phone}"]`).getAttribute('data-marks');
    expect(await marks('check 5', 'phone-a')).toBe('passed failed failed');
    expect(await marks('check 5', 'phone-b')).toBe('failed flaky failed');
    expect(await marks('check 1', 'phone-a')).toBe('passed passed passed');
    await expect(tab.locator('table.grid')).toBeVisible();
    const grid = await tab.locator('table.grid').screenshot();
    await testInfo.attach('grid.png', { body: grid, contentType: 'image/png' });
    const colours = countColours(grid);
    for (const hex of ['#2e7d32', '#c62828', '#f9a825']) expect(colours.get(hex) ?? 0, `marks of ${hex}`).toBeGreaterThan(30);

    // The triage: check 5 fails on both phones, the others on phone-b only; the flakiest test is check 5.
    expect(await tab.locator('table.triage tr[data-scope]').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-test')}: ${tr.getAttribute('data-scope')}`))).toEqual([
      'specs/home.spec.ts › check 5: every-phone',
      ...[1, 2, 3, 4].map((n) => `specs/home.spec.ts › check ${n}: some-phones`),
    ]);
    expect(await tab.locator('table.flaky tr[data-test]').evaluateAll((trs) => trs.map((tr) => tr.textContent))).toEqual(['specs/home.spec.ts › check 51phone-b 1']);
    const link = tab.locator('section[data-phone="phone-b"] ul[data-list="newFailures"] li[data-test="specs/home.spec.ts › check 1"] a');
    await expect(link).toHaveAttribute('href', 'https://ci.example.com/nightly/report/#?testId=phone-b-1');
  } finally {
    await browser.close();
  }
});

function record(night: number, statuses: Record<string, HistoryStatus[]>): HistoryRecord {
  const tests = Object.entries(statuses).flatMap(([phone, list]) =>
    list.map((status, i) => ({ test: `specs/home.spec.ts › check ${i + 1}`, id: `${phone}-${i + 1}`, phone, status, durationMs: 100, retries: status === 'passed' ? 0 : status === 'flaky' ? 1 : 2, ...(status === 'failed' ? { error: 'Error: expect(device).toHavePixel(x, y, color)' } : {}) })),
  );
  return {
    version: 1,
    startedAt: new Date(Date.UTC(2025, 10, 20 + night, 2, 30)).toISOString(),
    durationMs: 60_000,
    status: 'failed',
    source: 'run',
    runErrors: [],
    phones: { 'phone-a': { server: 'lab-a', deviceId: 'device@1' }, 'phone-b': { server: 'lab-a', deviceId: 'device@2' } },
    tests,
  };
}

/** How many pixels of each colour (`#rrggbb`) a PNG has. */
function countColours(png: Buffer): Map<string, number> {
  const { data } = PNG.sync.read(png);
  const counts = new Map<string, number>();
  for (let i = 0; i < data.length; i += 4) {
    const hex = `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  return counts;
}
