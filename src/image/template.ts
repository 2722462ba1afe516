// Where a template (a cut of a phone's screen: a button, an icon) is on a screen: pure pixel maths over decoded
// images, with OpenCV's normalised cross-correlation (TM_CCOEFF_NORMED), coarse to fine, then a colour check.
// What was measured to choose it is in docs/visual-checks.md, "How the search was chosen".
import type { Rgb } from '../core/color.js';
import { deltaE } from '../core/delta-e.js';
import { UsageError } from '../core/errors.js';
import type { CvMat, OpenCv } from './opencv.js';
import type { Image } from './png.js';

/** A template found on a screen (or the best place seen, when it was not). */
export interface TemplateMatch {
  /** The match's rectangle on the screen, in screen pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Its centre, where a tap on it goes. */
  center: { x: number; y: number };
  /**
   * How alike the shapes are: the normalised cross-correlation, from −1 to 1; 1 is the template exactly (up to
   * brightness and contrast), an unrelated area scores near 0.
   */
  score: number;
  /** ΔE00 between the template's mean colour and the match's: a grey, disabled button shaped like the teal one scores ~36. */
  colorDelta: number;
  /** Screen pixels per template pixel at which it was found. */
  scale: number;
}

export interface SearchOptions {
  /** Screen pixels per template pixel as the two screens' sizes say (see templateScale). @default 1 */
  scale?: number;
  /** The least score that counts as found, from 0 to 1. @default {@link DEFAULT_THRESHOLD} */
  threshold?: number;
  /** The largest ΔE00 between the mean colours that counts as found, from 0 to 100. @default {@link DEFAULT_COLOR_DELTA} */
  deltaE?: number;
}

/** What a search saw: the best place, and whether it passes. */
export interface SearchResult {
  best: TemplateMatch;
  found: boolean;
  /** The scales tried, in order, until found (all of them when it was not). */
  scales: number[];
}

/** Measured on phone-like screens: the template where it is scores ≥ 0.95 at any density, another button ≤ 0.75. */
export const DEFAULT_THRESHOLD = 0.9;
/** Measured: a match's mean colour is within 0.5 of its template's; the same button in another colour 36 away. */
export const DEFAULT_COLOR_DELTA = 8;
/**
 * The steps around the nominal scale, nearest first: two phones of one pixel width differ in density by up to
 * ~20 % (a 1080-wide phone is 360 dp wide at 480 dpi, 411 dp at 420 dpi), so a template is looked for at the
 * nominal scale, then up to 20 % either way; the search stops at the first step that finds it.
 */
export const SCALE_STEPS: readonly number[] = [1, 0.95, 1.05, 0.9, 1.1, 0.85, 1.15, 0.8, 1.2];
/** Candidates from the coarse search refined at full size, per scale. */
const CANDIDATES = 5;
/** The coarse search's template keeps at least this many pixels on its shorter side. */
const COARSE_SIDE = 16;

/**
 * Finds where `template` is on `screen`. Per scale step: a coarse search on both images shrunk up to 4× in grey
 * (fast), its best candidates refined in colour at full size around where they were, each checked for colour
 * (normalised correlation ignores brightness and hue: a grey button of the same shape correlates at 0.93).
 * @param cv OpenCV, loaded (loadOpenCv)
 * @param screen the phone's whole screen
 * @param template the template, as cut
 */
export function searchTemplate(cv: OpenCv, screen: Image, template: Image, options: SearchOptions = {}): SearchResult {
  const { scale = 1, threshold = DEFAULT_THRESHOLD, deltaE: bound = DEFAULT_COLOR_DELTA } = options;
  checkTemplate(template, screen, scale);
  const mean = meanColor(template, { x: 0, y: 0, width: template.width, height: template.height });
  const mats: CvMat[] = [];
  const keep = <M extends CvMat>(m: M) => (mats.push(m), m);
  try {
    const full = keep(toMat(cv, screen, cv.COLOR_RGBA2RGB));
    const grey = keep(toMat(cv, screen, cv.COLOR_RGBA2GRAY));
    const tplRgb = keep(toMat(cv, template, cv.COLOR_RGBA2RGB));
    const tplGrey = keep(toMat(cv, template, cv.COLOR_RGBA2GRAY));
    const coarseScreens = new Map<number, CvMat>();
    let best: TemplateMatch | undefined;
    let found = false;
    const scales: number[] = [];
    for (const step of SCALE_STEPS) {
      const s = scale * step;
      const width = Math.round(template.width * s);
      const height = Math.round(template.height * s);
      if (width < 4 || height < 4 || width > screen.width || height > screen.height) continue;
      scales.push(round(s));
      const f = Math.max(1, Math.min(4, Math.floor(Math.min(width, height) / COARSE_SIDE)));
      let coarse = coarseScreens.get(f);
      if (!coarse) coarseScreens.set(f, (coarse = f === 1 ? grey : keep(resized(cv, grey, screen.width / f, screen.height / f))));
      const tpl = keep(resized(cv, tplRgb, width, height));
      const tplCoarse = keep(resized(cv, tplGrey, width / f, height / f));
      for (const at of peaks(cv, coarse, tplCoarse, keep)) {
        // Around the coarse place, by the coarse pixel and its rounding either way.
        const margin = 2 * f;
        const x0 = Math.max(0, at.x * f - margin);
        const y0 = Math.max(0, at.y * f - margin);
        const x1 = Math.min(screen.width, at.x * f + margin + width);
        const y1 = Math.min(screen.height, at.y * f + margin + height);
        const window = keep(full.roi(new cv.Rect(x0, y0, x1 - x0, y1 - y0)));
        const result = keep(new cv.Mat());
        cv.matchTemplate(window, tpl, result, cv.TM_CCOEFF_NORMED);
        const { maxVal, maxLoc } = cv.minMaxLoc(result);
        const rect = { x: x0 + maxLoc.x, y: y0 + maxLoc.y, width, height };
        const colorDelta = deltaE(mean, meanColor(screen, rect));
        const candidate = { ...rect, center: { x: rect.x + Math.floor(width / 2), y: rect.y + Math.floor(height / 2) }, score: round(maxVal), colorDelta: round(colorDelta), scale: round(s) };
        // The raw figures decide, the rounded ones are reported: 0.8996 is not a score of at least 0.9.
        const passes = maxVal >= threshold && colorDelta <= bound;
        if (!best || (passes && !found) || (passes === found && candidate.score > best.score)) best = candidate;
        found ||= passes;
      }
      if (found) break;
    }
    if (!best) throw new UsageError(`a template of ${template.width}×${template.height} at ×${round(scale)} (±20 %) is larger than the ${screen.width}×${screen.height} screen`, { hint: 'check the width of the screen it was cut on ({ cutOn })' });
    return { best, found, scales };
  } finally {
    for (const m of mats) m.delete();
  }
}

