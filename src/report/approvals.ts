// What `phonewright approve` takes from the last run: every failed toMatchRegion of reports/results.json, with
// its golden's path and its last sample, read from the facts the check attached (facts.ts) and the actual
// image beside them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { JSONReport, JSONReportTestResult } from '@playwright/test/reporter';
import { UsageError } from '../core/errors.js';
import { FACTS_ATTACHMENT, parseFacts, type RegionFacts } from './facts.js';
import { reportTests } from './json-report.js';
import { movedGoldens, type MovedGolden } from './moved-goldens.js';

/** A golden to take from the last run. */
export interface Approval {
  /** The phone's project. */
  project: string;
  /** `specs/home.spec.ts › the status bar matches`. */
  test: string;
  /** Where the golden goes, absolute. */
  golden: string;
  /** The last sample, PNG bytes. */
  actual: Buffer;
}

export interface ApprovalFilter {
  /** Only these projects (phones); all when empty. */
  projects?: string[];
  /** Only tests whose `file › title` matches. */
  grep?: RegExp;
}

/**
 * The failed region checks of a run's JSON report, each with the golden to write and the image to write there.
 * Refuses (UsageError) a report that is not there or not one, a golden that is gone from the project (or, never
 * written, whose spec is), and a golden newer than the report (written after the run, so not what it compared
 * with) unless it holds the run's sample already (approved: left out): approving nothing then is better than
 * writing where no spec looks, or over what no run has seen.
 * @param file the JSON report, e.g. `reports/results.json`
 */
export function findApprovals(file: string, filter: ApprovalFilter = {}): Approval[] {
  const report = readReport(file);
  const ranAt = statSync(file).mtimeMs;
  const out: (Approval & { problem: GoldenProblem | undefined })[] = [];
  for (const { spec, test: t } of reportTests(report.suites)) {
    const title = `${spec.file} › ${spec.title}`;
    if (filter.grep && !filter.grep.test(title)) continue;
    if (filter.projects?.length && !filter.projects.includes(t.projectName)) continue;
    const last = t.results.at(-1);
    if (!last) continue;
    for (const sample of regionFailures(last)) {
      const problem = goldenProblem(sample, path.resolve(report.config.rootDir, spec.file), ranAt);
      out.push({ project: t.projectName, test: title, golden: sample.golden, actual: sample.actual, problem });
    }
  }
  const gone = out.find((a) => a.problem?.kind === 'gone');
  if (gone) {
    throw new UsageError(`${gone.problem!.file} no longer exists (the golden of ${gone.project} › ${gone.test}); nothing was written`, {
      hint: 'run the specs again (phonewright test) so the last run names the goldens where the specs are now',
    });
  }
  // A golden written since the run that holds the run's sample was approved already: nothing left to write. One
  // holding anything else (changed by hand, or by a later run) was not what the run compared with.
  const newer = out.find((a) => a.problem?.kind === 'newer');
  if (newer) {
    throw new UsageError(`${file} is older than ${newer.golden} (the golden of ${newer.project} › ${newer.test}): the run did not compare with it; nothing was written`, {
      hint: 'run the specs again (phonewright test), then approve what that run found',
    });
  }
  return out.filter((a) => a.problem?.kind !== 'approved').map(({ problem: _, ...a }) => a);
}

/**
 * The goldens the last run's phones no longer look at: those under a phone's former project name, since two
 * servers came to name phones alike and its project became `<server>-<phone>` (moved-goldens.ts), with none
 * under the new name yet. Refuses a report that is not there, as {@link findApprovals} does.
 * @param file the JSON report
 */
export function movedInReport(file: string): MovedGolden[] {
  const report = readReport(file);
  const files = new Map<string, Set<string>>();
  for (const { spec, test: t } of reportTests(report.suites)) {
    const set = files.get(t.projectName) ?? new Set<string>();
    set.add(path.resolve(report.config.rootDir, spec.file));
    files.set(t.projectName, set);
  }
  return movedGoldens((report.config.projects ?? []).map((p) => ({ name: p.name, metadata: p.metadata, files: files.get(p.name) ?? [] })));
}

