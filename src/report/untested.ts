import path from 'node:path';
import type { Suite, TestCase } from '@playwright/test/reporter';

/**
 * The annotation a test of a phone that could not be tested carries (login refused, server unreachable, a phone
 * the server does not have), beside `infra-failure`: `<phone> on <server>: <cause>`. The fixtures add it when
 * they skip the test; the reporters read it.
 */
export const NOT_TESTED = 'phone-not-tested';
/**
 * Whether a run's reporters (Playwright's `config.reporter`, ids resolved to paths) include phonewright's summary,
 * which fails the run for a phone not tested: the fixtures skip such a phone's tests only where it does. Known by
 * where the package keeps it (its source, the bundle, tsc's build), not by its name: a reporter of the user's own
 * called summary-reporter would otherwise let an untested phone's skipped tests pass the run.
 * @param packageRoot the folder of phonewright's package.json
 */
export function failsUntestedPhones(reporters: readonly (readonly [string, unknown?])[], packageRoot: string): boolean {
  const own = ['src/report/summary-reporter.ts', 'dist/pkg/summary-reporter.js', 'dist/src/report/summary-reporter.js'].map((f) => path.join(packageRoot, f));
  return reporters.some(([id]) => own.includes(id));
}

/** How the line of a phone not tested starts, on the console and among a history record's run errors. */
export const NOT_TESTED_LINE = 'not tested, ';

/** A phone whose tests were skipped because it could not be reached. */
export interface UntestedPhone {
  /** The phone's project (a pool's project for a pool phone). */
  project: string;
  /** `<phone> on <server>: <cause>`, as the fixture wrote it when it first gave up on the phone. */
  line: string;
  /** Its tests skipped for it. */
  skipped: number;
  /**
   * Why the run does not fail for it: `skip` when the config says `"unreachablePhones": "skip"`; undefined when
   * it fails the run. A pool's phone fails it too: the tests it skipped ran on no other phone of the pool.
   */
  tolerated?: 'skip';
}

/**
 * The phones of a finished run that could not be tested, each once, in project order. A phone fails the run
 * unless the run opted into skipping such phones (the project's
 * metadata `unreachablePhones: 'skip'`, set by the device matrix from phonewright.config.json).
 * @param suite the run's root suite
 */
export function untestedPhones(suite: Suite): UntestedPhone[] {
  const phones = new Map<string, UntestedPhone>();
  for (const test of suite.allTests()) {
    const project = test.parent.project();
    const name = project?.name ?? '';
    const line = notTested(test);
    if (line === undefined) continue;
    // A pool's phones are told apart by the phone that ran the test; a project of one phone is the phone.
    const key = `${name}\n${annotation(test, 'phone') ?? ''}`;
    const metadata = (project?.metadata ?? {}) as { unreachablePhones?: string };
    const entry = phones.get(key) ?? { project: name, line, skipped: 0, ...(metadata.unreachablePhones === 'skip' ? { tolerated: 'skip' as const } : {}) };
    entry.skipped++;
    phones.set(key, entry);
  }
  return [...phones.values()];
}

/**
 * The console lines of a run's untested phones, `phonewright: …`: one per phone that fails the run, and one
 * line for those tolerated (`"unreachablePhones": "skip"`).
 */
export function untestedLines(phones: UntestedPhone[]): string[] {
  const failing = phones.filter((p) => !p.tolerated).map((p) => `phonewright: ${NOT_TESTED_LINE}${p.line} (${p.skipped} test${p.skipped === 1 ? '' : 's'} skipped)`);
  const skip = phones.filter((p) => p.tolerated === 'skip');
  return [
    ...failing,
    ...(skip.length ? [`phonewright: not tested, and allowed by "unreachablePhones": "skip": ${list(skip)}`] : []),
  ];
}

function list(phones: UntestedPhone[]): string {
  return phones.map((p) => p.line).join('; ');
}

/** The test's not-tested line, when it was skipped for its phone. */
function notTested(test: TestCase): string | undefined {
  const last = test.results.at(-1);
  if (last?.status !== 'skipped') return undefined;
  return annotation(test, NOT_TESTED);
}

function annotation(test: TestCase, type: string): string | undefined {
  return [...(test.results.at(-1)?.annotations ?? []), ...test.annotations].find((a) => a.type === type)?.description;
}
