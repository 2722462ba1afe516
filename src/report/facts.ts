// What a failing device assertion says as data: the matchers attach it to the report (FACTS_ATTACHMENT), and
// the nightly history writes its error line from it, so no rewording of a matcher's message changes the history.
// Plain data, no Playwright types: fixtures/ writes it, src/report/ reads it.
import { formatDelta, parseColor } from '../core/color.js';
import { deltaE } from '../core/delta-e.js';
import { noAnswerText, type ReadFacts } from '../core/read-facts.js';
import { SETTINGS_FIELDS } from '../core/settings.js';

export type { ReadFacts } from '../core/read-facts.js';

/** The name of the JSON attachment a failing device assertion leaves in the report. */
export const FACTS_ATTACHMENT = 'phonewright-facts.json';

interface CommonFacts {
  /** The phone as messages name it: `galaxy-s9 (device@1116106541)`. */
  phone: string;
  /** Asked with `.not`. */
  isNot: boolean;
  reads: ReadFacts;
}

/** `expect(device).toHavePixel(x, y, color)`. */
export interface PixelFacts extends CommonFacts {
  matcher: 'toHavePixel';
  point: { x: number; y: number };
  /** `0x25425c`. */
  expected: string;
  /** Per channel; 0 for the exact colour. */
  tolerance: number;
  /** The largest CIEDE2000 distance asked for, when one was. */
  deltaE?: number;
  /** The colour last read, `0x000000`; absent when no read was answered. */
  received?: string;
}

/** `expect(device).toHaveSettings(expected)`. */
export interface SettingsFacts extends CommonFacts {
  matcher: 'toHaveSettings';
  /** The fields asked for, in the interface's order: expected and (when a read was answered) read, as `1 (portrait)`, `1080*1920`. */
  fields: { field: string; expected: string; received?: string }[];
}

/** `expect(device).toHaveNotification(filter)`. */
export interface NotificationFacts extends CommonFacts {
  matcher: 'toHaveNotification';
  /** `device=device@1 app=com.example.chat`. */
  filter: string;
  /** The phone's list at the last answered read: messages matching, all held, the first match; absent when none was answered. */
  received?: { matching: number; held: number; first?: { app: string; text: string } };
}

/** `expect(device).toMatchRegion(rect, name)`. */
export interface RegionFacts extends CommonFacts {
  matcher: 'toMatchRegion';
  region: { x: number; y: number; width: number; height: number };
  /** The parts left out (`mask`), in screen coordinates: the review shows them on its diff. */
  mask?: { x: number; y: number; width: number; height: number }[];
  /** The golden's path, relative to the working folder. */
  golden: string;
  /** The golden's path, absolute: where `phonewright approve` writes the actual image. */
  goldenPath?: string;
  /** The name of the attachment that holds the last sample, e.g. `status-bar-actual.png`. */
  actualAttachment?: string;
  /**
   * Compared and `differs` or `matches`; no golden yet (`missing`); no complete sample in time (`unsampled`);
   * or, with `stable`, no two samples in a row alike (`unstable`).
   */
  outcome: 'differs' | 'matches' | 'missing' | 'unsampled' | 'unstable';
  /** `differs`: the comparison's verdict, e.g. `12 pixels (ratio 0.01 of all image pixels) are different.` */
  mismatch?: string;
  /** `missing`: the sample was written as the golden. */
  written?: boolean;
}

/** `expect(device).toShow(image)`. */
export interface ImageFacts extends CommonFacts {
  matcher: 'toShow';
  /** The image as the spec names it, e.g. `images/send-button.png`. */
  image: string;
  /** The least score that counts as found. */
  threshold: number;
  /** The most colour distance (CIEDE2000) from the image that counts as found. */
  deltaE: number;
  /** The best place on the last screen searched, its score and colour distance; absent when no screen was captured. */
  best?: { x: number; y: number; width: number; height: number; score: number; colorDelta: number };
  /** Whether that search found the image (a `.not` check fails when it did). */
  found?: boolean;
}

export type AssertionFacts = PixelFacts | SettingsFacts | NotificationFacts | RegionFacts | ImageFacts;

/** The argument names each matcher's hint prints. */
const ARGS: Record<AssertionFacts['matcher'], string> = { toHavePixel: 'x, y, color', toHaveSettings: 'expected', toHaveNotification: 'filter', toMatchRegion: 'rect, name', toShow: 'image' };
/** Fields a settings line names; the record has them all. */
const MAX_FIELDS = 3;

/**
 * The history's error line for a failing device assertion, as Playwright prints the error's first line (the
 * matcher's hint) and then the point, expected and received:
 * `Error: expect(device).toHavePixel(x, y, color) — Point: (100, 100); Expected: "0x25425c"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92)`.
 * @param facts what the matcher attached
 */
export function factsLine(facts: AssertionFacts): string {
  return `Error: expect(device).${facts.isNot ? 'not.' : ''}${facts.matcher}(${ARGS[facts.matcher]}) — ${details(facts)}`;
}

/**
 * The facts in an attachment's text, or undefined when it is not facts of this shape (another version, a
 * damaged file): the history then falls back on the error's message.
 * @param text the attachment's body
 */
export function parseFacts(text: string): AssertionFacts | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isFacts(v) ? v : undefined;
}

