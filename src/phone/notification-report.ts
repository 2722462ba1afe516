import { TimeoutError, UsageError } from '../core/errors.js';
import { matchesNotification, nearMiss, type Notification, type NotificationFilter } from '../core/notifications.js';
import { phoneTimeSpan } from '../core/phone-clock.js';
import type { Subscription } from './notification-feed.js';
import type { Phone } from './phone.js';

/** What a wait on the feed did: for its failure message. */
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

/** Most messages listed in a failure message; the attachment has them all. */
const LISTED = 10;

/** What a subscription did since `started` (performance.now()). */
export function reportOf(s: Subscription, started: number): WatchReport {
  return { reads: s.reads, unanswered: s.unanswered, armed: s.isArmed, lastError: s.lastError, ms: performance.now() - started };
}

/**
 * A wait that ran out: a TimeoutError (the lab's) when the list stopped answering, else a plain failure, the
 * app's: the list answered, and what was waited for did not come.
 */
export function waitFailure(phone: Phone, message: string, report: WatchReport): Error {
  if (report.reads === 0 || !report.armed) return new TimeoutError(message, { reason: 'deadline' });
  phone.lab.sawWrongAnswer();
  return new Error(message);
}

/** `: no answer: the notification list stopped answering …` when it did; ` (… watched; N reads …)` when it answered. */
export function stuck(r: WatchReport): string {
  const watched = `${Math.round(r.ms)} ms watched`;
  if (r.armed && r.lastError === undefined) return ` (${watched}; ${r.reads} read${r.reads === 1 ? '' : 's'} of the list answered)`;
  const last = r.lastError instanceof Error ? `; last read: ${r.lastError.message}` : '';
  return `: no answer: the notification list stopped answering after ${r.reads} read${r.reads === 1 ? '' : 's'} (${r.unanswered} more got no answer; ${watched})${last}`;
}

/**
 * Why nothing was found, when the messages seen say: a message that nearly matched (its text, or its app, was
 * not the one waited for), or one that matched and was judged older than the wait, by what is known of the
 * phone's clock. Empty when no message came close.
 * @param clock what the feed knows of the phone's clock, in words
 */
export function why(clock: string, seen: Notification[], wanted: NotificationFilter): string {
  const near = nearMiss(seen, wanted);
  const judged = seen.some((m) => matchesNotification(m, wanted)) ? `Phone clock (a matching message was judged older than the wait): ${clock}.` : '';
  return [near, judged].filter(Boolean).map((line) => `${line}\n`).join('');
}

/** The messages seen while waiting, as the report's JSON attachment (`notifications-seen.json`). */
export function attachSeen(phone: Phone, seen: Notification[]): Promise<void> {
  return phone.hooks.attach('notifications-seen.json', JSON.stringify(seen, null, 2), 'application/json');
}

/** The last {@link LISTED} messages seen, one a line, with their times by the phones' clocks. */
export function listSeen(seen: Notification[]): string {
  if (seen.length === 0) return 'Seen while waiting: no message at all.';
  const lines = seen.slice(-LISTED).map((m) => `  ${new Date(phoneTimeSpan(m.time).from).toISOString()} ${m.id} ${m.app} ${JSON.stringify(m.text)}`);
  const more = seen.length > LISTED ? ` (last ${LISTED} of ${seen.length}; all in notifications-seen.json)` : '';
  return `Seen while waiting${more} (times by the phones' clocks):\n${lines.join('\n')}`;
}

/** A number of milliseconds ≥ 0, or a UsageError naming the option. */
export function checkMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`invalid ${name} ${String(value)}: expected a number of milliseconds ≥ 0`);
  return value;
}
