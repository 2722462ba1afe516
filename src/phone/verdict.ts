import { noAnswerText, type ReadFacts } from '../core/read-facts.js';
import type { CallSite } from './hooks.js';
import type { CheckStart, PollResult } from './until.js';

/**
 * A piece of a check's message line: text as it is, or a value that the test runner prints as the expected or
 * the received value (Playwright colours them).
 */
export type Part = string | { expected: unknown } | { received: unknown };

/** A file a failed check leaves in the report: the phone's screen around a point, a region's samples, its facts. */
export interface Attachment {
  name: string;
  body: Buffer | string;
  contentType: string;
}

/**
 * What a check decided, with no test runner in it: the Playwright layer turns it into a matcher's result and
 * message, and attaches its evidence. `pass` always means the positive condition ("the pixel has the colour"),
 * whichever way the check was asked, as Playwright's matchers do.
 */
export interface Verdict {
  pass: boolean;
  /** The check's name and its arguments' names, for the message's first line: `toHavePixel`, `x, y, color`. */
  name: string;
  args: string;
  /** What was expected and what was received, as the report lists them beside the check's step. */
  expected?: unknown;
  received?: unknown;
  /** The message's lines under its first line, for both polarities. */
  lines: Part[][];
  /** The timeout the check polled for, ms. */
  timeout?: number;
  /** The files a failed check leaves in the report, in this order; empty when it passed. */
  evidence: Attachment[];
  /** What a failed check found, as data (the report's facts attachment, from which the nightly history writes its line). */
  facts?: object;
  /** A failure kept for the end of the test, which goes on meanwhile (a golden written in the default update mode). */
  atEnd?: string;
  /** A line for the test's output, whatever the verdict: a golden written. */
  log?: string;
}

/** How a check was asked. */
export interface CheckContext {
  /** Asked with `.not`. */
  isNot: boolean;
  /** ms the check may poll: the option given, else the expect timeout. */
  timeout: number;
  /** When the spec called it: what it spent before its first read counts, but for the host's share. */
  startedAt?: CheckStart;
  /** ms of this host's time the check may add to its timeout (what is left of the test's); see untilChecked. */
  hostAllowance?: number;
  /** Where the spec called it: its reads' steps are shown there. */
  site?: CallSite | undefined;
}

/**
 * What a check received when no read was answered. It then fails whichever way it was asked: with no value,
 * neither "has it" nor "has it not" holds, and a `.not` that passed on silence would be a false green. Said of
 * the host, not the phone, when the host took all the time it was allowed.
 */
export function noAnswer(poll: PollResult<unknown>): string {
  return noAnswerText(readFacts(poll, 0));
}

/**
 * `3 reads over 2001 ms (timeout 2000 ms, …)`, for the check's `Polled:` line: the reads answered, and then how
 * many more got no answer (a read still in flight when the deadline came, one that failed). The host's share of
 * the time, when it had one worth saying, is said: the timeout is the phone's time.
 */
export function polled(poll: PollResult<unknown>, timeout: number, detail = '', noun = 'read'): string {
  const more = poll.reads - poll.answered;
  const host = poll.hostMs >= HOST_WORTH_SAYING_MS ? `${Math.round(poll.hostMs)} ms of it this host's` : '';
  const details = [host, detail].filter(Boolean).join(', ');
  const head = `${poll.answered} ${noun}${poll.answered === 1 ? '' : 's'} over ${Math.round(poll.ms)} ms (timeout ${timeout} ms${details ? `, ${details}` : ''})`;
  return more ? `${head}, ${more} more without an answer` : head;
}

/** The host's share of a poll below this is not worth a word in its message. */
const HOST_WORTH_SAYING_MS = 100;

/** The reads of a poll, for the facts: `hostMs` only when the host ended it. */
export function readFacts(poll: PollResult<unknown>, timeout: number): ReadFacts {
  const facts: ReadFacts = { answered: poll.answered, unanswered: poll.reads - poll.answered, ms: Math.round(poll.ms), timeout };
  if (poll.hostSpent) facts.hostMs = Math.round(poll.hostMs);
  return facts;
}

/** The `Last read failed: …` line of a poll whose last read failed; none otherwise. */
export function lastFailure(poll: PollResult<unknown>, what = 'read'): Part[][] {
  return poll.error ? [[`Last ${what} failed: ${(poll.error as Error).message}`]] : [];
}

/**
 * The verdict of a check whose phone never answered: it fails whichever way it was asked (see {@link noAnswer}),
 * with its facts.
 * @param received what was received instead of a value; default {@link noAnswer}
 */
export function unanswered(phone: object, check: { name: string; args: string; expected: unknown }, ctx: CheckContext, poll: PollResult<unknown>, facts: object, received = noAnswer(poll)): Verdict {
  const { name, args, expected } = check;
  const lines: Part[][] = [[`Phone:    ${String(phone)}`], ['Expected: ', { expected }], [`Received: ${received}`], [`Polled:   ${polled(poll, ctx.timeout)}`], ...lastFailure(poll)];
  return { pass: ctx.isNot, name, args, expected, received: 'no answer', lines, timeout: ctx.timeout, evidence: [], facts };
}
