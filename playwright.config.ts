import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { deviceMatrix } from './fixtures/matrix.js';
import type { DeviceWorkerOptions } from './fixtures/index.js';
import { MATRIX_RUN } from './src/cli/init-files.js';
import { isOn, NIGHTLY_ENV } from './src/report/nightly-env.js';

// The device matrix users run (npm start, phonewright test): one project per phone, phones in parallel.
// With no server configured, the embedded simulator starts for the run and stops after it.
const matrix = deviceMatrix({ testDir: 'specs' });
// Results and reports go in the matrix's folder (the working folder), as its specs and phonewright.config.json:
// `phonewright test` runs this config for a folder without one, and the reports belong to that folder, not to
// the package's beside this file.
const out = (file: string) => path.join(matrix.dir, file);
// phonewright's reporters: its TypeScript in the repository; where the package is installed, the bundle's, beside
// this config's (dist/pkg/playwright.config.js, what `phonewright test` runs there: Playwright compiles no
// TypeScript under node_modules).
const reporter = (name: string) => (fileURLToPath(import.meta.url).endsWith('.ts') ? `./src/report/${name}.ts` : `./${name}.js`);

export default defineConfig<object, DeviceWorkerOptions>({
  // Playwright names spec files relative to the config's testDir (its rootDir), else to the config's folder: run
  // for a folder from inside node_modules/phonewright/, the report, JUnit and the nightly files named
  // ../../../../specs/a.spec.ts. The matrix's folder names them specs/a.spec.ts, as the user's own config would.
  testDir: matrix.dir,
  projects: matrix.projects,
  workers: matrix.workers,
  globalSetup: matrix.globalSetup,
  // Each phone's tests one at a time, no retries, a test's and an expect's timeout: as in the config init writes.
  ...MATRIX_RUN,
  forbidOnly: !!process.env.CI,
  // Its own folder: a run cleans it, and test-results/ also holds the framework's own test runs.
  outputDir: out('test-results/matrix'),
  reporter: [
    ['list'],
    ['html', { outputFolder: out('reports/html'), open: 'never' }],
    ['json', { outputFile: out('reports/results.json') }],
    // Each phone's test cases named with the phone: [galaxy-s9] home screen › status bar (CI lists them by name).
    ['junit', { outputFile: out('reports/junit.xml'), includeProjectInTestName: true }],
    [reporter('summary-reporter')],
    // Idle but under `phonewright nightly` (PHONEWRIGHT_NIGHTLY=1): reports/history/, nightly.md, trend.html.
    [reporter('history-reporter'), { outputDir: out('reports') }],
    // A part of a nightly (--shard i/n, or PHONEWRIGHT_BLOB=1 per server) leaves a blob for `phonewright merge`.
    ...(isOn(process.env[NIGHTLY_ENV.blob]) ? [['blob', { outputDir: out('reports/blob') }] as const] : []),
  ],
});
