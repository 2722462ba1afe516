import { Deadline, pause, within } from '../client/deadline.js';
import { describeFilter, matchesNotification, parseNotificationFilter, type Notification, type NotificationFilter } from '../core/notifications.js';
import { pointAt, type CallSite } from './hooks.js';
import type { NotificationFeed } from './notification-feed.js';
import { attachSeen, checkMs, listSeen, reportOf, stuck, waitFailure, type WatchReport } from './notification-report.js';
import type { Phone } from './phone.js';

export interface NoNotificationOptions {
  /** How long to watch, in ms. @default 3000 */
  within?: number;
  /** How long the read of the list after the window may take, in ms; default: the expect timeout. */
  timeout?: number;
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

/** A watched window, started when made. */
export interface WindowWatch {
  /** Resolves once the watch is armed (its first read after the call was answered), or once it ended. */
  readonly armed: Promise<void>;
  readonly outcome: Promise<WindowOutcome>;
}

/**
 * The longest the read after a window may take, by default: the window's end is known only once a read that
 * started after it is answered.
 */
export const FINAL_READ_MS = 5_000;
/** How long `expectNoNotification` watches unless told, in ms. */
export const WINDOW_MS = 3_000;

/**
 * Watches a window of `windowMs` from this call (subscribed before this returns, so no act that follows can
 * beat it) and collects the messages `accept` takes that arrive in it. A message first found by the read
 * after the window is inside unless its phone certainly stamped it after the window's end: the same rule as
 * at the start, never this machine's clock against the phone's. Ends by `windowMs` plus `lastReadMs`.
 * @param lastReadMs the longest the read after the window may take
 * @default lastReadMs FINAL_READ_MS
 */
export function watchWindow(feed: NotificationFeed, accept: (m: Notification) => boolean, windowMs: number, lastReadMs = FINAL_READ_MS, site?: CallSite): WindowWatch {
  const started = performance.now();
  const deadline = Deadline.in(windowMs + lastReadMs);
  const seen: Notification[] = [];
  let error: unknown;
  const subscription = feed.subscribe({ deliver: (messages) => seen.push(...messages), fail: (e) => (error ??= e) }, deadline, site);
  const windowEnd = subscription.since + windowMs;
  const outcome = (async (): Promise<WindowOutcome> => {
    try {
      await pause(windowMs, deadline);
      // One read that starts after the window: what arrived in its last moments is in the list by then.
      const after = feed.subscribe({ deliver: () => {}, fail: (e) => (error ??= e) }, deadline, site);
      await within(after.armed, deadline, 'the read after the window').catch(() => {});
      const complete = after.isArmed && subscription.isArmed && error === undefined;
      after.close();
      const hits = seen.filter((m) => accept(m) && !feed.clocks.stampedAfter(m, windowEnd));
      return { hits, seen, complete, ...(error === undefined ? {} : { error }), report: reportOf(subscription, started) };
    } finally {
      subscription.close();
      deadline.dispose();
    }
  })();
  return { armed: subscription.armed, outcome };
}

/**
 * `device.expectNoNotification(filter)`: watches the whole window and fails if a matching message arrives in it.
 * A misuse rejects it before anything is watched.
 */
export function expectNoNotification(phone: Phone, feed: NotificationFeed, filter: NotificationFilter, options: NoNotificationOptions): Promise<void> {
  const site = phone.hooks.callSite();
  let wanted: NotificationFilter;
  let windowMs: number;
  let lastRead: number;
  try {
    wanted = parseNotificationFilter({ device: phone.id, ...filter });
    windowMs = checkMs('within', options.within ?? WINDOW_MS);
    lastRead = checkMs('timeout', options.timeout ?? phone.waitTimeout);
  } catch (error) {
    phone.lab.note(error);
    return Promise.reject(pointAt(error as Error, site));
  }
  const title = `expect no notification on ${phone.id} for ${windowMs} ms: ${describeFilter(wanted)}`;
  // Watching from the call itself, before the step starts: an act right after the call cannot beat it.
  const watch = watchWindow(feed, (m) => matchesNotification(m, wanted), windowMs, lastRead, site);
  return phone.read(title, { site }, async () => {
    const outcome = await watch.outcome;
    await attachSeen(phone, outcome.seen);
    if (outcome.hits.length || outcome.error !== undefined || !outcome.complete) await phone.hooks.screenAtFailure();
    if (outcome.hits.length) {
      phone.lab.sawWrongAnswer();
      throw new Error(`expectNoNotification: ${phone} received ${outcome.hits.length} message(s) matching ${describeFilter(wanted)} within ${windowMs} ms.\n${listSeen(outcome.hits)}`);
    }
    if (outcome.error !== undefined) throw outcome.error;
    if (!outcome.complete) {
      const what = `expectNoNotification: could not watch ${phone} for messages matching ${describeFilter(wanted)} over the whole ${windowMs} ms`;
      throw waitFailure(phone, `${what}${stuck(outcome.report) || ': the list was not read again after the window'}.\n${listSeen(outcome.seen)}`, outcome.report);
    }
  });
}