function details(f: AssertionFacts): string {
  switch (f.matcher) {
    case 'toHavePixel': {
      const limits = [f.tolerance ? `tolerance ±${f.tolerance} per channel` : '', f.deltaE !== undefined ? `ΔE00 ≤ ${f.deltaE}` : ''].filter(Boolean).join(', ');
      const expected = `${f.isNot ? 'not ' : ''}${f.expected}${limits ? ` (${limits})` : ''}`;
      const [got, wanted] = [parseColor(f.received ?? f.expected), parseColor(f.expected)];
      const received = f.received === undefined ? noAnswerText(f.reads) : `${quote(f.received)} (${formatDelta(got, wanted)}, ΔE00 ${deltaE(got, wanted).toFixed(2)})`;
      return `Point: (${f.point.x}, ${f.point.y}); Expected: ${quote(expected)}; Received: ${received}`;
    }
    case 'toHaveSettings': {
      if (f.fields.some((x) => x.received === undefined)) return `Expected: ${f.fields.map((x) => `${x.field} ${quote(x.expected)}`).join(', ')}; Received: ${noAnswerText(f.reads)}`;
      if (f.isNot) return `Expected the settings not to match, and every field did: ${f.fields.slice(0, MAX_FIELDS).map((x) => `${x.field}: ${quote(x.received!)}`).join('; ')}`;
      // In the interface's order, as the matcher lists them.
      const order = (field: string) => SETTINGS_FIELDS.indexOf(field as (typeof SETTINGS_FIELDS)[number]);
      const differ = f.fields.filter((x) => x.received !== x.expected).sort((a, b) => order(a.field) - order(b.field));
      return `${differ.length} field(s) differ: ${differ.slice(0, MAX_FIELDS).map((x) => `${x.field}: expected ${quote(x.expected)}, received ${quote(x.received!)}`).join('; ')}`;
    }
    case 'toHaveNotification': {
      if (!f.received) return `Expected: ${quote(f.filter)}; Received: ${noAnswerText(f.reads)}`;
      const { matching, held, first } = f.received;
      const example = first ? `, e.g. ${first.app} ${JSON.stringify(first.text)}` : '';
      return `Expected: ${f.isNot ? 'no message' : 'a message'} matching ${f.filter}; Received: ${matching} matching of ${held} held${example}`;
    }
    case 'toMatchRegion': {
      const where = `Region: ${f.region.width}×${f.region.height} at (${f.region.x}, ${f.region.y}); Golden: ${f.golden}`;
      if (f.outcome === 'matches') return `${where}; Expected: the region to differ from the golden, and it matched.`;
      if (f.outcome === 'missing') return `${where}; Received: no golden yet${f.written ? ', the sample is written: the next run compares against it' : ''}`;
      if (f.outcome === 'unsampled') return `${where}; Received: no complete sample within ${f.reads.timeout} ms`;
      if (f.outcome === 'unstable') return `${where}; Received: the region never held still (no two samples in a row alike in ${f.reads.timeout} ms)`;
      return `${where}; Received: ${f.mismatch ?? 'a different region'}`;
    }
    case 'toShow': {
      const head = `Image: ${f.image}; Expected: ${f.isNot ? 'the image not on the screen' : 'the image on the screen'}`;
      const b = f.best;
      if (!b) return `${head}; Received: ${noAnswerText(f.reads)}`;
      const at = `${b.width}×${b.height} (${b.x}, ${b.y})`;
      if (f.found) return `${head}; Received: found at ${at}, score ${b.score}`;
      return `${head}; Received: not found; best score ${b.score} (at least ${f.threshold}) at ${at}, its colour ΔE00 ${b.colorDelta} from the image's (at most ${f.deltaE})`;
    }
  }
}

/** A string as Playwright's matchers print one: in double quotes, quotes and backslashes escaped. */
function quote(text: string): string {
  return `"${text.replace(/"|\\/g, '\\$&')}"`;
}

function isFacts(v: unknown): v is AssertionFacts {
  if (!isObject(v) || typeof v.phone !== 'string' || typeof v.isNot !== 'boolean' || !isObject(v.reads)) return false;
  if (!['answered', 'unanswered', 'ms', 'timeout'].every((k) => typeof (v.reads as Record<string, unknown>)[k] === 'number')) return false;
  switch (v.matcher) {
    case 'toHavePixel':
      return isObject(v.point) && typeof v.point.x === 'number' && typeof v.point.y === 'number' && isColor(v.expected) && typeof v.tolerance === 'number' && (v.received === undefined || isColor(v.received));
    case 'toHaveSettings':
      return Array.isArray(v.fields) && v.fields.every((x) => isObject(x) && typeof x.field === 'string' && typeof x.expected === 'string' && (x.received === undefined || typeof x.received === 'string'));
    case 'toHaveNotification': {
      const r = v.received;
      if (r === undefined) return typeof v.filter === 'string';
      const first = isObject(r) ? r.first : undefined;
      const firstOk = first === undefined || (isObject(first) && typeof first.app === 'string' && typeof first.text === 'string');
      return typeof v.filter === 'string' && isObject(r) && typeof r.matching === 'number' && typeof r.held === 'number' && firstOk;
    }
    case 'toMatchRegion':
      return (
        isObject(v.region) &&
        ['x', 'y', 'width', 'height'].every((k) => typeof (v.region as Record<string, unknown>)[k] === 'number') &&
        typeof v.golden === 'string' &&
        ['differs', 'matches', 'missing', 'unsampled', 'unstable'].includes(v.outcome as string) &&
        (v.mismatch === undefined || typeof v.mismatch === 'string')
      );
    case 'toShow': {
      const b = v.best;
      const bestOk = b === undefined || (isObject(b) && ['x', 'y', 'width', 'height', 'score', 'colorDelta'].every((k) => typeof b[k] === 'number'));
      return typeof v.image === 'string' && typeof v.threshold === 'number' && typeof v.deltaE === 'number' && bestOk && (v.found === undefined || typeof v.found === 'boolean');
    }
    default:
      return false;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isColor(v: unknown): v is string {
  return typeof v === 'string' && /^0x[0-9a-f]{6}$/.test(v);
}
