// The shapes of the nightly history: one record per run (reports/history/*.json), and what two runs
// compared say. Plain data, no Playwright types: the CLI reads these files too.
import type { LeaseNote } from '../lease/holder.js';

/** A test's outcome on one phone, by its final attempt: `flaky` passed on a retry after failing. */
export type HistoryStatus = 'passed' | 'failed' | 'flaky' | 'skipped';

/** One test on one phone in one run. */
export interface HistoryTest {
  /** The test's identity across runs: `file › describe › title`. */
  test: string;
  /** Playwright's id of the test on this phone: the HTML report's page of it is `#?testId=<id>`. */
  id?: string;
  /** The Playwright project: a phone, or a pool of identical phones. */
  phone: string;
  /** In a pool: the phone of the pool that ran the last attempt. */
  ranOn?: string;
  status: HistoryStatus;
  /** Every attempt together, in milliseconds. */
  durationMs: number;
  /** Attempts after the first. */
  retries: number;
  /**
   * First line of the error (the last attempt's when failed, the first failed attempt's when flaky), secrets
   * redacted; a device assertion's is written from the facts it attached (facts.ts), not from its message.
   */
  error?: string;
  /** Skipped or failed because the phone could not be reached (annotated `infra-failure`). */
  infra?: boolean;
  /** The phone's screen at the failure, as the HTML report keeps it (`data/<sha1>.png`, under the report's URL). */
  screen?: string;
  /** The film of the phone of a failed attempt (`phone-video`), as the HTML report keeps it (`data/<sha1>.webm`). */
  film?: string;
  /** The phone's lease in the lease store (PHONEWRIGHT_LEASES): who held it for the run, and how long the worker waited. */
  lease?: LeaseNote;
}

/** A phone (or pool) of the run, from its project's metadata. */
export interface HistoryPhone {
  server?: string;
  deviceId?: string;
  /** A pool's phones, `name (id)`. */
  pool?: string[];
}

/** One nightly run: written once by the history reporter, never changed. */
export interface HistoryRecord {
  version: 1;
  /** When the run started, ISO 8601 (UTC). The record's file name is made from it, so names sort by time. */
  startedAt: string;
  durationMs: number;
  /** Playwright's verdict on the run: passed, failed, timedout or interrupted. */
  status: string;
  /** `run`: a whole run of `phonewright nightly`; `merge`: blob reports joined by `phonewright merge`. */
  source: 'run' | 'merge';
  /** Errors outside any phone's tests (a spec that does not load, a failed global setup or push), first lines. */
  runErrors: string[];
  phones: Record<string, HistoryPhone>;
  tests: HistoryTest[];
}

/** A record with its file name, the way the history folder holds it. */
export interface NamedRecord {
  name: string;
  record: HistoryRecord;
}

/** A test on a phone that one of the lists names. */
export interface ChangeEntry {
  phone: string;
  test: string;
  /** Playwright's test id on that phone, for a link into the HTML report. */
  id?: string;
  ranOn?: string;
  retries?: number;
  error?: string;
  /** See {@link HistoryTest.screen}. */
  screen?: string;
  /** See {@link HistoryTest.film}. */
  film?: string;
}

/** Counts of one phone in one run; `passRate` is (passed + flaky) / (passed + flaky + failed), null when none ran. */
export interface PhoneCounts {
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  passRate: number | null;
}

/** What a run says against the runs before it, phone by phone. */
export interface Comparison {
  /** The record's file name, e.g. `2025-11-22T02-30-00-000Z.json`. */
  run: string;
  startedAt: string;
  /** Per phone: the earlier record it was compared with (the latest one that had the phone), or null. */
  baselines: Record<string, string | null>;
  /** Failed now, and passed (or was flaky, skipped or absent) in the phone's previous run. */
  newFailures: ChangeEntry[];
  /** Failed in the phone's previous run, passed (or flaky) now. */
  fixed: ChangeEntry[];
  /** Failed in the phone's previous run and now. */
  stillFailing: ChangeEntry[];
  /** Passed on a retry now. */
  flaky: ChangeEntry[];
  counts: Record<string, PhoneCounts>;
  runErrors: string[];
  /** Each test failing now, once: on which phones, out of those it ran on; the app or the phone? */
  triage: TriageEntry[];
  /** The tests flaky most often over the recent runs, most first. */
  flakiest: FlakyEntry[];
}

/** A failing test across the phones of a run (a pool's tests count on the pool's phone that ran them). */
export interface TriageEntry {
  test: string;
  /** The phones it failed on, sorted. */
  failingOn: string[];
  /** The phones it ran on (passed, flaky or failed), sorted. */
  ranOn: string[];
  /** `every-phone`: it failed wherever it ran (the app, most likely); `some-phones`: only on some (the phones?). */
  scope: 'every-phone' | 'some-phones';
  /** `still-failing` when each phone it fails on failed it in its previous run too; else `new`. */
  status: 'new' | 'still-failing';
  /** How often it was flaky (runs × phones) over the recent runs. */
  flaky: number;
}

/** A test that passed on a retry, and how often, over the recent runs. */
export interface FlakyEntry {
  test: string;
  /** Runs × phones it was flaky in. */
  count: number;
  /** Per phone, how many runs. */
  phones: Record<string, number>;
}

/** What the history reporter hands the CLI (through PHONEWRIGHT_NIGHTLY_OUTCOME) when a run ends. */
export interface NightlyOutcome {
  /** The run did not complete: interrupted, timed out, no tests, or an error outside the tests. */
  broke: boolean;
  status: string;
  runErrors: string[];
  /** Part of a run (a shard or one server's job, blob mode): no history was written. */
  partial: boolean;
  /** The record written, absolute path; absent when partial. */
  record?: string;
  comparison?: Comparison;
}
