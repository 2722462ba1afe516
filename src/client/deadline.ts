import { setMaxListeners } from 'node:events';
import { AbortedError, hostBusy, TimeoutError } from '../core/errors.js';
import { hostMs } from './host-time.js';

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
  readonly signal: AbortSignal | undefined;
  /** `performance.now()` at which it passes on the phone's time alone. */
  readonly #at: number;
  /** The host's count when it was made, and how much of the host's time it may add (undefined: a plain deadline). */
  readonly #host: { from: number; allowance: number } | undefined;
  #dispose: (() => void) | undefined;

  private constructor(at: number, signal: AbortSignal | undefined, host?: { from: number; allowance: number }) {
    this.#at = at;
    this.signal = signal;
    this.#host = host;
  }

  /**
   * A deadline `ms` from now whose signal aborts with {@link DEADLINE_PASSED} then, or with the parent's
   * reason when the parent aborts first. Call {@link dispose} when the wait is over.
   * @param ms milliseconds from now
   * @param parent a signal that ends the wait sooner (Ctrl-C, a feed nobody listens to any more)
   * @param hostAllowance ms of this host's time (see host-time.ts) the deadline moves later by, at most: a wait on
   *   a phone's answer does not run while this machine keeps the answer waiting. None by default: a plain deadline.
   */
  static in(ms: number, parent?: AbortSignal, hostAllowance?: number): Deadline {
    const at = performance.now() + Math.max(0, ms);
    const controller = new AbortController();
    // One deadline bounds every read of an assertion: a region's 32 concurrent reads each listen to it.
    setMaxListeners(0, controller.signal);
    const deadline = new Deadline(at, controller.signal, hostAllowance !== undefined ? { from: hostMs(), allowance: Math.max(0, hostAllowance) } : undefined);
    // Unref'd: a deadline alone keeps no process alive; the request or sleep it bounds does.
    const cancel = Number.isFinite(at) ? atMoment(() => deadline.at, () => controller.abort(DEADLINE_PASSED), { keepAlive: false }) : undefined;
    const forward = () => controller.abort(parent!.reason);
    if (parent?.aborted) controller.abort(parent.reason);
    else parent?.addEventListener('abort', forward, { once: true });
    deadline.#dispose = () => {
      cancel?.();
      parent?.removeEventListener('abort', forward);
    };
    return deadline;
  }

  /** `performance.now()` at which it passes; Infinity for none. Later by the host's time, for one that allows it. */
  get at(): number {
    const h = this.#host;
    return h ? this.#at + Math.min(h.allowance, hostMs() - h.from) : this.#at;
  }

  /** ms of this host's time since it was made, for one that allows it (0 for a plain one). */
  get hostMs(): number {
    const h = this.#host;
    return h ? hostMs() - h.from : 0;
  }

  /** True when the host took all it was allowed: the wait ended on this machine's account, not the phone's. */
  get hostSpent(): boolean {
    const h = this.#host;
    return h !== undefined && hostMs() - h.from >= h.allowance;
  }

  /**
   * The error of a wait this deadline ended: `<what>: no answer before the deadline<tail>`, or, when the host took
   * all it was allowed, `<what>: this host was busy: N ms waiting for its CPU, and no answer came before the
   * deadline<tail>`, its `hostMs` set (not the lab's failure).
   * @param tail after the line, e.g. `: GET http://…`
   */
  expired(what: string, tail = '', cause?: unknown): TimeoutError {
    if (this.hostSpent) return new TimeoutError(`${what}: ${hostBusy(this.hostMs)}, and no answer came before the deadline${tail}`, { reason: 'deadline', hostMs: this.hostMs, cause });
    return new TimeoutError(`${what}: no answer before the deadline${tail}`, { reason: 'deadline', cause });
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
 * Calls `fire` once `performance.now()` has reached the moment, never before. Node's timers count whole
 * milliseconds of a clock read at the loop's turn and fire up to a millisecond or two early by `performance.now()`:
 * a timer that fires early is set again for what is left, so whatever runs next sees its deadline as passed. A
 * moment given as a function is read again when the timer fires: a deadline that moved later is waited for.
 * @returns clears the timer
 */
export function atMoment(moment: number | (() => number), fire: () => void, o: { keepAlive: boolean }): () => void {
  const at = typeof moment === 'number' ? () => moment : moment;
  let timer: NodeJS.Timeout | undefined;
  const arm = (wait: number) => {
    timer = setTimeout(check, Math.min(Math.max(0, wait), 2 ** 31 - 1));
    if (!o.keepAlive) timer.unref();
  };
  const check = () => {
    const left = at() - performance.now();
    if (left > 0) arm(Math.ceil(left));
    else fire();
  };
  arm(at() - performance.now());
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
  return new Promise((resolve) => {
    const done = (result: boolean) => {
      cancel();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => done(false);
    // Cut at the deadline's own moment (read again as it moves), not at now + remaining(): the pause ends with
    // the deadline passed.
    const cancel = atMoment(() => Math.min(end, deadline.at), () => done(end <= deadline.at), { keepAlive: true });
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
        : deadline.expired(what);
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
