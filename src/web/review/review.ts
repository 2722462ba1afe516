// A review of one run: its visual failures as the page lists them, their images and heat maps, and the decisions:
// accept (one failure, all of a phone's, or one check on every phone of a model) and reject, one at a time. A run
// made in another folder of this machine, or whose tests lie outside the root, is reviewed read-only.
import { UsageError } from '../../core/errors.js';
import { decodePng, encodePng, heatMap, type Rect } from '../../image/index.js';
import type { EvidenceKind, VisualFailure, VisualRun } from '../../report/visual-failures.js';
import type { Decision, Decisions } from './decisions.js';
import { readFilm } from './film.js';
import { gitStatus } from './git.js';
import { itemJson, type ItemJson } from './items.js';
import { batchWrites, planOf, shownFrom, type Plan } from './plan.js';

/** Which failures one Accept takes. */
export type Scope = 'one' | 'phone' | 'model';
export const SCOPES: readonly Scope[] = ['one', 'phone', 'model'];

/** An image the page shows: what the check attached, or the heat map drawn here. */
export type ImageKind = EvidenceKind | 'heat';

/** A heat map, drawn once per failure. */
export interface Heat {
  png: Buffer;
  changed: number;
  largest: number;
}

/** What a decision did. */
export interface DecisionResult {
  /** The files written, relative to the working folder. */
  written: string[];
  /** `git status --porcelain` of them; undefined outside a repository. */
  git?: string[];
  /** Failures decided; and, of a batch, those left because they cannot be accepted. */
  decided: number;
  skipped: number;
}

/** The run's summary for the page's header. */
export interface RunJson {
  report: string;
  ranAt: string;
  madeElsewhere?: string;
  root: string;
  /** Why Accept writes nothing in this review, in one line; absent when it may write. */
  readOnly?: string;
}

export class Review {
  readonly run: VisualRun;
  readonly #decisions: Decisions | undefined;
  readonly #shown: (file: string) => string;
  readonly #cwd: string;
  readonly #heat = new Map<string, Heat | null>();
  /**
   * The last decision asked for: each waits for the one before it. Two accepts at once each planned from the spec
   * as it was before both, and the second write put back the line the first had changed.
   */
  #turn: Promise<unknown> = Promise.resolve();

  /**
   * @param decisions where decisions are kept; none for a page that only shows them (the static page reads them)
   * @param cwd the working folder: paths are shown from it, and git is asked there
   */
  constructor(run: VisualRun, decisions: Decisions | undefined, cwd: string) {
    this.run = run;
    this.#decisions = decisions;
    this.#cwd = cwd;
    this.#shown = shownFrom(cwd);
  }

