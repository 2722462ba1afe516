// Where a path taken from a run's report may be written: only a golden in the snapshots folder of a spec of the
// run, or a spec of the run itself, inside the run's folder here (the working folder, or the one the command was
// given; never a path read from the report) and its projects' testDirs. `phonewright approve` and `phonewright
// review` write through here, and so through the one writer (src/files/writer.ts). A file the run attached by path (a
// film) is read only from the run's results (its projects' output folders).
import { statSync } from 'node:fs';
import path from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { FolderWriter, realOrNone, within, WriteFailed, WriteRefused, type PendingWrite } from '../files/writer.js';
import { reportTests } from './json-report.js';

export { WriteFailed, type PendingWrite };

/**
 * The files of a run a review may write, found from its JSON report. A report made on another machine (a CI
 * nightly) names that machine's paths: they are taken relative to its rootDir, from `root` here. A report made in
 * another folder of this machine, or whose tests lie outside `root`, is read only ({@link readOnly}).
 */
export class RunFiles {
  /** The run's folder here, absolute. */
  readonly root: string;
  /** Why nothing of this run may be written from here, in one line; undefined when its files may be. */
  readonly readOnly: string | undefined;
  readonly #reportRoot: string;
  /** Where the report's paths are taken from here: its rootDir when that is this folder or inside it, else {@link root}. */
  readonly #base: string;
  /** The projects' testDirs, each with the writer of its files (a link on the way must stay inside it). */
  readonly #testDirs: Map<string, FolderWriter>;
  readonly #specs: Set<string>;
  /** The projects' output folders here (`test-results/`): the run's results, where its attached files are. */
  readonly #results: string[];

