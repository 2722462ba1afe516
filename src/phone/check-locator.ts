import { UsageError } from '../core/errors.js';
import type { TextRead } from '../image/marks.js';
import type { Locator } from './locator.js';
import { seen, VIA, where } from './locator.js';
import { linesRead, readable, type LocatorSight, type Match } from './locator-look.js';
import { untilChecked, type PollResult } from './until.js';
import { lastFailure, noAnswer, polled, readFacts, type Attachment, type CheckContext, type Part, type Verdict } from './verdict.js';

/**
 * The most lines read on the screen that `locator.txt` lists: a phone's screen holds a few dozen; a screen of small
 * print a couple of hundred, past which a list no longer helps and the screen's SVG shows them all.
 */
const MAX_LISTED = 200;

/**
 * `expect(locator).toBeVisible()`: looks until what the locator names is on the screen (with `.not`, until it is
 * not). A text read a letter off counts, and the message says so.
 */
export async function checkVisible(locator: Locator, ctx: CheckContext): Promise<Verdict> {
  const poll = await looksUntil(locator, ctx, (found) => found.length > 0);
  const found = poll.last ? locator.matchesIn(poll.last) : [];
  const received = poll.last === undefined ? noAnswer(poll) : found.length ? `visible: ${found.map(where).join(', ')}${fuzzy(found)}` : 'not visible';
  // What the positive check expects, as for the other checks: the message's `Expected:` line adds the `not`.
  return verdict(locator, ctx, poll, { name: 'toBeVisible', args: '', expected: 'visible', received, pass: found.length > 0 });
}

/** `expect(locator).toHaveCount(n)`: looks until exactly `n` match (with `.not`, until another number does). */
export async function checkCount(locator: Locator, count: number, ctx: CheckContext): Promise<Verdict> {
  if (!Number.isInteger(count) || count < 0) throw new UsageError(`invalid count ${JSON.stringify(count)} for toHaveCount: expected an integer ≥ 0`);
  const poll = await looksUntil(locator, ctx, (found) => found.length === count);
  const found = poll.last ? locator.matchesIn(poll.last) : [];
  const received = poll.last === undefined ? noAnswer(poll) : `${found.length}${found.length ? `: ${found.map(where).join(', ')}` : ''}`;
  return verdict(locator, ctx, poll, { name: 'toHaveCount', args: 'count', expected: count, received, pass: found.length === count });
}

/**
 * `expect(locator).toHaveText(text | RegExp)`: waits for the locator's one match and its text, until it is the
 * text (spaces aside; a RegExp: matches it) or, with `.not`, until it is not. A text read from the screen is
 * what was read there: no letter off counts here.
 */
export async function checkText(locator: Locator, text: string | RegExp, ctx: CheckContext): Promise<Verdict> {
  if (!(text instanceof RegExp) && typeof text !== 'string') throw new UsageError(`invalid text ${JSON.stringify(text)} for toHaveText: expected a string or a RegExp`);
  // A text read from the screen is compared as the engine reads it there (`Schön` as the `Schon` read).
  let wanted: string | RegExp = text;
  const holds = (t: string) => (wanted instanceof RegExp ? ((wanted.lastIndex = 0), wanted.test(t)) : squeeze(t) === squeeze(wanted));
  let last: string | undefined;
  let count = 0;
  const poll = await untilChecked(
    async (deadline) => {
      const sight = await locator.look({ deadline, site: ctx.site });
      if (sight.via === 'ocr') wanted = await readable(locator.phone, text);
      const found = locator.matchesIn(sight);
      count = found.length;
      // One match has a text; several are not one text (pick one with first() or nth()).
      last = found.length === 1 ? await locator.textOf(found[0]!, sight, { deadline, site: ctx.site }) : undefined;
      return sight;
    },
    () => (last !== undefined && holds(last)) !== ctx.isNot,
    ctx.timeout,
    ctx.startedAt,
    ctx.hostAllowance,
  );
  const received = poll.last === undefined ? noAnswer(poll) : last !== undefined ? last : count ? `${count} matches: pick one with first() or nth()` : 'not on the screen';
  return verdict(locator, ctx, poll, { name: 'toHaveText', args: 'text', expected: text, received, pass: last !== undefined && holds(last) });
}

