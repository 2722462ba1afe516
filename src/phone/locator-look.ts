import type { CallOptions, Deadline } from '../client/index.js';
import { ServiceError } from '../core/errors.js';
import { boxOf, findText, type ReadLine, type TextHit } from '../core/find-text.js';
import { asReadable, readsCharacter } from '../core/languages.js';
import { describeLocator, engineQuery, textMatches, type LocatorQuery } from '../core/locator.js';
import type { Rect } from '../core/screen.js';
import type { TextRead } from '../image/marks.js';
import type { Image } from '../image/png.js';
import type { CallSite } from './hooks.js';
import { look as lookForImage, want, wholeScreen, type ImageOptions, type Wanted } from './image.js';
import type { Phone, ReadOptions } from './phone.js';
import { hostEngines } from '../engines/client.js';
import { onCores } from './host-cores.js';
import { inLanes } from './lanes.js';

/** What a locator looks for: a text, description, resource id or engine query, or an image cut from a screen. */
export type LocatorTarget = LocatorQuery | { by: 'image'; image: string; options: ImageOptions };

/** One thing found on the screen: where, what it says where that was read, and how far its spelling is from the one asked. */
export interface Match {
  box: Rect;
  /** The whole line as read from the screen (OCR), or the text as the engine gave it for a RegExp; else not read. */
  text?: string;
  /** The characters found in the line read, where they are only part of it (`"设置"` of `"快速设置"`). */
  read?: string;
  /** Letters off the text asked (OCR only, never for an exact text); 0 when it is the text itself. */
  distance: number;
  /**
   * Other places read as near the text asked, none of them exactly: one match, since a misread says where the text
   * probably is, not how many times it is there; an act or a read refuses to guess which of them is meant.
   */
  tied?: Match[];
}

/** Where a look's answer came from: the vendor's UI elements, the text read from the screen, an image search. */
export type LookedVia = 'elements' | 'ocr' | 'image';

/** One look for a locator: what matched (best first), and through which route. */
export interface LocatorSight {
  via: LookedVia;
  matches: Match[];
  /** What else was on the screen, nearest first, for a failure's evidence: the words read, the elements' texts, the best image match. */
  nearest: Match[];
  /** True when the look read the elements' texts: `nearest` is then all there was, and a failure does not read them again. */
  readTexts?: boolean;
  /** Every line read on the screen, for a look through the text read (`via: 'ocr'`): a failure shows them all. */
  lines?: ReadLine[];
}

/** The most elements whose texts a RegExp locator reads through the engine (one call each): a screen's labels, not a list's thousand rows. */
const MAX_ENGINE_TEXTS = 40;
/** How many of the nearest texts a failure names. */
const NEAREST = 5;
/** Text reads in flight at once: a look costs about three round trips, not one per element on the screen. */
const TEXT_LANES = 8;

/**
 * One look for what a locator names, as one read of the phone. Text, description, id and query ask the vendor's
 * UI elements where the server offers them; a text is read from the screen (OCR of one capture) where it does
 * not, and description, id and query then fail with one line naming what the server lacks. An image is searched
 * for on one capture, as `locate` does.
 */
export class Looker {
  readonly #phone: Phone;
  readonly #target: LocatorTarget;
  #wanted: Wanted | undefined;

  constructor(phone: Phone, target: LocatorTarget) {
    this.#phone = phone;
    this.#target = target;
  }

