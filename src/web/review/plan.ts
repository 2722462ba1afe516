// What accepting a failure would write, decided afresh each time from the files as they are now: a region check's
// sample as its golden (where the run looks, as `phonewright approve` writes it), or a pixel check's colour in its
// spec line; or why it cannot be accepted. A batch writes each file once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isPhonewrightError, UsageError } from '../../core/errors.js';
import { goldenProblem } from '../../report/approvals.js';
import type { PendingWrite } from '../../report/run-files.js';
import type { VisualFailure, VisualRun } from '../../report/visual-failures.js';
import { pixelLine, withLines } from './spec-line.js';

/** What accepting one failure writes. */
export type Plan =
  | { ok: true; golden?: { file: string; content: Buffer }; line?: { file: string; line: number; before: string; after: string } }
  | { ok: false; why: string; stale?: boolean; readOnly?: boolean; where?: { file: string; line: number; code: string } };

/**
 * What accepting a failure would write now, or why it cannot be accepted.
 * @param sources spec files read so far (path → text), shared by the plans of one answer
 */
export function planOf(f: VisualFailure, run: VisualRun, shown: (file: string) => string, sources: Map<string, string>): Plan {
  const facts = f.facts;
  if (facts.matcher === 'toShow') {
    return { ok: false, why: `an image check looks for the picture its spec names (${facts.image}): if the screen changed on purpose, cut the picture again with phonewright inspect` };
  }
  if (facts.isNot) return { ok: false, why: 'a .not check: the phone showed what it must not; there is nothing to take from it' };
  if (facts.matcher === 'toHavePixel') return pixelPlan(f, facts.expected, facts.received, run, shown, sources);
  if (facts.outcome === 'missing' && facts.written) return { ok: false, why: 'the run wrote this sample as the golden already: the next run compares against it' };
  if (facts.outcome === 'unstable') return { ok: false, why: 'the region never held still, so there is no sample to take: make the screen still, or mask what moves' };
  if (facts.outcome === 'unsampled') return { ok: false, why: 'no complete sample of the region was read in time: there is nothing to take' };
  const sample = f.sample;
  if (!sample) return { ok: false, why: 'the report holds no sample of this check' };
  // Where the report says the golden goes is checked first: no path outside the run's snapshots is even looked at.
  let file: string;
  try {
    file = run.files.golden(sample.golden, f.spec);
  } catch (error) {
    return refusal(error);
  }
  // As phonewright approve decides it, from the files as they are now: a golden written since is never written
  // again; one that holds this sample was accepted already (by approve, or another review of this run).
  const problem = goldenProblem({ golden: file, missing: sample.missing, actual: sample.actual }, f.spec, run.ranAt);
  if (problem?.kind === 'approved') return { ok: false, why: `accepted already: ${shown(file)} holds this run's sample, written since the run` };
  if (problem?.kind === 'newer') return { ok: false, stale: true, why: `stale: ${shown(file)} changed after this run, so the run did not compare with it; run the specs again and review that run` };
  if (problem?.kind === 'gone') return { ok: false, stale: true, why: `stale: ${shown(problem.file)} no longer exists; run the specs again and review that run` };
  return { ok: true, golden: { file, content: sample.actual } };
}

/**
 * The writes of a batch of plans, each file once: one golden per path (two phones' different samples for one
 * golden are refused), one text per spec with every line changed in it (two colours for one line are refused).
 */
export function batchWrites(plans: Extract<Plan, { ok: true }>[], sources: Map<string, string>, shown: (file: string) => string): PendingWrite[] {
  const goldens = new Map<string, Buffer>();
  const lines = new Map<string, Map<number, string>>();
  for (const p of plans) {
    if (p.golden) {
      const had = goldens.get(p.golden.file);
      if (had && !had.equals(p.golden.content)) throw new UsageError(`two phones' samples differ for one golden, ${shown(p.golden.file)}; nothing was written`, { hint: 'accept one of them on its own' });
      goldens.set(p.golden.file, p.golden.content);
    }
    if (p.line) {
      const file = lines.get(p.line.file) ?? new Map<number, string>();
      const had = file.get(p.line.line);
      if (had !== undefined && had !== p.line.after) throw new UsageError(`phones showed different colours for one line, ${shown(p.line.file)}:${p.line.line}; nothing was written`, { hint: 'accept one of them on its own' });
      file.set(p.line.line, p.line.after);
      lines.set(p.line.file, file);
    }
  }
  const texts = [...lines].map(([file, changed]) => ({ file, content: withLines(sources.get(file)!, [...changed].map(([line, after]) => ({ line, after }))) }));
  return [...[...goldens].map(([file, content]) => ({ file, content })), ...texts];
}

function pixelPlan(f: VisualFailure, expected: string, received: string | undefined, run: VisualRun, shown: (file: string) => string, sources: Map<string, string>): Plan {
  if (received === undefined) return { ok: false, why: 'no colour was read: there is nothing to take' };
  const at = f.location;
  if (!at) return { ok: false, why: 'the report does not say which line failed' };
  let file: string;
  try {
    file = run.files.spec(at.file);
  } catch {
    return { ok: false, why: `the colour is set in ${shown(at.file)}:${at.line}, not in a spec of the run: change it there` };
  }
  let source = sources.get(file);
  if (source === undefined) {
    try {
      source = readFileSync(file, 'utf8');
    } catch (e) {
      return { ok: false, stale: true, why: `cannot read ${shown(file)}: ${(e as Error).message}` };
    }
    sources.set(file, source);
  }
  const change = pixelLine(source, at.line, expected, received);
  if ('why' in change) {
    const where = { file: shown(file), line: at.line, code: change.code.trim() };
    // A line that changed since the run (another colour, or gone) is the spec's newer state: run again.
    return change.kind === 'changed' ? { ok: false, stale: true, why: `stale: ${change.why}`, where } : { ok: false, why: change.why, where };
  }
  return { ok: true, line: { file, line: at.line, before: change.before, after: change.after } };
}

function refusal(error: unknown): Plan {
  if (!isPhonewrightError(error)) throw error;
  return { ok: false, why: error.message };
}

/** A path as the page shows it: relative to the working folder, with forward slashes. */
export function shownFrom(cwd: string): (file: string) => string {
  return (file) => path.relative(cwd, file).split(path.sep).join('/') || '.';
}
