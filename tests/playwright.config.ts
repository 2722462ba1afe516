import { defineConfig } from '@playwright/test';

// The framework's own tests. They start their own servers on 127.0.0.1, port 0, one per test or worker.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  outputDir: '../test-results/framework',
  fullyParallel: true,
  // Most tests wait on servers, timers and spawned runs rather than on this machine's cores: two workers on
  // two cores (Playwright's default is half the cores).
  workers: 2,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list'], ['../src/report/summary-reporter.ts']],
});
