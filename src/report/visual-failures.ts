// A run's visual failures, read from its JSON report (the last run's reports/results.json, a nightly's, a merged
// report's): every failed region, image and pixel check of each test's last attempt, with what the check attached
// (its facts, facts.ts; its expected, actual and diff images), the phone's screen at the failure and, where the test
// was filmed, its film in the run's results with the steps of its captions. The region checks' samples are found as
// `phonewright approve` finds them (approvals.ts).
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { JSONReport, JSONReportError, JSONReportSuite, JSONReportTestResult } from '@playwright/test/reporter';
import { UsageError } from '../core/errors.js';
import { attachmentBody, readReport, regionFailures, type Attachment, type RegionSample } from './approvals.js';
import { FACTS_ATTACHMENT, parseFacts, type ImageFacts, type PixelFacts, type RegionFacts } from './facts.js';
import { readWebVtt, type FilmStep } from '../video/captions.js';
import { PHONE_SCREEN, PHONE_VIDEO, PHONE_VIDEO_CAPTIONS } from './phone-screen.js';
import { RunFiles } from './run-files.js';

export type VisualFacts = RegionFacts | PixelFacts | ImageFacts;
export type EvidenceKind = 'expected' | 'actual' | 'diff' | 'screen';

/** What a decision on a failure is kept by: the test, the phone, the check and a hash of what it received. */
export interface FailureKey {
  test: string;
  project: string;
  /** `golden corner.png`, `pixel (5, 5)`, `image images/send.png`; `not ` first for a `.not` check. */
  check: string;
  /** The first 16 hex digits of the SHA-256 of the actual image (a pixel check: of the colour received). */
  actual: string;
}

/** One failed check. */
export interface VisualFailure {
  key: FailureKey;
  /** `specs/home.spec.ts › home screen › the status bar`: the spec file and the titles, describes included. */
  test: string;
  /** The spec file, absolute here. */
  spec: string;
  project: string;
  /** The phone's model, from its project's metadata, where the run knew it. */
  model?: string;
  facts: VisualFacts;
  /** The images the check attached, and the phone's whole screen at the failure; PNG bytes. */
  images: Partial<Record<EvidenceKind, Buffer>>;
  /** A region check whose sample may become its golden: the golden here (approvals.ts `goldenProblem` says whether it may be written now). */
  sample?: RegionSample;
  /** Where the check failed (its expect call), here. */
  location?: { file: string; line: number; column: number };
  /** The test's film of its phone (`phone-video`), where the run's results hold it here. */
  film?: Film;
}

/** A failure's film: the file, the steps its captions list, and which of them is this failure's check. */
export interface Film {
  /** The WebM file as the report names it: each read finds it again in the run's results ({@link RunFiles.result}). */
  attached: string;
  /** As the film's captions give them, in ms of film, in the order they began. */
  steps: FilmStep[];
  /** The step of this failure's check, by its place in {@link steps}; undefined when none failed. */
  failing?: number;
}

/** A run, as the review reads it. */
export interface VisualRun {
  /** The JSON report, absolute. */
  file: string;
  /** When the run ended: the report's modification time, ms (a golden newer than this is not what the run saw). */
  ranAt: number;
  /** Its files here, under the root; `files.readOnly` says why none may be written, where that is so. */
  files: RunFiles;
  /** The report's rootDir when it is not on this machine (a CI run): its paths were taken from `files.root`. */
  madeElsewhere?: string;
  failures: VisualFailure[];
}

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Reads a run's visual failures, its files under `root`, never under a folder the report names: a report made on
 * another machine (its rootDir is not here) has its paths taken relative to its rootDir, from `root`; one made in
 * another folder of this machine, or whose tests lie outside `root`, is read-only (`files.readOnly`).
 * @param file the JSON report, e.g. `reports/results.json`
 * @param root the folder the review writes in: the working folder, or the one the command was given
 */
export function readVisualRun(file: string, root: string): VisualRun {
  if (!existsSync(file)) {
    throw new UsageError(`no run to review: ${file} does not exist`, { hint: 'run the specs first (phonewright test), or give --report the folder of a nightly\'s or merged report' });
  }
  const report = readReport(file);
  const here = existsSync(report.config.rootDir);
  const files = new RunFiles(report, root);
  const ranAt = statSync(file).mtimeMs;
  const failures: VisualFailure[] = [];
  for (const { titles, file: specFile, project, result } of lastAttempts(report.suites)) {
    const test = [specFile, ...titles].join(' › ');
    const spec = files.local(specFile);
    const model = modelOf(report, project);
    failures.push(...failuresOf(result, files).map((f) => ({ ...f, test, spec, project, ...(model ? { model } : {}), key: { ...f.key, test, project } })));
  }
  return { file, ranAt, files, ...(here ? {} : { madeElsewhere: report.config.rootDir }), failures };
}

