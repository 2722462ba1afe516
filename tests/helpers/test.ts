/**
 * The suite's `test`: Playwright's without its browser fixtures. `@playwright/test`'s `test` sets up two of
 * them for every test, tracing and context options, each a step with a captured, source-mapped stack: ~10 ms of
 * CPU a test, spent on browsers these tests never open (a worker that ran 600 empty tests, its
 * process.cpuUsage() at exit: 7.2–7.5 s against 1.5–1.7 s). The tests that drive Chromium launch it themselves;
 * the specs of inline runs import the repository's fixtures, which keep Playwright's whole `test`, as a user's
 * specs do.
 */
export { _baseTest as test, expect } from '@playwright/test';