/** A rectangle cut out of an image (within it): the place a template was found, for the report. */
export function cropImage(image: Image, rect: { x: number; y: number; width: number; height: number }): Image {
  const data = new Uint8Array(rect.width * rect.height * 4);
  for (let j = 0; j < rect.height; j++) {
    const from = ((rect.y + j) * image.width + rect.x) * 4;
    data.set(image.data.subarray(from, from + rect.width * 4), j * rect.width * 4);
  }
  return { width: rect.width, height: rect.height, data };
}

/** The mean colour of a rectangle of an image. */
export function meanColor(image: Image, rect: { x: number; y: number; width: number; height: number }): Rgb {
  let r = 0;
  let g = 0;
  let b = 0;
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    for (let o = (y * image.width + rect.x) * 4, end = o + rect.width * 4; o < end; o += 4) {
      r += image.data[o]!;
      g += image.data[o + 1]!;
      b += image.data[o + 2]!;
    }
  }
  const n = rect.width * rect.height;
  return { r: Math.round(r / n), g: Math.round(g / n), b: Math.round(b / n) };
}

/**
 * Refuses a template that cannot be searched for: smaller than 8×8, or of one colour (it would match any flat
 * area of that colour, and correlation has nothing to correlate).
 */
function checkTemplate(template: Image, screen: Image, scale: number): void {
  if (template.width < 8 || template.height < 8) throw new UsageError(`a template of ${template.width}×${template.height} is too small to be told from the rest of the screen`, { hint: 'cut at least 8×8 pixels, with the edges of what it shows' });
  const d = template.data;
  let flat = true;
  for (let o = 4; o < d.length && flat; o += 4) flat = d[o] === d[0] && d[o + 1] === d[1] && d[o + 2] === d[2];
  if (flat) throw new UsageError(`a template of one colour matches any area of that colour`, { hint: 'cut the template with an edge or a mark inside it' });
  if (!(scale > 0) || !Number.isFinite(scale)) throw new UsageError(`invalid template scale ${String(scale)}: expected a number above 0`);
  if (screen.width < 8 || screen.height < 8) throw new UsageError(`a screen of ${screen.width}×${screen.height} is too small to search`);
}

/** The best places of the coarse search, each blotted out before the next so that no two are the same place. */
function peaks(cv: OpenCv, screen: CvMat, template: CvMat, keep: <M extends CvMat>(m: M) => M): { x: number; y: number }[] {
  const result = keep(new cv.Mat());
  cv.matchTemplate(screen, template, result, cv.TM_CCOEFF_NORMED);
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < CANDIDATES; i++) {
    const { maxVal, maxLoc } = cv.minMaxLoc(result);
    if (i > 0 && maxVal <= 0) break;
    out.push(maxLoc);
    const [w, h] = [Math.ceil(template.cols / 2), Math.ceil(template.rows / 2)];
    cv.rectangle(result, new cv.Point(maxLoc.x - w, maxLoc.y - h), new cv.Point(maxLoc.x + w, maxLoc.y + h), new cv.Scalar(-2), -1);
  }
  return out;
}

function toMat(cv: OpenCv, image: Image, code: number): CvMat {
  const rgba = new cv.Mat(image.height, image.width, cv.CV_8UC4);
  try {
    rgba.data.set(image.data);
    const out = new cv.Mat();
    cv.cvtColor(rgba, out, code);
    return out;
  } finally {
    rgba.delete();
  }
}

/** An image resized to width × height (rounded): area averaging to shrink, bilinear to grow. */
function resized(cv: OpenCv, m: CvMat, width: number, height: number): CvMat {
  const out = new cv.Mat();
  const [w, h] = [Math.max(1, Math.round(width)), Math.max(1, Math.round(height))];
  cv.resize(m, out, new cv.Size(w, h), 0, 0, w < m.cols ? cv.INTER_AREA : cv.INTER_LINEAR);
  return out;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
