import { Deadline, pause } from '../client/deadline.js';
import { hostMs } from '../client/host-time.js';
import { keepsPolling } from '../client/resilience.js';
import { isPhonewrightError, ServiceError } from '../core/errors.js';

/** What a poll saw. */
export interface PollResult<T> {
  /** True when `done` held before the deadline. */
  done: boolean;
  /** The last value read, when any read was answered. */
  last: T | undefined;
  /** The error of the last read, when it failed. */
  error: unknown;
  /** Reads started. */
  reads: number;
  /** Reads answered with a value. */
  answered: number;
  ms: number;
  /** ms of it that were this host's (its loop held, its cores queued for), not the phone's; see host-time.ts. */
  hostMs: number;
  /** True when the host took all the time it was allowed: the wait ended on this machine's account. */
  hostSpent: boolean;
}

/** When a check was called: the moment, and the host's count then (see host-time.ts). */
export interface CheckStart {
  at: number;
  host: number;
}

/** Now, as a check's start. */
export function checkStart(): CheckStart {
  return { at: performance.now(), host: hostMs() };
}

/**
 * ms of this host's time a check may add to its timeout, outside a test (inside one, the test's own timeout
 * bounds it: the fixtures give what is left of it): Playwright's default test timeout.
 */
export const HOST_ALLOWANCE_MS = 30_000;

/** How {@link until} paces its reads and which failed reads it reads again. */
export interface UntilOptions {
  /**
   * The pause before the next read, after read `n` (1-based); it ends early when the deadline comes.
   * @default Playwright's `expect.poll` intervals, {@link POLL_INTERVALS}
   */
  pause?: (n: number, deadline: Deadline) => Promise<unknown>;
  /** Whether a failed read is read again. @default keepsPolling: the server's passing trouble */
  readsAgain?: (error: unknown) => boolean;
}

/** Pauses between an assertion's reads: Playwright's `expect.poll` intervals, then the last one. */
export const POLL_INTERVALS = [0, 100, 250, 500, 1_000];
/**
 * The grace of the read made when the deadline comes during a pause: it catches a screen that changes in the
 * assertion's last moments, and bounds how far past its timeout an assertion can run.
 */
export const LAST_READ_GRACE_MS = 100;

/**
 * The one wait loop of the phone layer: every auto-waiting check, `locate` and the notification feed read
 * through it. Reads until `done(value)` holds or the deadline passes: at least one read, and when the deadline
 * comes during a pause, one last read on a grace of {@link LAST_READ_GRACE_MS} (none when a read was cut by the
 * deadline: the phone had all the time there was; none when the deadline was cancelled). A failed read is read
 * again when `readsAgain` says so; any other failure ends the poll at once.
 * @param read one read, bounded by the deadline it is given
 * @param done whether the value is what the caller waits for
 */
export async function until<T>(read: (deadline: Deadline) => Promise<T>, done: (value: T) => boolean, deadline: Deadline, options: UntilOptions = {}): Promise<PollResult<T>> {
  const { pause: wait = intervals, readsAgain = keepsPolling } = options;
  const started = performance.now();
  const result: PollResult<T> = { done: false, last: undefined, error: undefined, reads: 0, answered: 0, ms: 0, hostMs: 0, hostSpent: false };
  for (let i = 1, last = false; ; i++) {
    const bound = last ? Deadline.in(LAST_READ_GRACE_MS) : deadline;
    try {
      result.reads++;
      result.last = await read(bound);
      result.answered++;
      result.error = undefined;
      if (done(result.last)) return finish(result, true, started);
    } catch (error) {
      // The last read, cut by its own grace, is a read that did not happen: what was seen before stands.
      if (last && bound.passed && !deadline.cancelled) {
        result.reads--;
        break;
      }
      result.error = error;
      if (!readsAgain(error)) break;
    } finally {
      if (last) bound.dispose();
    }
    if (last || deadline.passed) break;
    await wait(i, deadline);
    if (deadline.cancelled) break;
    last = deadline.passed;
  }
  return finish(result, false, started);
}

/**
 * {@link until} for a check: one deadline for the whole check, its timeout from the spec's call, handed to every
 * read, so a phone that stops answering cannot hold it past its timeout. The timeout is the phone's time: the
 * deadline moves later by what this host took meanwhile (its loop held, an engine loading), up to
 * `hostAllowance`. What the check spent before polling (loading its code, reading a golden) counts from `started`,
 * the host's share of it left out; when that leaves the reads less than {@link LAST_READ_GRACE_MS}, they get that
 * much: one read, as a last read gets, so the overshoot is at most the time spent past the timeout before the
 * first read, plus that grace. Misuse (bad input, a point off the screen) is thrown; a phone that never answered
 * is a result, for the check's own message.
 * @param started when the spec called the check
 * @param hostAllowance ms of the host's time the check may add to its timeout
 */
export async function untilChecked<T>(read: (deadline: Deadline) => Promise<T>, done: (value: T) => boolean, timeout: number, started = checkStart(), hostAllowance = HOST_ALLOWANCE_MS): Promise<PollResult<T>> {
  const wall = Math.max(0, performance.now() - started.at);
  const host = Math.min(Math.max(0, hostMs() - started.host), wall);
  const spent = wall - Math.min(host, hostAllowance);
  const deadline = Deadline.in(Math.max(timeout - spent, Math.min(timeout, LAST_READ_GRACE_MS)), undefined, Math.max(0, hostAllowance - host));
  try {
    const result = await until(read, done, deadline);
    // Its time is the check's, from the call: what its message says it took, against its timeout.
    result.ms += wall;
    result.hostMs = host + deadline.hostMs;
    result.hostSpent = !result.done && (host >= hostAllowance || deadline.hostSpent);
    if (result.last === undefined && isMisuse(result.error)) throw result.error;
    return result;
  } finally {
    deadline.dispose();
  }
}

function intervals(n: number, deadline: Deadline): Promise<boolean> {
  return pause(POLL_INTERVALS[Math.min(n, POLL_INTERVALS.length - 1)]!, deadline);
}

function isMisuse(error: unknown): boolean {
  return isPhonewrightError(error, 'PW_USAGE') || (error instanceof ServiceError && error.reason === 'outside-screen');
}

function finish<T>(result: PollResult<T>, done: boolean, started: number): PollResult<T> {
  return Object.assign(result, { done, ms: performance.now() - started });
}
