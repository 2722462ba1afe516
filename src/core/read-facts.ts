import { hostBusy } from './errors.js';

/** How the phone was read while an assertion polled: what its facts (the report's) and its message say. */
export interface ReadFacts {
  /** Reads (or region samples) answered. */
  answered: number;
  /** Reads sent and never answered: in flight at the deadline, or failed. */
  unanswered: number;
  /** ms the assertion polled. */
  ms: number;
  /** The assertion's timeout, ms. */
  timeout: number;
  /** Set when this host took all the time it was allowed: the ms it kept the reads waiting. */
  hostMs?: number;
}

/**
 * What a check received when none of its reads was answered: the phone stopped answering, or, when the host took
 * all the time it was allowed (`hostMs` given), this machine kept the answers waiting.
 */
export function noAnswerText(r: ReadFacts): string {
  const reads = `${r.answered} read${r.answered === 1 ? '' : 's'} (${r.unanswered} sent without an answer)`;
  if (r.hostMs !== undefined) return `no answer: ${hostBusy(r.hostMs)}, after ${reads}`;
  return `no answer: the phone stopped answering after ${reads}`;
}