  /** Looks once, within `deadline`. */
  async look(deadline: Deadline | undefined, site: CallSite | undefined): Promise<LocatorSight> {
    const phone = this.#phone;
    const t = this.#target;
    if (t.by === 'image') {
      this.#wanted ??= await want(phone, t.image, t.options);
      const { result } = await lookForImage(phone, this.#wanted, deadline, site);
      const best = { box: result.best, distance: 0 };
      return { via: 'image', matches: result.found ? [best] : [], nearest: result.found ? [] : [best] };
    }
    // A text goes straight to the screen on a server known to lack the engine; the others ask it, and a server
    // without it answers them with its one line.
    if (t.by !== 'text' || !phone.client.extensions.lacks('aai')) {
      try {
        return await phone.read(`find ${describe(t)} in ${phone.name}'s UI elements`, { deadline, site }, (o) => this.#elements(t, o));
      } catch (error) {
        if (!(error instanceof ServiceError && error.reason === 'not-offered')) throw error;
        if (t.by !== 'text') throw needsEngine(t, error);
      }
    }
    const lines = await readScreen(phone, undefined, { deadline, site });
    const text = await readable(phone, t.text);
    const matches = asMatches(findText(lines, text, t.exact));
    return { via: 'ocr', matches, nearest: matches.length ? [] : nearestLines(lines, text), lines };
  }

  async #elements(t: LocatorQuery, o: CallOptions): Promise<LocatorSight> {
    const { elements } = this.#phone.client.extensions;
    const boxes = await elements.bounds(this.#phone.id, engineQuery(t)!, o);
    const matches = boxes.map((box) => ({ box, distance: 0 }));
    if (t.by !== 'text' && t.by !== 'description') return { via: 'elements', matches, nearest: [] };
    // The engine has no regular expressions, and its case rules are its own: for a RegExp, or a text it did not
    // find as a glob, the elements with any text are asked for and each text tested here.
    if (!(t.text instanceof RegExp) && (t.exact || boxes.length)) return { via: 'elements', matches, nearest: [] };
    const texts = await textsOf(this.#phone, t.by, o);
    const found = texts.filter((m) => textMatches(t, m.text!));
    return { via: 'elements', matches: found, nearest: found.length ? [] : nearestOf(texts, t.text), readTexts: true };
  }
}

/**
 * The texts (or descriptions) of the elements on the screen, at most {@link MAX_ENGINE_TEXTS}, in the engine's
 * order: one call each, {@link TEXT_LANES} in flight at once, so that a look fits a short timeout on a busy machine.
 */
export async function textsOf(phone: Phone, by: 'text' | 'description', o: CallOptions): Promise<Match[]> {
  const { elements } = phone.client.extensions;
  const any = by === 'text' ? 'T:*' : 'D:*';
  const boxes = (await elements.bounds(phone.id, any, o)).slice(0, MAX_ENGINE_TEXTS);
  const texts: string[] = [];
  await inLanes(boxes.length, TEXT_LANES, async (i) => {
    texts[i] = await elements.text(phone.id, `${any}&&IX:${i}`, o, by);
  });
  return boxes.map((box, i) => ({ box, text: texts[i]!, distance: 0 }));
}

/** The texts the vendor's engine has on the screen now, for a failure's evidence: at most {@link NEAREST}, nearest the text asked first. */
export async function elementTexts(phone: Phone, t: LocatorTarget, options: CallOptions): Promise<Match[]> {
  if (t.by !== 'text' && t.by !== 'description') return [];
  return nearestOf(await textsOf(phone, t.by, options), t.text);
}

/**
 * Whether the phone's server offers the vendor's UI elements, which description, id and query locators need:
 * asked once (a count of the elements with a text), then known to the worker's client. For `test.skip` in a
 * suite that also runs on servers without them (a text is then read from the screen).
 */
export async function offersElements(phone: Phone): Promise<boolean> {
  if (phone.client.extensions.lacks('aai')) return false;
  try {
    await phone.read(`ask whether ${phone.name}'s server has the UI elements`, {}, (o) => phone.client.extensions.elements.count(phone.id, 'T:*', o));
    return true;
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'not-offered') return false;
    throw error;
  }
}

/**
 * The lines of text on the screen (or in `rect`), read by OCR from one capture in the phone's languages, as one read
 * of the phone. The same pixels in the same languages are not read again (the engine keeps its last reads).
 */
export function readScreen(phone: Phone, rect: Rect | undefined, options: Pick<ReadOptions, 'deadline' | 'site' | 'signal'>): Promise<ReadLine[]> {
  const where = rect ? ` ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})` : '';
  return phone.read(`read the text on ${phone.name}'s screen${where}`, options, async (o) => {
    const { captureImage } = await import('./screen.js');
    const area = rect ?? (await wholeScreen(phone, 'a text'));
    let image: Image;
    try {
      image = await captureImage(phone.client, phone.id, area, o);
    } catch (error) {
      throw needsCapture(error);
    }
    // The engine keeps the screens it read: the same pixels in the same languages are not read again. Its
    // loading and reading are this host's time, not the phone's.
    const engines = hostEngines();
    const lines = await onCores('read the text', () => engines.read(image, phone.options.languages(), o.deadline), o.deadline);
    // Words in screen pixels: a capture of a rectangle reads at its own origin.
    return lines.map((l) => ({ words: l.words.map((w) => ({ text: w.text, x: w.x + area.x, y: w.y + area.y, width: w.width, height: w.height })) }));
  });
}

/** `device.readText()`: the text read in a rectangle of the screen (the whole screen), its lines joined by newlines. */
export async function readText(phone: Phone, rect: Rect | undefined, options: Pick<ReadOptions, 'deadline' | 'site' | 'signal'>): Promise<string> {
  const lines = await readScreen(phone, rect, options);
  return lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n');
}

/**
 * The lines read on the screen, top to bottom (then left to right), each its words joined by one space and boxed:
 * what a failure shows beside the screen (a look's {@link LocatorSight.lines}; none for a look that read no screen),
 * and what the inspector draws over it.
 */
export function linesRead(lines: readonly ReadLine[] | undefined): TextRead[] {
  const read = (lines ?? []).map((l) => ({ text: l.words.map((w) => w.text).join(' '), box: boxOf(l.words) }));
  return read.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

/** The locator as a spec wrote it, for messages and steps: `getByText('Sign in')`, `getByImage('images/send.png')`. */
export function describe(t: LocatorTarget): string {
  return t.by === 'image' ? `getByImage('${t.image}')` : describeLocator(t);
}

/**
 * A text asked as the engine reads it on the phone's screen: each letter that neither its model nor the phone's
 * languages have written as the letters read there instead (`Schön` as `Schon`, `Straße` as `Strasse`), so the text
 * as the spec wrote it is found exactly. A RegExp is the spec's own, as it is.
 */
export async function readable(phone: Phone, text: string | RegExp): Promise<string | RegExp> {
  if (text instanceof RegExp) return text;
  const alphabet = (await import('../image/ocr.js')).ocrAlphabet();
  const languages = phone.options.languages();
  return asReadable(text, (c) => alphabet.has(c) && readsCharacter(languages, c));
}

/**
 * The texts found on the screen as matches. Read exactly, each is one; read letters off (findText keeps only the
 * nearest), several places are one match with the others tied to it, counted once and refused for an act.
 */
function asMatches(hits: readonly TextHit[]): Match[] {
  const matches = hits.map((h): Match => ({ box: h.box, text: h.line, ...(h.read === h.line ? {} : { read: h.read }), distance: h.distance }));
  const [first, ...others] = matches;
  return first && first.distance > 0 && others.length ? [{ ...first, tied: others }] : matches;
}

function nearestLines(lines: readonly ReadLine[], want: string | RegExp): Match[] {
  return nearestOf(lines.map((l) => ({ box: boxOf(l.words), text: l.words.map((w) => w.text).join(' '), distance: 0 })), want);
}

/** Texts ordered by how many letter pairs they share with the text asked (a RegExp: as read), the nearest {@link NEAREST}. */
function nearestOf(texts: Match[], want: string | RegExp): Match[] {
  if (want instanceof RegExp) return texts.slice(0, NEAREST);
  const pairs = (s: string) => new Set(Array.from(s.toLowerCase().replace(/\s+/g, '')).map((c, i, a) => c + (a[i + 1] ?? '')));
  const wanted = pairs(want);
  const shared = (m: Match) => [...pairs(m.text ?? '')].filter((p) => wanted.has(p)).length;
  return texts.map((m) => ({ m, n: shared(m) })).sort((a, b) => b.n - a.n).slice(0, NEAREST).map(({ m }) => m);
}


/** A locator the engine alone can answer, on a server without it: one line that says so. */
function needsEngine(t: LocatorTarget, error: ServiceError): ServiceError {
  return new ServiceError(error.operation, `${describe(t)} needs the vendor's UI elements (sendAai), and ${error.message}; getByText reads the screen instead`, { reason: 'not-offered', cause: error });
}

/** A text read from the screen needs its capture: one line that says so on a server without it. */
function needsCapture(error: unknown): unknown {
  if (!(error instanceof ServiceError && error.reason === 'not-offered')) return error;
  return new ServiceError(error.operation, `reading text from the screen needs the vendor's UI elements (sendAai) or its screen capture, and ${error.message}`, { reason: 'not-offered', cause: error });
}