/** Looks until what the locator found satisfies `done` (with `.not`, until it does not), within the check's timeout. */
function looksUntil(locator: Locator, ctx: CheckContext, done: (found: Match[]) => boolean): Promise<PollResult<LocatorSight>> {
  return untilChecked((deadline) => locator.look({ deadline, site: ctx.site }), (s) => done(locator.matchesIn(s)) !== ctx.isNot, ctx.timeout, ctx.startedAt, ctx.hostAllowance);
}

/** The verdict of a locator's check, and when it failed its evidence: the screen with what was found, or what was nearest, framed. */
async function verdict(locator: Locator, ctx: CheckContext, poll: PollResult<LocatorSight>, v: { name: string; args: string; expected: unknown; received: string; pass: boolean }): Promise<Verdict> {
  const answered = poll.last !== undefined;
  const pass = answered ? v.pass : ctx.isNot;
  const lines: Part[][] = [[`Phone:    ${locator.phone}`], [`Locator:  ${locator}`], ['Expected: ', { expected: ctx.isNot ? `not ${String(v.expected)}` : v.expected }], ['Received: ', { received: v.received }]];
  const out: Verdict = { pass, name: v.name, args: v.args, expected: v.expected, received: v.received, timeout: ctx.timeout, lines, evidence: [] };
  const failed = answered ? pass === ctx.isNot : true;
  const found = poll.last ? locator.matchesIn(poll.last) : [];
  // The nearest texts are a failure's evidence only: a passing check (a `.not` on an absent text) asks for none.
  const nearest = failed && poll.last && !found.length ? await locator.nearest(poll.last) : [];
  if (poll.last) lines.push([`Seen:     ${found.length ? `${found.length} match${found.length === 1 ? '' : 'es'} through ${VIA[poll.last.via]}` : seen(poll.last, nearest)}`]);
  lines.push([`Polled:   ${polled(poll, ctx.timeout, '', 'look')}`], ...lastFailure(poll, 'look'));
  if (!failed) return out;
  if (answered) locator.phone.lab.sawWrongAnswer();
  // Every line read, as the last look read them: the screen is not read again for its evidence.
  const read = linesRead(poll.last?.lines);
  await locator.phone.hooks.screenAtFailure({ regions: (found.length ? found : nearest).map((m) => m.box), ...(read.length ? { texts: read } : {}) });
  out.evidence = evidence(locator, found, nearest, read);
  out.facts = { matcher: v.name, phone: String(locator.phone), isNot: ctx.isNot, locator: String(locator), expected: v.expected instanceof RegExp ? String(v.expected) : v.expected, received: v.received, via: poll.last?.via, reads: readFacts(poll, ctx.timeout) };
  return out;
}

/** What was found, what was nearest and every line read on the screen, as a text beside the framed screen. */
function evidence(locator: Locator, found: Match[], nearest: Match[], read: TextRead[]): Attachment[] {
  const list = (title: string, ms: Match[]) => (ms.length ? [title, ...ms.map((m) => `  ${where(m)}${m.distance ? ` (${m.distance} letter${m.distance === 1 ? '' : 's'} off)` : ''}`)] : []);
  const lines = [`${locator} on ${locator.phone}`, ...list('found:', found), ...list('nearest:', nearest), ...listRead(read)];
  return [{ name: 'locator.txt', body: `${lines.join('\n')}\n`, contentType: 'text/plain' }];
}

/** Every line read on the screen, at most {@link MAX_LISTED}, as `where` names a match. */
function listRead(read: TextRead[]): string[] {
  if (!read.length) return [];
  const shown = read.slice(0, MAX_LISTED).map((t) => `  ${where({ ...t, distance: 0 })}`);
  const more = read.length > MAX_LISTED ? [`  … and ${read.length - MAX_LISTED} more`] : [];
  return [`read on the screen (${read.length} line${read.length === 1 ? '' : 's'}, top to bottom):`, ...shown, ...more];
}

/** `, read 1 letter off` when a match was read with a spelling distance: never a silent pass. */
function fuzzy(found: Match[]): string {
  const d = Math.max(0, ...found.map((m) => m.distance));
  return d ? ` (read ${d} letter${d === 1 ? '' : 's'} off the text asked)` : '';
}

function squeeze(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
