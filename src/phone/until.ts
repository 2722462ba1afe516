import { Deadline, pause } from '../client/deadline.js';
import { keepsPolling } from '../client/resilience.js';

/** What an assertion's poll saw. */
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
}

/** Pauses between an assertion's reads: Playwright's `expect.poll` intervals, then the last one. */
export const POLL_INTERVALS = [0, 100, 250, 500, 1_000];
/**
 * The grace of the read made when the deadline comes during a pause: it catches a screen that changes in the
 * assertion's last moments, and bounds how far past its timeout an assertion can run.
 */
export const LAST_READ_GRACE_MS = 100;

/**
 * Reads until `done(value)` holds or the deadline passes: at least one read, and when the deadline comes
 * during a pause, one last read on a grace of {@link LAST_READ_GRACE_MS} (none when a read was cut by the
 * deadline: the phone had all the time there was). A failed read is read again when {@link keepsPolling}
 * says so; any other failure ends the poll at once.
 * @param read one read, bounded by the deadline it is given
 * @param done whether the value is what the caller waits for
 */
export async function until<T>(read: (deadline: Deadline) => Promise<T>, done: (value: T) => boolean, deadline: Deadline): Promise<PollResult<T>> {
  const started = performance.now();
  const result: PollResult<T> = { done: false, last: undefined, error: undefined, reads: 0, answered: 0, ms: 0 };
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
      if (!keepsPolling(error)) break;
    } finally {
      if (last) bound.dispose();
    }
    if (last || deadline.passed) break;
    await pause(POLL_INTERVALS[Math.min(i, POLL_INTERVALS.length - 1)]!, deadline);
    last = deadline.passed && !deadline.cancelled;
  }
  return finish(result, false, started);
}

function finish<T>(result: PollResult<T>, done: boolean, started: number): PollResult<T> {
  return Object.assign(result, { done, ms: performance.now() - started });
}
