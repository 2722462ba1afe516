import { defineConfig } from '@playwright/test';
import { UNIT_ENV } from './helpers/test.js';

/**
 * The cross-cutting suites and the nightly's, mostly whole runs of the CLI or of Playwright (up to 35 s each).
 * Their project comes first, so they start first and the many short tests fill the end of the run: in folder
 * order they came last, and one of them held the run for its last 10–20 s while the other worker idled.
 */
const END_TO_END = ['faults', 'report', 'secrets', 'inspector', 'review', 'lease', 'agents'].map((folder) => `${folder}/**/*.test.ts`);
/**
 * `npm run test:unit`: the tests that start no run, browser or Redis, most of them short or waiting on a timer
 * rather than on a core. One queue for all the workers, six of them, each given whole files: a worker loads
 * each file it runs a test of (the whole suite is ~3 s of CPU to load), and spread test by test, every worker
 * loaded every file. The two files longest on their timers spread their tests themselves. Side by side on two
 * cores: 53–55 s wall and 96 s of CPU, against 69 s and 120 s test by test; with four workers, 67 s.
 */
const UNIT = process.env[UNIT_ENV] === '1';

// The framework's own tests. They start their own servers on 127.0.0.1, port 0, one per test or worker.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  projects: UNIT
    ? [{ name: 'unit', fullyParallel: false }]
    : [
        // Two at a time: each keeps this machine's two cores busy with the runs it starts.
        { name: 'end-to-end', testMatch: END_TO_END, workers: 2 },
        { name: 'layers', testIgnore: END_TO_END },
      ],
  // The inline projects run the package's bundle: made again first when a source file is newer.
  globalSetup: './helpers/fresh-bundle.ts',
  outputDir: '../test-results/framework',
  fullyParallel: true,
  // Many short tests wait on timers and servers rather than on a core (retries' back-offs, notification windows,
  // timeouts): a third worker runs them beside the two end-to-end ones, and fills the cores they leave idle once
  // those are done. On two cores, side by side: 221 s wall and 350 s of CPU, against 262 s and 333 s with two.
  workers: UNIT ? 6 : 3,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list'], ['../src/report/summary-reporter.ts']],
});
