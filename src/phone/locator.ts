import { Deadline } from '../client/deadline.js';
import { CheckFailedError, ServiceError, UsageError } from '../core/errors.js';
import { checkLocator, engineQuery } from '../core/locator.js';
import type { Rect } from '../core/screen.js';
import { longPress, tap } from './acts.js';
import type { CallSite } from './hooks.js';
import { describe, elementTexts, linesRead, Looker, type LocatorSight, type LocatorTarget, type LookedVia, type Match } from './locator-look.js';
import type { Phone, ReadOptions } from './phone.js';
import { checkStart, untilChecked, type PollResult } from './until.js';
import { polled } from './verdict.js';

/** Options of a locator's wait: how long it waits for what it names to be on the screen. */
export interface LocatorOptions extends Pick<ReadOptions, 'signal'> {
  /** ms to wait for it. @default the expect timeout */
  timeout?: number;
}

/**
 * How long a failure may spend asking the engine for the texts nearest the one asked, after its timeout (a look
 * that did not read them: an exact text, a query): a moment, as the other evidence of a failure gets.
 */
const NEAREST_MS = 200;

/** A match picked for an act or a read, with the look it came from. */
export interface Picked {
  match: Match;
  sight: LocatorSight;
}

/**
 * Something on a phone's screen named by its text, description, resource id, an engine query or an image: lazy
 * (nothing is read until it is used) and auto-waiting (an act or a read waits, up to the expect timeout, until it
 * is there), as Playwright's locators are. Where the server has the vendor's UI elements they answer; a text is
 * read from the screen where it has not. Several matches are refused for an act or a read unless `first()` or
 * `nth(i)` picks one, as Playwright's strict mode does.
 */
export class Locator {
  readonly phone: Phone;
  readonly target: LocatorTarget;
  /** Which match, from 0; undefined: the one match there must be. */
  readonly index: number | undefined;
  readonly #looker: Looker;

  constructor(phone: Phone, target: LocatorTarget, index?: number, looker?: Looker) {
    if (target.by !== 'image') checkLocator(target);
    this.phone = phone;
    this.target = target;
    this.index = index;
    this.#looker = looker ?? new Looker(phone, target);
  }

  /** `getByText('Sign in').nth(1)`, as the spec wrote it. */
  toString(): string {
    const pick = this.index === undefined ? '' : this.index === 0 ? '.first()' : `.nth(${this.index})`;
    return `${describe(this.target)}${pick}`;
  }

  /** The first match. */
  first(): Locator {
    return this.nth(0);
  }

