import { TimeoutError, UnreachableError, type ErrorDetails } from '../core/errors.js';

/**
 * Another run held the phone for longer than the worker would wait. A timeout (the lab's, not the app's): the
 * phone is not tested and the run fails with this line, which names who holds the phone.
 */
export class LeaseBusyError extends TimeoutError {
  /** Who held the lease when the wait ended, in one line. */
  readonly holder: string;
  constructor(message: string, holder: string, details?: ErrorDetails) {
    super(message, { ...details, reason: 'wait' });
    this.holder = holder;
  }
}

/**
 * The worker could not keep its lease: Redis did not answer its renewals before the lease would expire, or
 * another run took the phone after it expired. Every call to the phone fails with it from then on (the
 * client's signal), so no request reaches a phone this run no longer holds. Not retried: no network code.
 */
export class LeaseLostError extends UnreachableError {}
