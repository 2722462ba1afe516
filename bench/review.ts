// review_load_ms: the review page's first paint with 200 failures (50 tests failing a region check on 4 phones), in
// Debian's Chromium: from the page's request to the frame that shows its queue and first failure, median of fresh
// loads (a new browser context each), beside the same page with 4 failures loaded in turns with it: what a fresh
// page costs on this machine at all. The servers are phonewright review's, started once on each made-up run.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { readVisualRun } from '../src/report/visual-failures.js';
import { Decisions } from '../src/web/review/decisions.js';
import { Review } from '../src/web/review/review.js';
import { startReview } from '../src/web/review/server.js';
import type { BenchResult } from './report.js';
import { writeSyntheticRun } from './review-report.js';
import { median, round } from './stats.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const TESTS = 50;
const WARMUP = 2;
const LOADS = 9;

export async function run(): Promise<BenchResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`review: Debian's chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-review-bench-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const full = await serve(path.join(dir, 'full'), TESTS);
    // The floor: the same page of a run with one failure, loaded the same way, in turns with the full one.
    const floor = await serve(path.join(dir, 'one'), 1);
    try {
      const loads: number[] = [];
      const floors: number[] = [];
      const paints: number[] = [];
      for (let i = 0; i < WARMUP + LOADS; i++) {
        const a = await load(browser, full.url, TESTS * 4);
        const b = await load(browser, floor.url, 4);
        if (i < WARMUP) continue;
        loads.push(a.ms);
        paints.push(a.fcp);
        floors.push(b.ms);
      }
      const value = round(median(loads), 0);
      return {
        figures: { review_load_ms: value },
        notes: {
          review_load_ms: `${TESTS * 4} failures: request to the frame showing them ${value} ms (median of ${LOADS}, range ${Math.round(Math.min(...loads))}–${Math.round(Math.max(...loads))}); the same page with 4: ${Math.round(median(floors))} ms; first contentful paint ${Math.round(median(paints))} ms; reading results.json ${Math.round(full.readMs)} ms`,
        },
      };
    } finally {
      await Promise.all([full.close(), floor.close()]);
    }
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** phonewright review's server on a made-up run of `tests` tests failing on 4 phones. */
async function serve(dir: string, tests: number): Promise<{ url: string; readMs: number; close(): Promise<void> }> {
  const made = await writeSyntheticRun(dir, tests);
  const t0 = performance.now();
  const review = new Review(readVisualRun(path.join(made.reports, 'results.json'), dir), Decisions.load(path.join(made.reports, 'review.json')), dir);
  const readMs = performance.now() - t0;
  const server = await startReview(review, 0, (t) => t);
  return { url: server.url, readMs, close: () => server.close() };
}

/** One fresh load of the page: ms from its request to the frame that shows its queue and first failure. */
async function load(browser: Browser, url: string, failures: number): Promise<{ ms: number; fcp: number }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator('body[data-ready="true"]').waitFor();
    // The frame that shows them: two animation frames after the page said it is ready.
    const fcp = await page.evaluate(() => {
      const w = globalThis as unknown as { requestAnimationFrame(f: () => void): void; performance: { getEntriesByName(n: string): { startTime: number }[] } };
      return new Promise<number>((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(() => resolve(w.performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN))));
    });
    const ms = performance.now() - start;
    const shown = await page.locator('#queue .item').count();
    if (shown !== failures) throw new Error(`review: the queue shows ${shown} failures, not ${failures}`);
    return { ms, fcp };
  } finally {
    await context.close();
  }
}
