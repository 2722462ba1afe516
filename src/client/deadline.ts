import { setMaxListeners } from 'node:events';
import { AbortedError, TimeoutError } from '../core/errors.js';

/** The reason a deadline's signal aborts with: a request aborted with it ran out of time, not into Ctrl-C. */
export const DEADLINE_PASSED = Object.freeze(new Error('the deadline passed'));

/**
 * The moment a wait must end by, and the signal that ends what is on the wire at that moment. An assertion
 * or a waiter makes one for its timeout and hands it down: every call under it cuts its own timeouts to what
 * remains, and the signal aborts the request in flight when the moment comes.
 *
 * A deadline made with {@link Deadline.budget} has no signal: a call's own default budget is bounded by the
 * per-attempt timeouts cut to what remains, which costs no timer per call.
 */
export class Deadline {
  /** `performance.now()` at which it passes; Infinity for none. */
  readonly at: number;
  readonly signal: AbortSignal | undefined;
  #dispose: (() => void) | undefined;

  private constructor(at: number, signal: AbortSignal | undefined, dispose?: () => void) {
    this.at = at;
    this.signal = signal;
    this.#dispose = dispose;
  }

  /**
   * A deadline `ms` from now whose signal aborts with {@link DEADLINE_PASSED} then, or with the parent's
   * reason when the parent aborts first. Call {@link dispose} when the wait is over.
   * @param ms milliseconds from now
   * @param parent a signal that ends the wait sooner (Ctrl-C, a feed nobody listens to any more)
   */
  static in(ms: number, parent?: AbortSignal): Deadline {
    const at = performance.now() + Math.max(0, ms);
    const controller = new AbortController();
    // One deadline bounds every read of an assertion: a region's 32 concurrent reads each listen to it.
    setMaxListeners(0, controller.signal);
    // Unref'd: a deadline alone keeps no process alive; the request or sleep it bounds does.
    const cancel = Number.isFinite(at) ? atMoment(at, () => controller.abort(DEADLINE_PASSED), { keepAlive: false }) : undefined;
    const forward = () => controller.abort(parent!.reason);
    if (parent?.aborted) controller.abort(parent.reason);
    else parent?.addEventListener('abort', forward, { once: true });
    return new Deadline(at, controller.signal, () => {
      cancel?.();
      parent?.removeEventListener('abort', forward);
    });
  }

  /** A time budget without a signal (see the class comment). */
  static budget(ms: number): Deadline {
    return new Deadline(performance.now() + Math.max(0, ms), undefined);
  }

  /** Milliseconds left, 0 once passed. */
  remaining(): number {
    return Math.max(0, this.at - performance.now());
  }

  /** True once the moment has come, or the signal aborted. */
  get passed(): boolean {
    return this.signal?.aborted === true || performance.now() >= this.at;
  }

  /** True when the signal aborted for another reason than time (a parent's abort). */
  get cancelled(): boolean {
    return this.signal?.aborted === true && this.signal.reason !== DEADLINE_PASSED;
  }

  /** Clears the timer and lets go of the parent signal. */
  dispose(): void {
    this.#dispose?.();
    this.#dispose = undefined;
  }
}

/**
 * Calls `fire` once `performance.now()` has reached `at`, never before. Node's timers count whole milliseconds
 * of a clock read at the loop's turn and fire up to a millisecond or two early by `performance.now()`: a timer
 * that fires early is set again for what is left, so whatever runs next sees its deadline as passed.
 * @returns clears the timer
 */
export function atMoment(at: number, fire: () => void, o: { keepAlive: boolean }): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = (wait: number) => {
    timer = setTimeout(check, Math.min(Math.max(0, wait), 2 ** 31 - 1));
    if (!o.keepAlive) timer.unref();
  };
  const check = () => {
    const left = at - performance.now();
    if (left > 0) arm(Math.ceil(left));
    else fire();
  };
  arm(at - performance.now());
  return () => clearTimeout(timer);
}

/**
 * Waits `ms`, or less when the deadline comes first; resolves false when it cut the wait short (the deadline
 * passed or its signal aborted), true after the whole pause.
 */
export function pause(ms: number, deadline: Deadline): Promise<boolean> {
  const signal = deadline.signal;
  if (signal?.aborted) return Promise.resolve(false);
  const end = performance.now() + ms;
  // Cut at the deadline's own moment, not at now + remaining(): the pause ends with the deadline passed.
  const whole = end <= deadline.at;
  return new Promise((resolve) => {
    const done = (result: boolean) => {
      cancel();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => done(false);
    const cancel = atMoment(whole ? end : deadline.at, () => done(whole), { keepAlive: true });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits for `work` (shared with other callers, such as one login for many calls) on behalf of one call: the
 * call stops waiting at its deadline or its abort, and leaves the work to the others.
 * @param what the wait, for the error: e.g. `pixel: logging in`
 */
export function within<T>(work: Promise<T>, deadline: Deadline, what: string): Promise<T> {
  if (!Number.isFinite(deadline.at) && !deadline.signal) return work;
  return new Promise<T>((resolve, reject) => {
    const signal = deadline.signal;
    const stop = () => {
      const error = deadline.cancelled
        ? new AbortedError(`${what}: aborted`)
        : new TimeoutError(`${what}: no answer before the deadline`, { reason: 'deadline' });
      reject(error);
    };
    if (deadline.passed) {
      // The work goes on for the others; its failure is theirs to see, not an unhandled rejection here.
      work.catch(() => {});
      return stop();
    }
    const cancel = signal ? undefined : atMoment(deadline.at, stop, { keepAlive: true });
    signal?.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => {
      cancel?.();
      signal?.removeEventListener('abort', stop);
    });
  });
}
