import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { KeptReports } from './kept-reports.js';
import { movedGoldenLine, movedGoldens, type MovedGolden } from './moved-goldens.js';
import { jsonReportFile, RUN_RESULTS_ENV, writeRunResults } from './run-results.js';
import { untestedLines, untestedPhones } from './untested.js';

/**
 * Prints the closing line of a run, `N passed, N failed` (`, N skipped` when any were skipped), counted per
 * test by its final outcome: a test that passed on retry counts as passed (Playwright calls it flaky), a
 * test interrupted or timed out counts as failed. An error outside any test (a spec that does not load, a
 * failing global setup) counts as one failure, so a broken run never reads `0 failed`.
 *
 * A phone that could not be tested (login refused, server down, a phone the server does not have) skips its
 * tests so the rest of the matrix runs; here it gets one line naming the phone, its server and the cause, counts
 * as one failure, and fails the run (the result `onEnd` returns is Playwright's exit code), unless its pool
 * still had phones or the config says `"unreachablePhones": "skip"` (then it is named, once).
 *
 * A golden left under a phone's former project name (two servers came to name phones alike, so the phone's project
 * is now `<server>-<phone>`) gets one line too, once, found before the run writes any golden (moved-goldens.ts).
 *
 * A run that tests nothing (`--list`, a `--grep` that matches no test) leaves the last run's HTML report,
 * results.json and JUnit file as they were (kept-reports.ts): listed after those reporters, as every
 * phonewright config lists it.
 *
 * Where RUN_RESULTS_ENV names a file, it writes there where the run's JSON report is and whether the run tested
 * anything (run-results.ts): how a program that started the run finds its results, whatever the config names.
 */
export default class SummaryReporter implements Reporter {
  #tests = new Set<TestCase>();
  #globalErrors = 0;
  #suite: Suite | undefined;
  #kept: KeptReports | undefined;
  #tested = false;
  #moved: MovedGolden[] = [];
  #config: FullConfig | undefined;

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#suite = suite;
    this.#config = config;
    const projects = suite.suites.map((p) => ({ name: p.title, metadata: p.project()?.metadata, files: p.allTests().map((t) => t.location.file) }));
    this.#moved = movedGoldens(projects);
    // Before any reporter writes: they all write at the run's end.
    this.#kept = new KeptReports(config.reporter, config.configFile ? path.dirname(config.configFile) : config.rootDir);
    this.#kept.stash();
  }

  onTestBegin(): void {
    this.#tested = true;
  }

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.#tests.add(test);
  }

  onError(_error: TestError): void {
    this.#globalErrors++;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    this.#kept?.settle(this.#tested);
    const told = process.env[RUN_RESULTS_ENV];
    if (told && this.#config) {
      const configDir = this.#config.configFile ? path.dirname(this.#config.configFile) : this.#config.rootDir;
      writeRunResults(told, { json: jsonReportFile(this.#config.reporter, configDir, process.env, process.cwd()) ?? null, tested: this.#tested });
    }
    const untested = this.#suite ? untestedPhones(this.#suite) : [];
    for (const line of untestedLines(untested)) process.stdout.write(`${line}\n`);
    for (const moved of this.#moved) process.stdout.write(`phonewright: ${movedGoldenLine(moved, process.cwd())}\n`);
    const notTested = untested.filter((p) => !p.tolerated).length;
    let passed = 0;
    let failed = this.#globalErrors + notTested;
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
    // `--list` runs nothing and fails nothing: "0 passed, 0 failed" would read as a run.
    if (this.#tested || failed || skipped) process.stdout.write(`${line}\n`);
    return notTested && result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