  /**
   * @param report the run's JSON report
   * @param root the run's folder on this machine: the working folder, or the one the command was given
   */
  constructor(report: JSONReport, root: string) {
    this.#reportRoot = path.resolve(report.config.rootDir);
    this.root = path.resolve(root);
    // A run made here has its rootDir in the root (Playwright's rootDir is the config's testDir: the root's specs/).
    const made = realOrNone(this.#reportRoot);
    const realRoot = realOrNone(this.root) ?? this.root;
    const madeHere = made !== undefined && (made === realRoot || within(realRoot, made));
    this.#base = madeHere ? this.#reportRoot : this.root;
    const dirs = (report.config.projects ?? []).flatMap((p) => (typeof p.testDir === 'string' ? [this.local(p.testDir)] : []));
    this.#testDirs = new Map((dirs.length ? dirs : [this.root]).map((d) => [d, new FolderWriter(d, `the run's specs (${d})`, HINT)]));
    this.#specs = new Set([...reportTests(report.suites)].map(({ spec }) => this.local(spec.file)));
    this.#results = [...new Set((report.config.projects ?? []).flatMap((p) => (typeof p.outputDir === 'string' ? [this.local(p.outputDir)] : [])))];
    this.readOnly = made !== undefined && !madeHere ? `the run was made in ${this.#reportRoot}, not in ${this.root}: review it from that folder, or give that folder as --root` : this.#outside();
  }

  /**
   * A path of the report, here: as it is for a run made in this folder; for one made on another machine, one under
   * its rootDir is moved to {@link root}, and a relative one starts there.
   * @param file as the report names it
   */
  local(file: string): string {
    const rel = path.isAbsolute(file) ? path.relative(this.#reportRoot, file) : file;
    return path.resolve(this.#base, rel);
  }

  /**
   * Where a golden the report names may be written, or a refusal: it must be a PNG in the `-snapshots/` folder of
   * a spec of the run (`spec`'s, when given), inside the run's folder and a project's testDir.
   * @param file the golden, as the report names it
   * @param spec the check's spec, absolute here
   */
  golden(file: string, spec?: string): string {
    const golden = this.local(file);
    const folder = path.dirname(golden);
    const owner = folder.endsWith('-snapshots') ? folder.slice(0, -'-snapshots'.length) : undefined;
    const ok = path.extname(golden) === '.png' && owner !== undefined && this.#specs.has(owner) && (spec === undefined || owner === spec);
    if (!ok) throw refused(golden, 'it is not a golden of a spec of the run (a PNG in the -snapshots folder beside the spec)');
    this.#inside(owner);
    return this.#inside(golden);
  }

  /**
   * Where a spec the report names may be written, or a refusal: a spec file of the run, inside its folder.
   * @param file the spec, as the report names it (absolute, or relative to the rootDir)
   */
  spec(file: string): string {
    const spec = this.local(file);
    if (!this.#specs.has(spec)) throw refused(spec, 'it is not a spec file of the run');
    return this.#inside(spec);
  }

  /**
   * Where a file the run attached by path (a film) may be read here, or undefined: a file in the run's results (a
   * project's output folder), once links are followed, and there now. Reading is allowed in a read-only review; a
   * path the report names anywhere else is never opened.
   * @param file as the report names it
   */
  result(file: string): string | undefined {
    const here = this.local(file);
    const real = realOrNone(here);
    if (real === undefined || !statSync(real, { throwIfNoEntry: false })?.isFile()) return undefined;
    const inside = this.#results.some((dir) => {
      const realDir = realOrNone(dir);
      return within(dir, here) && realDir !== undefined && within(realDir, real);
    });
    return inside ? real : undefined;
  }

  /**
   * Writes goldens and specs of the run, all or none, each checked again as it is written (a link put on the way
   * since it was planned is refused).
   * @param writes files {@link golden} or {@link spec} gave
   */
  async write(writes: readonly PendingWrite[]): Promise<void> {
    const byFolder = new Map<FolderWriter, PendingWrite[]>();
    for (const w of writes) {
      const writer = this.#writerOf(w.file);
      byFolder.set(writer, [...(byFolder.get(writer) ?? []), w]);
    }
    // One testDir's files all or none (a run has one testDir but where projects name their own).
    for (const [writer, files] of byFolder) await writer.writeAll(files);
  }

  /** Refuses a path of a read-only run, or outside the run's folder or its testDirs, by name and once links are followed. */
  #inside(file: string): string {
    return this.#writerOf(file).target(file);
  }

  /** The writer of the testDir a file is in, by name; a refusal of a read-only run or a file outside them. */
  #writerOf(file: string): FolderWriter {
    if (this.readOnly) throw refused(file, this.readOnly);
    const dir = [...this.#testDirs.keys()].find((d) => within(d, file));
    if (!within(this.root, file)) throw refused(file, `it is outside the run's folder (${this.root})`);
    if (dir === undefined) throw refused(file, `it is outside the run's specs (${[...this.#testDirs.keys()].join(', ')})`);
    return this.#testDirs.get(dir)!;
  }

  /** Why a run's tests cannot be written: one lies outside the root. */
  #outside(): string | undefined {
    const outside = [...this.#specs].find((s) => !within(this.root, s));
    if (outside) return `its tests lie outside ${this.root} (${outside})`;
    return undefined;
  }
}

/**
 * Writes files of a report's folder (the review's decisions, its static page) atomically, all or none, through the
 * one writer, inside the folder they share.
 * @param writes absolute paths
 */
export async function writeAtomically(writes: readonly PendingWrite[]): Promise<void> {
  if (!writes.length) return;
  const dirs = writes.map((w) => path.dirname(path.resolve(w.file)));
  let common = dirs[0]!;
  while (!dirs.every((d) => d === common || within(common, d))) common = path.dirname(common);
  await new FolderWriter(common, common).writeAll(writes);
}

const HINT = 'a golden or spec is written only where the run\'s specs are: review the run from its own folder';

function refused(file: string, reason: string): WriteRefused {
  return new WriteRefused(file, reason, HINT);
}