  /** The run's facts for the page. */
  runJson(): RunJson {
    const { madeElsewhere } = this.run;
    const { readOnly } = this.run.files;
    return { report: this.#shown(this.run.file), ranAt: new Date(this.run.ranAt).toISOString(), root: this.#shown(this.run.files.root), ...(madeElsewhere ? { madeElsewhere } : {}), ...(readOnly ? { readOnly } : {}) };
  }

  /**
   * Every failure as the page lists it, with what Accept would write now.
   * @param url where the page finds a failure's image
   * @param filmUrl where it finds a failure's film; undefined where it cannot play it
   */
  items(url: (id: string, kind: ImageKind) => string, filmUrl: (id: string) => string | undefined = () => undefined): ItemJson[] {
    const sources = new Map<string, string>();
    const run = new Date(this.run.ranAt).toISOString();
    return this.run.failures.map((f, i) => {
      const decision = this.#decision(f);
      const plan = decision?.verdict === 'accepted' ? accepted : this.#plan(f, sources);
      return itemJson(idOf(i), f, plan, decision, run, this.#shown, url, maskOf(f), filmUrl(idOf(i)));
    });
  }

  /** An image of a failure, or undefined where it has none. */
  image(id: string, kind: ImageKind): Buffer | undefined {
    const f = this.#failure(id);
    return kind === 'heat' ? this.heat(id)?.png : f.images[kind];
  }

  /** A failure's film (WebM), read from the run's results; undefined where it has none there. */
  film(id: string): Promise<Buffer | undefined> {
    const film = this.#failure(id).film;
    return film ? readFilm(film, this.run.files) : Promise.resolve(undefined);
  }

  /** A failure's heat map: its expected and actual images in ΔE00, its masks shown; undefined without both, or of two sizes. */
  heat(id: string): Heat | undefined {
    if (!this.#heat.has(id)) {
      const f = this.#failure(id);
      const { expected, actual } = f.images;
      const map = expected && actual ? heatMap(decodePng(expected, 'the expected image'), decodePng(actual, 'the actual image'), maskOf(f)) : undefined;
      this.#heat.set(id, map ? { png: encodePng(map.image, {}, true), changed: map.changed, largest: Math.round(map.largest * 100) / 100 } : null);
    }
    return this.#heat.get(id) ?? undefined;
  }

  /**
   * Accepts failures: writes their goldens and spec lines (each file once, all or none, atomically), then keeps the
   * decisions. `one` refuses a failure that cannot be accepted; `phone` and `model` take those that can. It runs
   * after the decisions asked for before it, and plans from the files as they are then. A read-only review refuses.
   * @param scope `one`; `phone`: every failure of its phone; `model`: its check on every phone of its model
   */
  accept(id: string, scope: Scope): Promise<DecisionResult> {
    return this.#inTurn(() => this.#accept(id, scope));
  }

  /**
   * Marks a failure reviewed and rejected: it leaves the queue, on this run and on every run where it fails the
   * same way. It runs after the decisions asked for before it.
   */
  reject(id: string): Promise<DecisionResult> {
    return this.#inTurn(() => this.#reject(id));
  }

  /** Runs a decision when those asked for before it have ended, whether they succeeded or not. */
  #inTurn<T>(decide: () => Promise<T>): Promise<T> {
    const mine = this.#turn.then(decide);
    this.#turn = mine.catch(() => undefined);
    return mine;
  }

  async #accept(id: string, scope: Scope): Promise<DecisionResult> {
    const f = this.#failure(id);
    const readOnly = this.run.files.readOnly;
    if (readOnly) throw new UsageError(`this review is read-only, nothing was written: ${readOnly}`);
    const group = this.#group(f, scope);
    const sources = new Map<string, string>();
    const plans = group.map((g) => ({ g, plan: this.#decision(g)?.verdict === 'accepted' ? accepted : this.#plan(g, sources) }));
    const mine = plans.find((p) => p.g === f)!.plan;
    if (scope === 'one' && !mine.ok) throw new UsageError(`cannot accept this failure: ${mine.why}`);
    const ok = plans.filter((p): p is { g: VisualFailure; plan: Extract<Plan, { ok: true }> } => p.plan.ok);
    if (!ok.length) throw new UsageError(`nothing to accept: ${mine.ok ? 'no failure of the group can be accepted' : mine.why}`);
    const writes = batchWrites(ok.map((p) => p.plan), sources, this.#shown);
    await this.run.files.write(writes);
    const written = writes.map((w) => this.#shown(w.file));
    const fileOf = (p: Extract<Plan, { ok: true }>) => [p.golden?.file, p.line?.file].filter((x): x is string => x !== undefined).map(this.#shown);
    await this.#keep(ok.map((p) => this.#made(p.g, 'accepted', fileOf(p.plan))));
    const git = await gitStatus(this.#cwd, written);
    return { written, ...(git ? { git } : {}), decided: ok.length, skipped: plans.length - ok.length };
  }

  async #reject(id: string): Promise<DecisionResult> {
    const f = this.#failure(id);
    if (this.#decision(f)?.verdict === 'accepted') throw new UsageError('this failure is accepted already: its golden or line is written');
    await this.#keep([this.#made(f, 'rejected')]);
    return { written: [], decided: 1, skipped: 0 };
  }

  #group(f: VisualFailure, scope: Scope): VisualFailure[] {
    const all = this.run.failures;
    if (scope === 'one') return [f];
    if (scope === 'phone') return all.filter((g) => g.project === f.project);
    if (f.model === undefined) throw new UsageError(`the run does not know the model of ${f.project}`, { hint: 'accept it on its own, or for this phone' });
    return all.filter((g) => g.model === f.model && g.test === f.test && g.key.check === f.key.check);
  }

  #plan(f: VisualFailure, sources: Map<string, string>): Plan {
    // A read-only run's files are not looked at: every path the report names would be refused.
    const readOnly = this.run.files.readOnly;
    if (readOnly) return { ok: false, why: readOnly, readOnly: true };
    return planOf(f, this.run, this.#shown, sources);
  }

  #decision(f: VisualFailure): Decision | undefined {
    return this.#decisions?.find(f.key, new Date(this.run.ranAt).toISOString());
  }

  #made(f: VisualFailure, verdict: Decision['verdict'], files?: string[]): Decision {
    return { ...f.key, verdict, at: new Date().toISOString(), run: new Date(this.run.ranAt).toISOString(), ...(files ? { files } : {}) };
  }

  async #keep(decisions: Decision[]): Promise<void> {
    if (!this.#decisions) throw new UsageError('this page only shows the review: decide with phonewright review');
    await this.#decisions.add(decisions);
  }

  #failure(id: string): VisualFailure {
    const i = /^f(\d+)$/.exec(id)?.[1];
    const f = i === undefined ? undefined : this.run.failures[Number(i)];
    if (!f) throw new UsageError(`no failure ${JSON.stringify(String(id).slice(0, 20))} in this review`, { hint: 'reload the page' });
    return f;
  }
}

const accepted: Plan = { ok: false, why: 'accepted already: its golden or line is written' };

/** A failure's id in this review: its place in the report. */
export function idOf(index: number): string {
  return `f${index}`;
}

/** A region check's masks in its images' pixels (an image sampled every n-th pixel is n times smaller). */
function maskOf(f: VisualFailure): Rect[] {
  const facts = f.facts;
  if (facts.matcher !== 'toMatchRegion' || !facts.mask?.length) return [];
  const width = f.images.actual?.readUInt32BE(16) ?? facts.region.width;
  const s = width / facts.region.width;
  return facts.mask.map((m) => ({ x: Math.floor((m.x - facts.region.x) * s), y: Math.floor((m.y - facts.region.y) * s), width: Math.ceil(m.width * s), height: Math.ceil(m.height * s) }));
}
