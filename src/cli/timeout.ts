import type { Options } from 'yargs';
import { isPhonewrightError, TimeoutError, type PhonewrightError } from '../core/errors.js';
import { wholeNumber } from './args.js';
import type { GlobalOptions } from './options.js';

/**
 * How long one call to the server may take, retries and pauses included, unless `--timeout` says otherwise
 * (ms): the client's own default budget for a call with no assertion around it.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** A day: a longer wait for one call is a typo (seconds written as ms × 1000). */
const MAX_TIMEOUT_MS = 86_400_000;

/** The arguments of a command that takes `--timeout` and nothing of its own. */
export interface TimeoutArgs extends GlobalOptions {
  timeout?: string;
}

/** `--timeout <ms>`, for the commands whose reads can wait on a slow or stuck server. */
export const TIMEOUT_OPTION = {
  timeout: {
    type: 'string',
    describe: `Longest time one call to the server may take, retries included, in ms [default ${DEFAULT_TIMEOUT_MS}: ${DEFAULT_TIMEOUT_MS / 1000} s]`,
  },
} as const satisfies Record<string, Options>;

/**
 * Reads `--timeout`, before any network work.
 * @param raw the value as typed; undefined when not given
 * @returns the budget of each call, in ms
 */
export function timeoutArg(raw: unknown): number {
  return raw === undefined ? DEFAULT_TIMEOUT_MS : wholeNumber('--timeout', raw, 1, MAX_TIMEOUT_MS, 'phonewright pixel main 0 0 --timeout 60000 (ms)');
}

/**
 * What went wrong, without the way out: an error's message is that, then `; try: <hint>` when it has a hint.
 * @param error the error
 */
export function withoutHint(error: PhonewrightError): string {
  const suffix = error.hint ? `; try: ${error.hint}` : '';
  return suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
}

/**
 * A call that ran out of time, with the CLI's way out: the client's own hint speaks of "the timeout" in
 * general; here it is `--timeout`, with the budget the call had. Any other error is returned as it is.
 * @param error what the command failed with
 * @param timeoutMs the budget each call had
 */
export function withTimeoutAdvice(error: unknown, timeoutMs: number): unknown {
  if (!isPhonewrightError(error, 'PW_TIMEOUT')) return error;
  return new TimeoutError(withoutHint(error), {
    reason: (error as TimeoutError).reason,
    hint: `check that the server and the phone are not stuck or overloaded, or give each call longer with --timeout <ms> (it had ${timeoutMs} ms)`,
    cause: error,
  });
}
