import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';

/**
 * Prints the closing line of a run, `N passed, N failed` (`, N skipped` when any were skipped), counted per
 * test by its final outcome: a test that passed on retry counts as passed (Playwright calls it flaky), a
 * test interrupted or timed out counts as failed. An error outside any test (a spec that does not load, a
 * failing global setup) counts as one failure, so a broken run never reads `0 failed`.
 */
export default class SummaryReporter implements Reporter {
  #tests = new Set<TestCase>();
  #globalErrors = 0;

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.#tests.add(test);
  }

  onError(_error: TestError): void {
    this.#globalErrors++;
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = this.#globalErrors;
    let skipped = 0;
    for (const test of this.#tests) {
      const outcome = test.outcome();
      if (outcome === 'skipped') skipped++;
      else if (outcome === 'expected' || outcome === 'flaky') passed++;
      else failed++;
    }
    // A run stopped by its global timeout or by Ctrl-C has not passed, whatever ran before.
    if ((result.status === 'timedout' || result.status === 'interrupted') && failed === 0) failed = 1;
    const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`${line}\n`);
  }
}
