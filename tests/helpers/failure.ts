import { stripAnsi } from './inline-report.js';

/** An error as a test meets it: with the typed `code` phonewright's errors carry. */
export type Failed = Error & { code?: string };

/**
 * What a call meant to fail failed with: the error `call` threw or its promise rejected with. A call that
 * succeeds fails the test, so a test built on it cannot pass without the failure it asserts on.
 * @param call a function (sync or async), or a promise already made
 */
export async function failure(call: Promise<unknown> | (() => unknown)): Promise<Failed> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    return error as Failed;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

/** The message of {@link failure}, without the colours Playwright gives a matcher's values. */
export async function failureMessage(call: Promise<unknown> | (() => unknown)): Promise<string> {
  return stripAnsi((await failure(call)).message);
}