/** The visual failures of one attempt, in the order the checks failed. */
function failuresOf(result: JSONReportTestResult, files: RunFiles): Omit<VisualFailure, 'test' | 'spec' | 'project' | 'model'>[] {
  const samples = regionFailures(result);
  const screen = result.attachments.find((a) => a.name === PHONE_SCREEN);
  const errors = result.errors.filter((e) => e.location).map((e) => ({ ...e, message: e.message.replace(ANSI, '') }));
  const out: Omit<VisualFailure, 'test' | 'spec' | 'project' | 'model'>[] = [];
  const film = filmOf(result, files);
  let from = 0;
  result.attachments.forEach((a, i) => {
    if (a.name !== FACTS_ATTACHMENT) return;
    const facts = parseFacts(attachmentBody(a)?.toString('utf8') ?? '');
    const start = from;
    from = i + 1;
    if (!facts || (facts.matcher !== 'toMatchRegion' && facts.matcher !== 'toHavePixel' && facts.matcher !== 'toShow')) return;
    // A check's images are attached after the check before it, and before its facts.
    const base = baseName(facts);
    const named = (kind: string) => result.attachments.slice(start, i).findLast((b) => b.name === `${base}-${kind}.png`);
    const images: Partial<Record<EvidenceKind, Buffer>> = {};
    for (const kind of ['expected', 'actual', 'diff'] as const) {
      const body = base === undefined ? undefined : bytes(named(kind));
      if (body) images[kind] = body;
    }
    const shot = bytes(screen);
    if (shot) images.screen = shot;
    const sample = samples.find((s) => s.at === i);
    const location = matchError(errors, facts, out.filter((o) => o.facts.matcher === facts.matcher).length);
    out.push({
      key: { test: '', project: '', check: checkName(facts), actual: hash(facts.matcher === 'toHavePixel' ? `pixel ${facts.received ?? 'none'}` : (images.actual ?? '')) },
      facts,
      images,
      ...(sample ? { sample: { ...sample, golden: files.local(sample.golden) } } : {}),
      ...(location ? { location: { ...location, file: files.local(location.file) } } : {}),
      ...(film ? { film: { ...film, ...failingStep(film.steps, facts, out.filter((o) => o.facts.matcher === facts.matcher).length) } } : {}),
    });
  });
  return out;
}

/**
 * The attempt's film, where the run's results hold it here (a path anywhere else is not read), with its steps from
 * the captions beside it.
 */
function filmOf(result: JSONReportTestResult, files: RunFiles): Film | undefined {
  const a = result.attachments.find((x) => x.name === PHONE_VIDEO && x.path);
  if (!a?.path || !files.result(a.path)) return undefined;
  const vtt = bytes(result.attachments.find((x) => x.name === PHONE_VIDEO_CAPTIONS))?.toString('utf8');
  const steps = vtt ? readWebVtt(vtt).sort((x, y) => x.start - y.start) : [];
  return { attached: a.path, steps };
}

/**
 * The step of a failed check: the k-th failed step of its matcher (a step is titled `toHavePixel(x, y, color)`,
 * `not.toMatchRegion(…)`), as its error is the k-th of its matcher's; else the first step that failed.
 */
function failingStep(steps: readonly FilmStep[], facts: VisualFacts, k: number): { failing?: number } {
  const name = `${facts.isNot ? 'not.' : ''}${facts.matcher}`;
  const mine = steps.flatMap((s, i) => (s.failed && (s.title.startsWith(`${name}(`) || s.title.startsWith(`${name}:`)) ? [i] : []));
  const at = mine[k] ?? mine.at(-1) ?? steps.findIndex((s) => s.failed);
  return at >= 0 ? { failing: at } : {};
}

/**
 * Where a check failed: the k-th error of the attempt with this matcher's hint (and, for a pixel, its point and
 * colour), whose location is the expect call's.
 */
function matchError(errors: JSONReportError[], facts: VisualFacts, k: number): JSONReportError['location'] {
  const mine = errors.filter((e) => {
    if (!e.message.includes(`.${facts.isNot ? 'not.' : ''}${facts.matcher}(`)) return false;
    return facts.matcher !== 'toHavePixel' || (e.message.includes(`(${facts.point.x}, ${facts.point.y})`) && e.message.includes(`"${facts.expected}`));
  });
  return mine[k]?.location;
}

/** The name a check's images start with: `corner` of `corner-actual.png`, `pixel-5-5`, `send` of `images/send.png`. */
function baseName(f: VisualFacts): string | undefined {
  if (f.matcher === 'toHavePixel') return `pixel-${f.point.x}-${f.point.y}`;
  if (f.matcher === 'toShow') return f.image.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return f.actualAttachment?.replace(/-actual\.png$/, '');
}

function checkName(f: VisualFacts): string {
  const not = f.isNot ? 'not ' : '';
  if (f.matcher === 'toHavePixel') return `${not}pixel (${f.point.x}, ${f.point.y})`;
  if (f.matcher === 'toShow') return `${not}image ${f.image}`;
  // The golden as the spec names it (`badge.png`), the same on every phone; its file ends in the phone's name.
  return `${not}golden ${f.actualAttachment?.replace(/-actual\.png$/, '.png') ?? f.golden.replace(/^.*[\\/]/, '')}`;
}

function hash(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

function bytes(a: Attachment | undefined): Buffer | undefined {
  return a && attachmentBody(a);
}

function modelOf(report: JSONReport, project: string): string | undefined {
  const model = report.config.projects?.find((p) => p.name === project)?.metadata?.model;
  return typeof model === 'string' && model ? model : undefined;
}

/** Each test's last attempt, with the titles of its describes; the file's own suite gives none. */
function* lastAttempts(suites: readonly JSONReportSuite[] | undefined, titles: string[] = []): Generator<{ titles: string[]; file: string; project: string; result: JSONReportTestResult }> {
  for (const suite of suites ?? []) {
    const inner = titles.length === 0 && suite.title === suite.file ? [] : [...titles, suite.title];
    for (const spec of suite.specs) {
      for (const t of spec.tests) {
        const result = t.results.at(-1);
        if (result && result.status !== 'passed' && result.status !== 'skipped') yield { titles: [...inner, spec.title], file: spec.file, project: t.projectName, result };
      }
    }
    yield* lastAttempts(suite.suites, inner);
  }
}