/** The region checks of one attempt that failed with a sample: differed, or had no golden to compare with. */
export function regionFailures(result: JSONReportTestResult): RegionSample[] {
  const found: RegionSample[] = [];
  result.attachments.forEach((a, i) => {
    if (a.name !== FACTS_ATTACHMENT) return;
    const facts = parseFacts(attachmentBody(a)?.toString('utf8') ?? '');
    if (facts?.matcher !== 'toMatchRegion' || facts.isNot || !failedWithSample(facts)) return;
    // The check attaches its sample just before its facts.
    const image = result.attachments.slice(0, i).findLast((b) => b.name === facts.actualAttachment);
    const actual = image && attachmentBody(image);
    if (actual) found.push({ golden: facts.goldenPath!, actual, missing: facts.outcome === 'missing', at: i });
  });
  return found;
}

/** A failed region check's sample, from one attempt: where its golden goes, and the image to write there. */
export interface RegionSample {
  /** Where the golden goes, absolute, as the run named it. */
  golden: string;
  /** The last sample, PNG bytes. */
  actual: Buffer;
  /** No golden was there to compare with. */
  missing: boolean;
  /** The index of the check's facts among the attempt's attachments. */
  at: number;
}

/**
 * Why a run's sample is not to be written as its golden now: the golden (or, never written, its spec) is `gone`;
 * the golden is `newer` than the run and holds something else; or it was written since the run and holds the
 * run's sample, `approved` already (nothing left to write).
 */
export interface GoldenProblem {
  kind: 'gone' | 'newer' | 'approved';
  /** The file that is gone, or the golden written after the run. */
  file: string;
}

/**
 * Whether a failed region check's sample may be written as its golden: not when the golden that differed is gone
 * from the project (or, never written, its spec is), nor when the golden was written after the run: changed by
 * hand or by a later run, so not what the run compared with (approving nothing then is better than writing where
 * no spec looks, or over what no run has seen), or holding this very sample, approved already (approving twice
 * writes nothing). The golden is read only when it is newer than the run.
 * @param sample the golden, whether it was missing, and the sample
 * @param spec the check's spec file, absolute
 * @param ranAt when the run ended: its JSON report's modification time, ms
 */
export function goldenProblem(sample: Pick<RegionSample, 'golden' | 'missing' | 'actual'>, spec: string, ranAt: number): GoldenProblem | undefined {
  const golden = existsSync(sample.golden) ? statSync(sample.golden) : undefined;
  const needed = sample.missing ? spec : sample.golden;
  if (!(sample.missing ? existsSync(spec) : golden)) return { kind: 'gone', file: needed };
  if (golden && golden.mtimeMs > ranAt) return { kind: readFileSync(sample.golden).equals(sample.actual) ? 'approved' : 'newer', file: sample.golden };
  return undefined;
}

function failedWithSample(f: RegionFacts): boolean {
  return f.goldenPath !== undefined && f.actualAttachment !== undefined && (f.outcome === 'differs' || (f.outcome === 'missing' && !f.written));
}

/** An attachment of a JSON report, as far as its bytes go. */
export type Attachment = { name: string; body?: string; path?: string };

/** An attachment's bytes: its inline body (base64), or its file while that is there. */
export function attachmentBody(a: Attachment): Buffer | undefined {
  if (a.body !== undefined) return Buffer.from(a.body, 'base64');
  if (a.path && existsSync(a.path)) return readFileSync(a.path);
  return undefined;
}

/**
 * A run's JSON report, read; refuses (UsageError) a file that is not there or not one.
 * @param file e.g. `reports/results.json`
 */
export function readReport(file: string): JSONReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`no last run to approve from: ${file} does not exist`, { hint: 'run the specs first (phonewright test); its JSON report is what approve reads' });
  }
  try {
    const report = JSON.parse(text) as JSONReport;
    if (!Array.isArray(report.suites)) throw new Error('no suites');
    return report;
  } catch {
    throw new UsageError(`${file} is not a Playwright JSON report`, { hint: 'give the file the json reporter writes (reports/results.json in the matrix config)' });
  }
}
