// fixture_overhead_ms: the per-test cost of the device fixtures on an empty test: the median gap between the
// starts of consecutive empty tests that use `device`, minus the same gap for Playwright's bare `test`,
// files of both kinds alternating in one worker on one simulated phone.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchResult } from './report.js';
import { median, round } from './stats.js';
import { makeProject, removeProject, runPlaywright } from './suite.js';

const FILES_PER_KIND = 12;
const TESTS_PER_FILE = 40;

export async function run(): Promise<BenchResult> {
  const dir = await makeProject(['playwright.config.ts']);
  await mkdir(path.join(dir, 'specs'));
  try {
    const kinds = { bare: "import { test } from '@playwright/test';", device: "import { test } from '../fixtures';" };
    const files: string[] = [];
    for (let i = 0; i < FILES_PER_KIND; i++) {
      for (const [kind, head] of Object.entries(kinds)) {
        // Named so that the runner's alphabetical order alternates the kinds: a0-bare, a0-device, a1-bare…
        const name = `a${i}-${kind}`;
        files.push(name);
        const args = kind === 'device' ? '{ device }' : '{}';
        await writeFile(path.join(dir, 'specs', `${name}.spec.ts`), specText(head, name, args));
      }
    }
    const result = await runPlaywright(dir, ['--reporter=null'], { PHONEWRIGHT_DEVICES: 'main', BENCH_STAMPS: dir });
    if (result.code !== 0) throw new Error(`the fixture bench failed (exit code ${result.code}):\n${result.output.slice(-4000)}`);
    const gaps: Record<'bare' | 'device', number[]> = { bare: [], device: [] };
    for (const name of files) {
      const stamps = JSON.parse(await readFile(path.join(dir, `${name}.json`), 'utf8')) as number[];
      // The first gap of a file holds its loading (and, for the first device file, the login): not per-test.
      gaps[name.endsWith('device') ? 'device' : 'bare'].push(median(stamps.slice(2).map((t, i) => t - stamps[i + 1]!)));
    }
    // Each device file against the bare file just before it: the pairs ran moments apart.
    const overhead = median(gaps.device.map((d, i) => d - gaps.bare[i]!));
    return {
      figures: { fixture_overhead_ms: round(Math.max(0, overhead), 2) },
      notes: {
        fixture_overhead_ms:
          `test to test: with device ${median(gaps.device).toFixed(2)} ms, bare Playwright ${median(gaps.bare).toFixed(2)} ms ` +
          `(paired difference ${overhead.toFixed(2)} ms${overhead < 0 ? ': within the noise, reported as 0' : ''}); ${FILES_PER_KIND}×${TESTS_PER_FILE} empty tests each`,
      },
    };
  } finally {
    await removeProject(dir);
  }
}

function specText(head: string, name: string, args: string): string {
  return `${head}
import { writeFileSync } from 'node:fs';
const stamps: number[] = [];
for (let i = 0; i < ${TESTS_PER_FILE}; i++) test(\`empty \${i}\`, async (${args}) => void stamps.push(performance.now()));
test.afterAll(() => writeFileSync(\`\${process.env.BENCH_STAMPS}/${name}.json\`, JSON.stringify(stamps)));
`;
}
