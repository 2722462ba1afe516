// A failure as the review page lists it: plain JSON, paths relative to the working folder, images by URL.
import type { Rect } from '../../image/index.js';
import { factsLine } from '../../report/facts.js';
import type { VisualFailure } from '../../report/visual-failures.js';
import type { Decision } from './decisions.js';
import { filmJson, type FilmJson } from './film.js';
import type { Plan } from './plan.js';
import type { ImageKind } from './review.js';

/** One failure on the page. */
export interface ItemJson {
  id: string;
  /** `specs/home.spec.ts › home › the status bar`. */
  test: string;
  /** The spec, and the line of the check where the report gives it. */
  spec: string;
  line?: number;
  project: string;
  model?: string;
  /** The phone as the check named it: `galaxy-s9 (device@1116106541)`. */
  phone: string;
  kind: 'region' | 'pixel' | 'image';
  /** `Region 40×30 at (12, 80)`, `Pixel (5, 5)`, `Image images/send.png`; `not ` first for a `.not` check. */
  check: string;
  /** The check, the same on every phone (`golden badge.png`, `pixel (5, 5)`): Accept for a model takes it on each. */
  checkId: string;
  /** The check in the queue, beside its kind: `badge.png`, `(5, 5)`, `send.png`; `not ` first for a `.not` check. */
  short: string;
  /** What the check found, in its facts' words. */
  summary: string;
  /** The golden's path, for a region check. */
  golden?: string;
  images: Partial<Record<ImageKind, string>>;
  /** Parts left out, in the images' pixels: the diff shows them. */
  mask: Rect[];
  /** What Accept would write; or why it cannot (`readOnly`: the review's, said once on the page, not this failure's). */
  accept: { ok: true; writes: string[]; line?: LineJson } | { ok: false; why: string; stale: boolean; readOnly?: true; where?: { file: string; line: number; code: string } };
  decision?: { verdict: Decision['verdict']; at: string; files?: string[]; earlier: boolean };
  /** The test's film of its phone, where the page can play it. */
  film?: FilmJson;
}

/** A spec line before and after Accept. */
export interface LineJson {
  file: string;
  line: number;
  before: string;
  after: string;
}

/**
 * A failure as the page lists it.
 * @param plan what Accept would write now
 * @param decision the decision standing for it
 * @param run when the run under review ended, ISO 8601: a rejection made on another run is an earlier one
 * @param url where the page finds each image
 * @param filmUrl where the page finds the film; undefined where it cannot play it
 */
export function itemJson(id: string, f: VisualFailure, plan: Plan, decision: Decision | undefined, run: string, shown: (file: string) => string, url: (id: string, kind: ImageKind) => string, mask: Rect[], filmUrl: string | undefined): ItemJson {
  const facts = f.facts;
  const kind = facts.matcher === 'toMatchRegion' ? 'region' : facts.matcher === 'toHavePixel' ? 'pixel' : 'image';
  const images: ItemJson['images'] = {};
  for (const k of ['expected', 'actual', 'diff', 'screen'] as const) if (f.images[k]) images[k] = url(id, k);
  if (f.images.expected && f.images.actual) images.heat = url(id, 'heat');
  const not = facts.isNot ? 'not ' : '';
  const check =
    facts.matcher === 'toMatchRegion'
      ? `${not}Region ${facts.region.width}×${facts.region.height} at (${facts.region.x}, ${facts.region.y})`
      : facts.matcher === 'toHavePixel'
        ? `${not}Pixel (${facts.point.x}, ${facts.point.y})`
        : `${not}Image ${facts.image}`;
  return {
    id,
    test: f.test,
    spec: shown(f.spec),
    ...(f.location ? { line: f.location.line } : {}),
    project: f.project,
    ...(f.model ? { model: f.model } : {}),
    phone: facts.phone,
    kind,
    check,
    checkId: f.key.check,
    short: `${not}${facts.matcher === 'toMatchRegion' ? golden(facts.actualAttachment, facts.golden) : facts.matcher === 'toHavePixel' ? `(${facts.point.x}, ${facts.point.y})` : facts.image.replace(/^.*\//, '')}`,
    summary: factsLine(facts).replace(/^.*? — /, ''),
    ...(facts.matcher === 'toMatchRegion' ? { golden: f.sample ? shown(f.sample.golden) : facts.golden } : {}),
    images,
    mask,
    accept: plan.ok
      ? { ok: true, writes: [plan.golden?.file, plan.line?.file].filter((x): x is string => x !== undefined).map(shown), ...(plan.line ? { line: { ...plan.line, file: shown(plan.line.file) } } : {}) }
      : { ok: false, why: plan.why, stale: plan.stale ?? false, ...(plan.readOnly ? { readOnly: true as const } : {}), ...(plan.where ? { where: plan.where } : {}) },
    ...(decision ? { decision: { verdict: decision.verdict, at: decision.at, ...(decision.files ? { files: decision.files } : {}), earlier: decision.run !== run } } : {}),
    ...(f.film && filmUrl ? { film: filmJson(f.film, filmUrl) } : {}),
  };
}

/** A region check's golden as the spec names it: `badge.png` of `badge-actual.png` (the golden's file ends in the phone). */
function golden(actual: string | undefined, file: string): string {
  return actual ? actual.replace(/-actual\.png$/, '.png') : file.replace(/^.*\//, '');
}
