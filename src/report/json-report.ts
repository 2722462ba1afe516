import type { JSONReportSpec, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';

/** Every test of a Playwright JSON report (one per spec and project), with its spec, nested suites included. */
export function* reportTests(suites: readonly JSONReportSuite[] | undefined): Generator<{ spec: JSONReportSpec; test: JSONReportTest }> {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs) for (const test of spec.tests) yield { spec, test };
    yield* reportTests(suite.suites);
  }
}
