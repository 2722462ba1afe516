/**
 * The suite's `test`: Playwright's without its browser fixtures. `@playwright/test`'s `test` sets up two of
 * them for every test, tracing and context options, each a step with a captured, source-mapped stack: ~10 ms of
 * CPU a test, spent on browsers these tests never open (a worker that ran 600 empty tests, its
 * process.cpuUsage() at exit: 7.2–7.5 s against 1.5–1.7 s). The tests that drive Chromium launch it themselves;
 * the specs of inline runs import the repository's fixtures, which keep Playwright's whole `test`, as a user's
 * specs do.
 */
import { _baseTest } from '@playwright/test';

export { _baseTest as test, expect } from '@playwright/test';

/**
 * Marks the running test as one that starts `what` (a Playwright run, a browser, Redis): under
 * `npm run test:unit` (PHONEWRIGHT_TEST_UNIT=1), the fast loop of tests that start none of these, it is skipped
 * here, saying so; `npm test` runs it. Called by the helpers that start them, so no list of files can go stale.
 * @param what what the test starts, e.g. `a Playwright run`
 */
export function startsHeavy(what: string): void {
  if (process.env[UNIT_ENV] === '1') _baseTest.info().skip(true, `starts ${what}: run by npm test, not npm run test:unit`);
}

/** Set by `npm run test:unit`: the tests that start a Playwright run, a browser or Redis skip themselves. */
export const UNIT_ENV = 'PHONEWRIGHT_TEST_UNIT';
