// deadline_overshoot_ms: how far past its own deadline an assertion or waiter runs when the server does not
// answer. The example checks, each with a short timeout, as `npx playwright test` runs them: pixel and
// settings checks on a frozen phone (it takes a read and never answers), on a phone whose reads are slower
// than the timeout, and waiters on a notification list that never answers. The figure is the worst overshoot
// of them all: the time a check took minus its timeout (for expectNoNotification, its window plus the time its
// one read after the window may take). phonewright is installed in the project as a user has it (suite.ts:
// installedProject): a check's failure loads the code of its screen capture, which from a checkout's TypeScript
// waits on Playwright's compiler (most of a second for a worker whose transform cache is cold, as after an edit).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '../src/simulator/index.js';
import type { BenchResult } from './report.js';
import { median, round } from './stats.js';
import { installedProject, removeProject, runPlaywright } from './suite.js';

const TIMEOUT = 500;
const WINDOW = 300;
/** Checks per kind: 24 in all. */
const REPEAT = 4;

const CONFIG = `import { defineConfig } from '@playwright/test';
import { deviceMatrix } from 'phonewright/fixtures';
const matrix = deviceMatrix({ testDir: 'specs' });
export default defineConfig({
  projects: matrix.projects,
  workers: matrix.workers,
  globalSetup: matrix.globalSetup,
  timeout: 120_000,
  reporter: [['json', { outputFile: 'results.json' }]],
});
`;

// Every check must fail; each one's time past its deadline is an annotation. One test per server, so no
// failure ends a worker and the next check starts at once.
const SPEC = `import { test, expect, SimulatorAdmin } from 'phonewright/fixtures';
const sims = JSON.parse(process.env.BENCH_SIMS);
const checks = {
  frozen: [
    ['expectPixel', ${TIMEOUT}, (d) => d.expectPixel(1, 1, { timeout: ${TIMEOUT} }).toBe('0x000000')],
    ['expectPixel.not', ${TIMEOUT}, (d) => d.expectPixel(1, 1, { timeout: ${TIMEOUT} }).not.toBe('0x123456')],
    ['toHaveSettings', ${TIMEOUT}, (d) => expect(d).toHaveSettings({ orientation: 'landscape' }, { timeout: ${TIMEOUT} })],
  ],
  slow: [
    ['expectPixel (reads slower than the timeout)', ${TIMEOUT}, (d) => d.expectPixel(1, 1, { timeout: ${TIMEOUT} }).toBe('0x000000')],
  ],
  stuck: [
    ['waitForNotification', ${TIMEOUT}, (d) => d.waitForNotification({ app: 'com.example.chat' }, { timeout: ${TIMEOUT} })],
    ['expectNoNotification', ${WINDOW + TIMEOUT}, (d) => d.expectNoNotification({ app: 'com.example.ads' }, { within: ${WINDOW}, timeout: ${TIMEOUT} })],
  ],
};
test('checks past their deadline', async ({ device }) => {
  const admin = new SimulatorAdmin(sims[device.server].url, sims[device.server].key);
  if (device.server === 'frozen') await admin.setFrozen(device.id, true);
  for (let i = 0; i < ${REPEAT}; i++) {
    for (const [kind, budget, check] of checks[device.server]) {
      const t0 = performance.now();
      const failed = await check(device).then(() => false, () => true);
      if (!failed) throw new Error(kind + ' passed on a server that does not answer');
      test.info().annotations.push({ type: 'overshoot', description: JSON.stringify({ kind, ms: performance.now() - t0 - budget }) });
    }
  }
  if (device.server === 'frozen') await admin.setFrozen(device.id, false);
});
`;

export async function run(): Promise<BenchResult> {
  const phone = (n: number, name: string) => ({ phones: [{ id: `device@${8100 + n}`, name, screen: { width: 8, height: 8 } }] });
  const sims: Record<string, SimulatorHandle> = {
    frozen: await startSimulator({ port: 0, scenario: phone(1, 'frozen') }),
    slow: await startSimulator({ port: 0, scenario: phone(2, 'slow'), lab: { latencyMs: { pixel: 4 * TIMEOUT } } }),
    stuck: await startSimulator({ port: 0, scenario: phone(3, 'stuck'), faults: { hangRate: 1, operations: ['notifications'] } }),
  };
  const servers = Object.entries(sims).map(([name, s], i) => ({ name, url: s.url, devices: [{ id: `device@${8101 + i}`, name }] }));
  const dir = await installedProject({ 'playwright.config.ts': CONFIG, 'specs/deadlines.spec.ts': SPEC, 'phonewright.config.json': JSON.stringify({ servers }) });
  try {
    const env = { BENCH_SIMS: JSON.stringify(Object.fromEntries(Object.entries(sims).map(([name, s]) => [name, { url: s.url, key: s.adminKey }]))) };
    const result = await runPlaywright(dir, [], env);
    if (result.code !== 0) throw new Error(`the deadline bench failed (exit code ${result.code}):\n${result.output.slice(-4000)}`);
    const overshoots = await readOvershoots(path.join(dir, 'results.json'));
    const worst = overshoots.reduce((a, b) => (b.ms > a.ms ? b : a));
    const kinds = [...new Set(overshoots.map((o) => o.kind))];
    return {
      figures: { deadline_overshoot_ms: round(worst.ms, 0) },
      notes: {
        deadline_overshoot_ms:
          `worst of ${overshoots.length} checks (${worst.kind}); median ${median(overshoots.map((o) => o.ms)).toFixed(0)} ms; ` +
          `timeouts ${TIMEOUT} ms, windows ${WINDOW} ms; worst of each: ${kinds.map((k) => `${k} ${Math.max(...overshoots.filter((o) => o.kind === k).map((o) => o.ms)).toFixed(0)}`).join(', ')}`,
      },
    };
  } finally {
    await removeProject(dir);
    await Promise.all(Object.values(sims).map((s) => s.close()));
  }
}

/** Every check's overshoot, from the JSON report's annotations. */
async function readOvershoots(file: string): Promise<{ kind: string; ms: number }[]> {
  const report = JSON.parse(await readFile(file, 'utf8')) as { suites: Suite[] };
  const out: { kind: string; ms: number }[] = [];
  const walk = (suite: Suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) for (const a of t.annotations) if (a.type === 'overshoot') out.push(JSON.parse(a.description!) as { kind: string; ms: number });
    }
    for (const inner of suite.suites ?? []) walk(inner);
  };
  report.suites.forEach(walk);
  if (out.length < 20) throw new Error(`the deadline bench measured ${out.length} checks, fewer than 20`);
  return out;
}

interface Suite {
  specs?: { tests: { annotations: { type: string; description?: string }[] }[] }[];
  suites?: Suite[];
}
