import type { Image } from '../image/png.js';
import type { ScreenMarks } from '../image/marks.js';
import { HOST_ALLOWANCE_MS } from './until.js';

/** Where a spec called phonewright: the line its report step is shown at, and where a failure points. */
export interface CallSite {
  file: string;
  line: number;
  column: number;
}

/** How one read or act of a phone runs as a report step. */
export interface StepOptions {
  /** Where the spec called; the step is shown there. */
  location?: CallSite | undefined;
  /** What the step did, listed beside its title (`{ x: 540, y: 210 }`). */
  params?: Record<string, string | number>;
}

/**
 * What the Playwright layer hands a phone, and all the phone calls of it: the phone layer never imports the
 * layer above it. Outside Playwright (the CLI, the bench, the tests of the phone layer) {@link NO_HOOKS}: a read
 * is just the read, nothing is attached, and no call site is known.
 */
export interface PhoneHooks {
  /**
   * Runs a read or an act as a step of the running test: Playwright's `test.step` itself, or the body alone
   * outside a test. The body is handed the step (opaque here), for {@link screenAfterAct}.
   */
  step<T>(title: string, body: (step: unknown) => Promise<T>, options: StepOptions): Promise<T>;
  /** Attaches a file to the running test; nothing outside a test. */
  attach(name: string, body: Buffer | string, contentType: string): Promise<void>;
  /**
   * A check saw a wrong answer, or a wait ran out: the Playwright layer keeps the phone's whole screen at this
   * moment, the places the check looked at marked, once per test. The screen, when one was taken, for the
   * check's own evidence.
   */
  screenAtFailure(marks?: ScreenMarks): Promise<Image | undefined>;
  /** An act was done, inside its step: with Playwright's trace on, the screen after it, attached to that step. */
  screenAfterAct(step: unknown): Promise<void>;
  /** Where the spec called the phone method running now, when that can be told; see {@link CallSite}. */
  callSite(): CallSite | undefined;
  /**
   * ms of this host's time a wait of `timeout` on the phone may add to it (see untilChecked): what the running
   * test's own timeout leaves beyond it.
   */
  hostAllowance(timeout: number): number;
}

/** The hooks of a phone outside Playwright: reads just run. */
export const NO_HOOKS: PhoneHooks = {
  step: (_title, body) => body(undefined),
  attach: async () => {},
  screenAtFailure: async () => undefined,
  screenAfterAct: async () => {},
  callSite: () => undefined,
  hostAllowance: () => HOST_ALLOWANCE_MS,
};

/**
 * Points an error at the spec's line that called phonewright: its stack becomes that one frame, where a test
 * report locates the error and shows its code frame. The message says all there is to say: it names the phone,
 * what was asked and what happened. Undefined `site`: the error is left as it is.
 */
export function pointAt<E>(error: E, site: CallSite | undefined): E {
  if (site && error instanceof Error) error.stack = `${error.name}: ${error.message}\n    at ${site.file}:${site.line}:${site.column}`;
  return error;
}
