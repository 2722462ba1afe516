// Who holds a phone's lease, as the lease's value in Redis carries it, and how the report and the history show
// a lease. Plain data and text, no Redis: src/report reads the annotation too.

/** The run and machine that hold a lease. Stored as JSON in the lease's value, beside a token only its owner knows. */
export interface LeaseHolder {
  /** The machine's host name. */
  host: string;
  /** The run's name: PHONEWRIGHT_RUN_NAME (a CI job sets it), or what the CLI called the run. */
  run: string;
  /** The worker process that holds it. */
  pid: number;
  /** When it took the lease, ISO 8601 (UTC). */
  since: string;
}

/** Names a run in lease messages (`nightly 812 shard 2/3`); `phonewright test|nightly` set one when it is unset. */
export const RUN_NAME_ENV = 'PHONEWRIGHT_RUN_NAME';

/** The annotation type of a test whose phone was leased: `<holder>; waited <ms> ms[ for <holder>]`. */
export const LEASE_ANNOTATION = 'lease';

/** A lease as the report's annotation and the history record carry it. */
export interface LeaseNote {
  /** This run's lease: `host, run "…" (pid N), since …`. */
  holder: string;
  /** How long the worker waited for the phone before it got the lease. */
  waitedMs: number;
  /** Who held the phone last while the worker waited, if anyone did. */
  waitedFor?: string;
}

/**
 * A holder in one line: `ci-2, run "nightly 812 shard 2/3" (pid 4242), since 2025-11-22T02:31:05Z`.
 * @param holder the lease's holder
 */
export function describeHolder(holder: LeaseHolder): string {
  return `${holder.host}, run ${JSON.stringify(holder.run)} (pid ${holder.pid}), since ${holder.since.replace(/\.\d+Z$/, 'Z')}`;
}

/**
 * The description of a test's `lease` annotation.
 * @param note the lease of the test's worker
 */
export function leaseAnnotation(note: LeaseNote): string {
  return `${note.holder}; waited ${Math.round(note.waitedMs)} ms${note.waitedFor ? ` for ${note.waitedFor}` : ''}`;
}

/**
 * Reads a `lease` annotation back (the history record keeps it as data); undefined when it is not one.
 * @param description the annotation's description
 */
export function parseLeaseAnnotation(description: string | undefined): LeaseNote | undefined {
  const m = description === undefined ? null : /^(.*); waited (\d+) ms(?: for (.*))?$/.exec(description);
  if (!m) return undefined;
  return { holder: m[1]!, waitedMs: Number(m[2]), ...(m[3] ? { waitedFor: m[3] } : {}) };
}
