import { defineConfig } from '@playwright/test';

// The framework's own tests. They start their own servers on 127.0.0.1, port 0, one per test or worker.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  outputDir: '../test-results/framework',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list'], ['../src/report/summary-reporter.ts']],
});