  /** The match at `index` (from 0), in the engine's order, or top to bottom for a text read from the screen. */
  nth(index: number): Locator {
    if (!Number.isInteger(index) || index < 0) throw new UsageError(`invalid index ${JSON.stringify(index)} for ${this}.nth(): expected an integer ≥ 0`);
    return new Locator(this.phone, this.target, index, this.#looker);
  }

  /** Looks once, now: what matches, through which route. The checks poll it. */
  look(options: { deadline?: ReadOptions['deadline']; site?: CallSite | undefined } = {}): Promise<LocatorSight> {
    return this.#looker.look(options.deadline, options.site ?? this.phone.hooks.callSite());
  }

  /** The matches of this locator picked by `nth`/`first`: all of them without. */
  matchesIn(sight: LocatorSight): Match[] {
    if (this.index === undefined) return sight.matches;
    const m = sight.matches[this.index];
    return m ? [m] : [];
  }

  /**
   * How many matches are on the screen now (no waiting, as Playwright's `count()`). Places read letters off the
   * text asked, none exactly, count once however many there are: a misread says where the text probably is, not
   * how many times it is there.
   */
  async count(): Promise<number> {
    return this.matchesIn(await this.look()).length;
  }

  /** Where it is on the screen, in pixels, once it is there. */
  async bounds(options: LocatorOptions = {}): Promise<Rect> {
    return (await this.pick('bounds of', options)).match.box;
  }

  /** What it says, once it is there: the element's text (or description), or the words read from the screen. */
  async text(options: LocatorOptions = {}): Promise<string> {
    const site = this.phone.hooks.callSite();
    const { match, sight } = await this.pick('text of', options, site);
    return this.textOf(match, sight, { site });
  }

  /** The text of a match of a look, now: as read from the screen, or asked of the engine (a read). */
  textOf(match: Match, sight: LocatorSight, options: Pick<ReadOptions, 'deadline' | 'site'>): Promise<string> {
    if (match.text !== undefined) return Promise.resolve(match.text);
    const t = this.target;
    if (sight.via !== 'elements' || t.by === 'image') return Promise.reject(new UsageError(`${this} has no text: it is an image`));
    const what = t.by === 'description' ? 'description' : 'text';
    const query = `${engineQuery(t)!}&&IX:${this.index ?? 0}`;
    return this.phone.read(`${what} of ${this} on ${this.phone.name}`, options, (o) => this.phone.client.extensions.elements.text(this.phone.id, query, o, what));
  }

  /** Taps its centre once it is there (an act: never sent twice). */
  async tap(options: LocatorOptions = {}): Promise<void> {
    const site = this.phone.hooks.callSite();
    const { match } = await this.pick('tap', options, site);
    await tap(this.phone, ...centre(match.box), { site, signal: options.signal });
  }

  /** Holds a finger on its centre (`durationMs`, default 1000) once it is there. */
  async longPress(options: LocatorOptions & { durationMs?: number } = {}): Promise<void> {
    const site = this.phone.hooks.callSite();
    const { match } = await this.pick('long press', options, site);
    const [x, y] = centre(match.box);
    await longPress(this.phone, { x, y }, { site, signal: options.signal, ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }) });
  }

  /** Taps it, then types `text` into the field it focused (the step names the text's length, not the text). */
  async fill(text: string, options: LocatorOptions = {}): Promise<void> {
    if (typeof text !== 'string') throw new UsageError(`invalid text for ${this}.fill(): expected a string, got ${typeof text}`);
    await this.tap(options);
    await this.phone.type(text, { signal: options.signal });
  }

  /**
   * Waits until it is on the screen and returns the match: a step named for the locator and the route that found it;
   * a text read a letter off says so in a step of its own. Several matches without `first()`/`nth()` are refused.
   */
  pick(what: string, options: LocatorOptions = {}, site = this.phone.hooks.callSite()): Promise<Picked> {
    const startedAt = checkStart();
    const timeout = options.timeout ?? this.phone.waitTimeout;
    return this.phone.read(`${what} ${this} on ${this.phone.name}`, { site, signal: options.signal }, async () => {
      const poll = await untilChecked((deadline) => this.look({ deadline, site }), (s) => this.matchesIn(s).length > 0, timeout, startedAt, this.phone.hooks.hostAllowance(timeout));
      const sight = lastSight(poll);
      const found = sight ? this.matchesIn(sight) : [];
      if (found.length > 1) {
        throw new UsageError(`${this} matches ${found.length} on the screen of ${this.phone}: ${found.map(where).join(', ')}`, { hint: 'pick one with .first() or .nth(i), or ask for an exact text' });
      }
      const match = found[0];
      if (match?.tied?.length && this.index === undefined) throw misreadAlike(this, match);
      if (match && sight) {
        // The trace says where it was found, and how: a text read a letter off is never a silent pass.
        const off = match.distance > 0 ? `: ${match.distance} letter${match.distance === 1 ? '' : 's'} off the text asked` : '';
        await this.phone.hooks.step(`${this} found ${place(match)} through ${VIA[sight.via]}${off}`, async () => {}, { location: site });
        return { match, sight };
      }
      const nearest = sight ? await this.nearest(sight) : [];
      if (sight) this.phone.lab.sawWrongAnswer();
      const read = linesRead(sight?.lines);
      await this.phone.hooks.screenAtFailure({ regions: nearest.map((m) => m.box), ...(read.length ? { texts: read } : {}) });
      throw new CheckFailedError(`${this} is not on the screen of ${this.phone}: ${seen(sight, nearest)}; ${polled(poll, timeout, '', 'look')}`);
    });
  }

  /** What was nearest to it on the screen, for a failure: the words read, the texts of the elements, the best image match. */
  async nearest(sight: LocatorSight): Promise<Match[]> {
    if (sight.via !== 'elements' || sight.nearest.length || sight.readTexts) return sight.nearest;
    // Evidence only, read after the check's timeout: within a moment, and a failure to read it leaves the failure as it was.
    const deadline = Deadline.in(NEAREST_MS);
    try {
      return await this.phone.read(`texts on ${this.phone.name}'s screen`, { deadline }, (o) => elementTexts(this.phone, this.target, o));
    } catch {
      return [];
    } finally {
      deadline.dispose();
    }
  }
}

/** The last look of a poll; a route the server lacks is thrown, as misuse is, for its one line. */
function lastSight(poll: PollResult<LocatorSight>): LocatorSight | undefined {
  if (poll.last === undefined && poll.error instanceof ServiceError && poll.error.reason === 'not-offered') throw poll.error;
  return poll.last;
}

/** Each route a look takes, as a message says it. */
export const VIA: Record<LookedVia, string> = { elements: 'the UI elements', ocr: 'the text read from the screen', image: 'an image search' };

/**
 * `"Sign in" at 960×130 (60, 780)`; `"设置" in "快速设置" at …` for part of a line read; places read as near the
 * text asked, none exactly, joined by "or".
 */
export function where(m: Match): string {
  return [m, ...(m.tied ?? [])].map(place).join(' or ');
}

/** What a look saw instead: nothing, or the nearest texts. */
export function seen(sight: LocatorSight | undefined, nearest: readonly Match[]): string {
  if (!sight) return 'the phone did not answer';
  const via = VIA[sight.via];
  if (sight.via === 'image' && nearest[0]) return `${via} found nothing at its threshold; the best place was ${where(nearest[0])}`;
  return `${via} had no match${nearest.length ? `; nearest: ${nearest.map(where).join(', ')}` : ''}`;
}

/** A match refused for an act or a read: the places read as near the text asked, none exactly, each as read. */
function misreadAlike(locator: Locator, match: Match): UsageError {
  const all = [match, ...match.tied!];
  const off = `${match.distance} letter${match.distance === 1 ? '' : 's'} off`;
  return new UsageError(`${locator} matches ${all.length} on the screen of ${locator.phone}, none read exactly, each ${off} the text asked: ${all.map(place).join(', ')}`, {
    hint: 'ask for the text as the one meant reads, or take the top one with .first()',
  });
}

/** One place, as read: the line, or the part of it found. */
function place(m: Match): string {
  const said = m.text === undefined ? '' : m.read === undefined ? `${JSON.stringify(m.text)} ` : `${JSON.stringify(m.read)} in ${JSON.stringify(m.text)} `;
  return `${said}at ${m.box.width}×${m.box.height} (${m.box.x}, ${m.box.y})`;
}

function centre(box: Rect): [number, number] {
  return [Math.floor(box.x + box.width / 2), Math.floor(box.y + box.height / 2)];
}
