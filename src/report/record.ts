import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullProject, FullResult, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { LEASE_ANNOTATION, parseLeaseAnnotation } from '../lease/holder.js';
import { errorLine } from './error-line.js';
import { firstLine } from './redact.js';
import type { HistoryPhone, HistoryRecord, HistoryStatus, HistoryTest } from './history-types.js';
import { PHONE_SCREEN, PHONE_VIDEO } from './phone-screen.js';
import { NOT_TESTED_LINE, untestedPhones } from './untested.js';

/** How a run is built into a record, besides what Playwright reports. */
export interface RecordContext {
  source: HistoryRecord['source'];
  /** First lines of the errors reported outside any test (`onError`). */
  runErrors: string[];
  /** Values scrubbed from every error line (passwords, tokens). */
  secrets: string[];
}

/**
 * Builds the history record of a finished run from Playwright's own model: one entry per test × phone, by the
 * test's final outcome. Setup projects (those another project depends on, the matrix's `push`) are not
 * phones: their failures become run errors, since every phone's tests depend on them.
 * @param config the run's config (its projects carry the phones' metadata)
 * @param suite the root suite
 * @param result Playwright's verdict and timing
 * @param context the source, the errors outside tests, the secrets to scrub
 */
export function buildRecord(config: FullConfig, suite: Suite, result: FullResult, context: RecordContext): HistoryRecord {
  const setup = new Set(config.projects.flatMap((p) => [...p.dependencies, ...(p.teardown ? [p.teardown] : [])]));
  const phones: Record<string, HistoryPhone> = {};
  for (const project of config.projects) if (!setup.has(project.name)) phones[project.name] = phoneOf(project);
  const runErrors = [...context.runErrors];
  const tests: HistoryTest[] = [];
  for (const test of suite.allTests()) {
    const project = test.parent.project()?.name ?? '';
    const entry = testEntry(test, project, context.secrets);
    if (!setup.has(project)) tests.push(entry);
    else if (entry.status === 'failed') runErrors.push(`${project} › ${entry.test}: ${entry.error ?? 'failed'}`);
  }
  // With every phone out of reach nothing was tested: that is a broken run, not a green one.
  if (tests.length && tests.every((t) => t.infra && t.status === 'skipped')) runErrors.push(`no phone could be reached: ${tests[0]!.error ?? 'phone not reachable'}`);
  // A phone not tested fails the run as an error outside its tests (unless its pool had others, or the config allows it).
  else for (const phone of untestedPhones(suite)) if (!phone.tolerated && !setup.has(phone.project)) runErrors.push(firstLine(`${NOT_TESTED_LINE}${phone.line}`, context.secrets));
  return {
    version: 1,
    startedAt: result.startTime.toISOString(),
    durationMs: Math.round(result.duration),
    status: result.status,
    source: context.source,
    runErrors,
    phones,
    tests,
  };
}

/** The status a test's final outcome reads as in the history. */
export function statusOf(test: TestCase): HistoryStatus {
  const outcome = test.outcome();
  return outcome === 'expected' ? 'passed' : outcome === 'unexpected' ? 'failed' : outcome;
}

function testEntry(test: TestCase, project: string, secrets: string[]): HistoryTest {
  const status = statusOf(test);
  const results = test.results;
  // The titles after the root and project suites: the file, the describe blocks, the test.
  const entry: HistoryTest = {
    test: test.titlePath().slice(2).filter(Boolean).join(' › '),
    id: test.id,
    phone: project,
    status,
    durationMs: Math.round(results.reduce((sum, r) => sum + r.duration, 0)),
    retries: Math.max(0, results.length - 1),
  };
  const last = results.at(-1);
  const ranOn = [...(last?.annotations ?? []), ...test.annotations].find((a) => a.type === 'phone')?.description;
  if (ranOn) entry.ranOn = ranOn;
  const lease = parseLeaseAnnotation([...(last?.annotations ?? []), ...test.annotations].find((a) => a.type === LEASE_ANNOTATION)?.description);
  if (lease) entry.lease = lease;
  const failed = status === 'flaky' ? results.find(isFailure) : status === 'failed' ? [...results].reverse().find(isFailure) : undefined;
  const error = failed ? errorOf(failed) : undefined;
  if (failed && error) entry.error = errorLine(failed, error, secrets);
  else if (status === 'failed') entry.error = `${last?.status ?? 'failed'}`;
  const screen = failed && screenOf(failed);
  if (screen) entry.screen = screen;
  // A failed attempt's film only: a passing test's film (phoneVideo 'on') is no news to the history.
  const film = failed && filmOf(failed);
  if (film) entry.film = film;
  const infra = [...(last?.annotations ?? []), ...test.annotations].find((a) => a.type === 'infra-failure');
  if (infra) {
    entry.infra = true;
    // A phone that could not be reached skips its tests: the reason is what the summary needs to say.
    entry.error ??= firstLine(infra.description ?? 'phone not reachable', secrets);
  }
  return entry;
}

function phoneOf(project: FullProject): HistoryPhone {
  const m = project.metadata as Record<string, unknown>;
  const phone: HistoryPhone = {};
  if (typeof m.server === 'string') phone.server = m.server;
  if (typeof m.deviceId === 'string') phone.deviceId = m.deviceId;
  if (Array.isArray(m.pool)) phone.pool = m.pool.map(String);
  return phone;
}

/**
 * Where the HTML report keeps a failed attempt's phone screen: it names an attachment's file after its content's
 * SHA-1 (`data/<sha1>.png`), which a record can therefore link to before the report is published.
 */
function screenOf(result: TestResult): string | undefined {
  const a = result.attachments.find((x) => x.name === PHONE_SCREEN);
  try {
    const bytes = a?.body ?? (a?.path ? readFileSync(a.path) : undefined);
    return bytes && `data/${createHash('sha1').update(bytes).digest('hex')}.png`;
  } catch {
    return undefined;
  }
}

/** Where the HTML report keeps a failed attempt's film, as {@link screenOf}: `data/<sha1>.webm`. */
function filmOf(result: TestResult): string | undefined {
  const a = result.attachments.find((x) => x.name === PHONE_VIDEO && x.path);
  try {
    return a?.path && `data/${createHash('sha1').update(readFileSync(a.path)).digest('hex')}${path.extname(a.path)}`;
  } catch {
    return undefined;
  }
}

function isFailure(result: TestResult): boolean {
  return result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted';
}

function errorOf(result: TestResult): TestError | undefined {
  return result.errors[0] ?? result.error;
}
