import type { Notification } from '../core/notifications.js';
import { Deadline, pause, within } from '../client/deadline.js';
import type { NotificationFeed, Subscription } from './feed.js';

/** What a wait did: for its failure message. */
export interface WatchReport {
  /** Reads of the list answered while it watched. */
  reads: number;
  /** Reads that failed or got no answer. */
  unanswered: number;
  /** Whether its arming read was answered. */
  armed: boolean;
  /** The last failed read's error, unless a later read was answered. */
  lastError: unknown;
  ms: number;
}

/** How a wait for a message ended. */
export type WaitOutcome = { found: Notification; report: WatchReport } | { found: undefined; error?: unknown; report: WatchReport };

/** A wait for a message, armed when made. */
export interface MessageWait {
  /** Resolves once the wait is armed (its first read after the call was answered), or once it ended. */
  readonly armed: Promise<void>;
  /** Whether its arming read was answered: false once `armed` resolved means it ended unarmed. */
  readonly isArmed: boolean;
  /** Every message, of any phone, that reached the wait, in order. */
  readonly seen: Notification[];
  /** The first message `accept` takes; `found: undefined` at the deadline, or with `error` when the feed failed. */
  readonly outcome: Promise<WaitOutcome>;
}

/** How a watched window ended. */
export interface WindowOutcome {
  /** The messages `accept` takes that arrived inside the window. */
  hits: Notification[];
  seen: Notification[];
  /** False when the list could not be read after the window's end (a stuck list), or the feed failed. */
  complete: boolean;
  error?: unknown;
  report: WatchReport;
}

/**
 * The longest the read after a window may take, by default: the window's end is known only once a read that
 * started after it is answered.
 */
export const FINAL_READ_MS = 5_000;

/**
 * Waits for a message `accept` takes that arrives after this call (see {@link NotificationFeed} for what
 * "after" means without trusting clocks), until the deadline.
 */
export function waitForMessage(feed: NotificationFeed, accept: (m: Notification) => boolean, deadline: Deadline): MessageWait {
  const started = performance.now();
  const seen: Notification[] = [];
  let settle!: (outcome: WaitOutcome) => void;
  const outcome = new Promise<WaitOutcome>((resolve) => (settle = resolve));
  let subscription: Subscription | undefined = undefined;
  const end = (found: Notification | undefined, error?: unknown) => {
    clearTimeout(timer);
    subscription?.close();
    settle({ found, ...(error === undefined ? {} : { error }), report: report(subscription!, started) } as WaitOutcome);
  };
  const timer = setTimeout(() => end(undefined), deadline.remaining());
  subscription = feed.subscribe(
    {
      deliver: (messages) => {
        seen.push(...messages);
        const hit = messages.find(accept);
        if (hit) end(hit);
      },
      fail: (error) => end(undefined, error),
    },
    deadline,
  );
  const armed = subscription.armed;
  const sub = subscription;
  return {
    armed,
    seen,
    outcome,
    get isArmed() {
      return sub.isArmed;
    },
  };
}

/** A watched window, started when made. */
export interface WindowWatch {
  /** Resolves once the watch is armed (its first read after the call was answered), or once it ended. */
  readonly armed: Promise<void>;
  readonly outcome: Promise<WindowOutcome>;
}

/**
 * Watches a window of `windowMs` from this call (subscribed before this returns, so no act that follows can
 * beat it) and collects the messages `accept` takes that arrive in it. A message first found by the read
 * after the window is inside unless its phone certainly stamped it after the window's end: the same rule as
 * at the start, never this machine's clock against the phone's. Ends by `windowMs` plus `lastReadMs`.
 * @param lastReadMs the longest the read after the window may take
 * @default lastReadMs FINAL_READ_MS
 */
export function watchWindow(feed: NotificationFeed, accept: (m: Notification) => boolean, windowMs: number, lastReadMs = FINAL_READ_MS): WindowWatch {
  const started = performance.now();
  const deadline = Deadline.in(windowMs + lastReadMs);
  const seen: Notification[] = [];
  let error: unknown;
  const subscription = feed.subscribe({ deliver: (messages) => seen.push(...messages), fail: (e) => (error ??= e) }, deadline);
  const windowEnd = subscription.since + windowMs;
  const outcome = (async (): Promise<WindowOutcome> => {
    try {
      await pause(windowMs, deadline);
      // One read that starts after the window: what arrived in its last moments is in the list by then.
      const after = feed.subscribe({ deliver: () => {}, fail: (e) => (error ??= e) }, deadline);
      await within(after.armed, deadline, 'the read after the window').catch(() => {});
      const complete = after.isArmed && subscription.isArmed && error === undefined;
      after.close();
      const hits = seen.filter((m) => accept(m) && !feed.clocks.stampedAfter(m, windowEnd));
      return { hits, seen, complete, ...(error === undefined ? {} : { error }), report: report(subscription, started) };
    } finally {
      subscription.close();
      deadline.dispose();
    }
  })();
  return { armed: subscription.armed, outcome };
}

function report(s: Subscription, started: number): WatchReport {
  return { reads: s.reads, unanswered: s.unanswered, armed: s.isArmed, lastError: s.lastError, ms: performance.now() - started };
}
