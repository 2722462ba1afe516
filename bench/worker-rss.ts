// worker_rss_ratio: the memory of a Playwright worker that has found an image on a phone's screen (toShow: OpenCV)
// and read its text (readText: the OCR engine), the device matrix's, against a bare Playwright project's worker
// (an empty config, no phonewright import), each its RSS at the end of its one test. phonewright is installed as a
// user has it (suite.ts: installedProject). The engines run in the host's process (src/engines) and are loaded
// once per host: the worker holds neither. The same worker with the engines in it (PHONEWRIGHT_ENGINES=process) and
// the host's own RSS are reported beside it.
import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BenchResult } from './report.js';
import { interleaved, median, round } from './stats.js';
import { exampleSpecs, installedProject, removeProject, runPlaywright } from './suite.js';

/** Rounds of each: RSS scatters little (a few MiB) between runs of one worker. */
const ROUNDS = 5;
const PHONE = 'galaxy-s9';
/** The test writes its worker's RSS (bytes) here. */
const OUT_ENV = 'BENCH_WORKER_RSS_FILE';

const OURS_CONFIG = `import { defineConfig } from '@playwright/test';
import { deviceMatrix } from 'phonewright/fixtures';
const matrix = deviceMatrix();
export default defineConfig({ projects: matrix.projects, workers: matrix.workers, globalSetup: matrix.globalSetup, reporter: 'dot' });
`;

const OURS = `import { writeFile } from 'node:fs/promises';
import { expect, test } from 'phonewright/fixtures';
test('an image found and a text read', async ({ device }) => {
  await device.press('home');
  await expect(device).toShow('images/chat-app.png');
  expect((await device.readText()).length).toBeGreaterThan(0);
  await writeFile(process.env.${OUT_ENV}, String(process.memoryUsage().rss));
});
`;

const BARE_CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: 'bare', projects: [{ name: 'bare' }], reporter: 'dot' });
`;

const BARE = `import { writeFile } from 'node:fs/promises';
import { test } from '@playwright/test';
test('first', async () => {
  await writeFile(process.env.${OUT_ENV}, String(process.memoryUsage().rss));
});
`;

export async function run(): Promise<BenchResult> {
  const image = (await exampleSpecs())['specs/images/chat-app.png']!;
  const dir = await installedProject({ 'playwright.config.ts': OURS_CONFIG, 'specs/first.spec.ts': OURS, 'specs/images/chat-app.png': image, 'bare.config.ts': BARE_CONFIG, 'bare/first.spec.ts': BARE });
  try {
    const out = path.join(dir, 'worker-rss.txt');
    const rss = (label: string, args: string[], env: Record<string, string> = {}) => async () => {
      await rm(out, { force: true });
      const result = await runPlaywright(dir, ['--reporter', 'dot', ...args], { PHONEWRIGHT_DEVICES: PHONE, [OUT_ENV]: out, ...env });
      if (result.code !== 0) throw new Error(`${label} failed (exit code ${result.code}):\n${result.output.slice(-4000)}`);
      return Number(await readFile(out, 'utf8')) / 2 ** 20;
    };
    const runs = { ours: rss('ours', []), bare: rss('bare', ['-c', 'bare.config.ts']), inWorker: rss('engines in the worker', [], { PHONEWRIGHT_ENGINES: 'process' }) };
    // The warm-up fills Playwright's transform cache and starts the host's engines, as a run's second worker finds them.
    await runs.ours();
    const mib = await interleaved(ROUNDS, runs);
    const host = hostRss();
    return {
      figures: { worker_rss_ratio: round(median(mib.ours) / median(mib.bare), 2), worker_rss_mib: Math.round(median(mib.ours)) },
      notes: {
        worker_rss_ratio: `a worker's RSS after toShow and readText ${Math.round(median(mib.ours))} MiB, a bare Playwright worker's ${Math.round(median(mib.bare))} MiB; with the engines in the worker (PHONEWRIGHT_ENGINES=process) ${Math.round(median(mib.inWorker))} MiB; median of ${ROUNDS}`,
        worker_rss_mib: `the host's engines, once per host: ${host === undefined ? 'not found running' : `${host} MiB`}`,
      },
    };
  } finally {
    await removeProject(dir);
  }
}

/** The RSS of this host's engines process (MiB), where one runs. */
function hostRss(): number | undefined {
  try {
    const pids = execFileSync('pgrep', ['-f', 'engines/host.js'], { encoding: 'utf8' }).trim().split('\n');
    const kib = pids.map((pid) => Number(/VmRSS:\s+(\d+)/.exec(execFileSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }))?.[1] ?? 0));
    return Math.round(Math.max(...kib) / 1024);
  } catch {
    return undefined;
  }
}
