// The review's decisions, kept beside the report (reports/review.json): each failure accepted or rejected, by its
// test, phone, check and a hash of what it received. A rejection stands for every later run that fails the same
// way (the next nightly's review shows it as rejected already); an acceptance belongs to the run it was made on.
import { readFileSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import type { FailureKey } from '../../report/visual-failures.js';
import { writeAtomically } from '../../report/run-files.js';

/** The file's name, in the report's folder. */
export const DECISIONS_FILE = 'review.json';

/** One decision. */
export interface Decision extends FailureKey {
  verdict: 'accepted' | 'rejected';
  /** When it was made, ISO 8601. */
  at: string;
  /** When the run it was made on ended, ISO 8601: an acceptance counts for that run only. */
  run: string;
  /** What an acceptance wrote, paths relative to the run's folder. */
  files?: string[];
}

/**
 * The decisions of a report's folder, read once and written whole, atomically, at each decision; one write at a
 * time, each from the list the writes before it left.
 */
export class Decisions {
  readonly file: string;
  #all: Decision[];
  /** The last write asked for: the next starts when it has ended, so none is computed from a list about to change. */
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(file: string, all: Decision[]) {
    this.file = file;
    this.#all = all;
  }

  /**
   * Reads the file; none yet is no decision. A file that is not the review's is refused, never written over.
   * @param file e.g. `reports/review.json`
   */
  static load(file: string): Decisions {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Decisions(file, []);
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`, { hint: 'check its permissions' });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const all = (parsed as { decisions?: unknown })?.decisions;
    if (!Array.isArray(all) || !all.every(isDecision)) {
      throw new UsageError(`${file} is not the review's decisions file`, { hint: 'move it aside; the review writes a new one with the next decision' });
    }
    return new Decisions(file, all);
  }

  /**
   * The decision standing for a failure of the run that ended at `run`: a rejection of a failure that failed the
   * same way, or an acceptance made on this run.
   */
  find(key: FailureKey, run: string): Decision | undefined {
    return this.#all.findLast((d) => same(d, key) && (d.verdict === 'rejected' || d.run === run));
  }

  /**
   * Keeps new decisions, after those asked for before them: the file is written first, and only then are they held.
   * Two adds at once each computed the list from the one before both, and the second write lost the first's.
   */
  add(decisions: readonly Decision[]): Promise<void> {
    const added = this.#writing.then(async () => {
      const all = [...this.#all.filter((d) => !decisions.some((n) => same(d, n))), ...decisions];
      await writeAtomically([{ file: this.file, content: `${JSON.stringify({ version: 1, decisions: all }, null, 2)}\n` }]);
      this.#all = all;
    });
    // A failed write is its caller's to hear; the next add still runs, from the list as it stands.
    this.#writing = added.catch(() => undefined);
    return added;
  }
}

function same(a: FailureKey, b: FailureKey): boolean {
  return a.test === b.test && a.project === b.project && a.check === b.check && a.actual === b.actual;
}

function isDecision(v: unknown): v is Decision {
  const d = v as Record<string, unknown>;
  return (
    typeof d === 'object' && d !== null &&
    ['test', 'project', 'check', 'actual', 'at', 'run'].every((k) => typeof d[k] === 'string') &&
    (d.verdict === 'accepted' || d.verdict === 'rejected') &&
    (d.files === undefined || (Array.isArray(d.files) && d.files.every((f) => typeof f === 'string')))
  );
}
