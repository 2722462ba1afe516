import { atMoment, Deadline } from '../client/deadline.js';
import { describeFilter, matchesNotification, parseNotificationFilter, type Notification, type NotificationFilter } from '../core/notifications.js';
import { pointAt, type CallSite } from './hooks.js';
import type { NotificationFeed, Subscription } from './notification-feed.js';
import { attachSeen, checkMs, listSeen, reportOf, stuck, waitFailure, why, type WatchReport } from './notification-report.js';
import type { Phone } from './phone.js';

export interface WaitOptions {
  /** ms; default: the expect timeout. */
  timeout?: number;
}

/** How a wait for a message ended. */
export type WaitOutcome = { found: Notification; report: WatchReport } | { found: undefined; error?: unknown; report: WatchReport };

/** A wait for a message on a feed, armed when made. */
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

/**
 * Waits for a message `accept` takes that arrives after this call (see {@link NotificationFeed} for what
 * "after" means without trusting clocks), until the deadline.
 * @param site where the spec made the wait: the feed's reads for it are shown there
 */
export function waitForMessage(feed: NotificationFeed, accept: (m: Notification) => boolean, deadline: Deadline, site?: CallSite): MessageWait {
  const started = performance.now();
  const seen: Notification[] = [];
  let settle!: (outcome: WaitOutcome) => void;
  const outcome = new Promise<WaitOutcome>((resolve) => (settle = resolve));
  let subscription: Subscription | undefined = undefined;
  const end = (found: Notification | undefined, error?: unknown) => {
    cancel();
    subscription?.close();
    settle({ found, ...(error === undefined ? {} : { error }), report: reportOf(subscription!, started) } as WaitOutcome);
  };
  const cancel = atMoment(deadline.at, () => end(undefined), { keepAlive: true });
  const deliver = (messages: Notification[]) => {
    seen.push(...messages);
    const hit = messages.find(accept);
    if (hit) end(hit);
  };
  const sub = (subscription = feed.subscribe({ deliver, fail: (error) => end(undefined, error) }, deadline, site));
  return {
    armed: sub.armed,
    seen,
    outcome,
    get isArmed() {
      return sub.isArmed;
    },
  };
}

/**
 * `device.waitForNotification(filter)`: awaited, the first message matching the filter that arrived after the
 * call; its `armed` resolves once it is sure to see every message from then on. Awaiting it (or `catch`,
 * `finally`) hands the spec its error: from then on, acts go again (see {@link PhoneWaiters.ready}).
 */
export class NotificationWaiter implements Promise<Notification> {
  /**
   * Resolves once the waiter's first read after its call was answered (or once it ended): a message that
   * arrives from then on reaches it. Acts made through phonewright wait for it on their own; await it before
   * an act made by other means.
   */
  readonly armed: Promise<void>;
  readonly #found: Promise<Notification>;
  readonly #wait: MessageWait;
  #taken = false;

  constructor(found: Promise<Notification>, wait: MessageWait) {
    // A waiter that fails before the spec awaits it (the list cannot be read) is not an unhandled rejection: the
    // spec gets its error when it awaits it, and an act meanwhile is refused with it.
    found.catch(() => {});
    this.#found = found;
    this.#wait = wait;
    this.armed = wait.armed;
  }

  get [Symbol.toStringTag](): string {
    return 'NotificationWaiter';
  }

  then<A = Notification, B = never>(onFound?: ((n: Notification) => A | PromiseLike<A>) | null, onFailed?: ((error: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.#taken = true;
    return this.#found.then(onFound, onFailed);
  }

  catch<B = never>(onFailed?: ((error: unknown) => B | PromiseLike<B>) | null): Promise<Notification | B> {
    return this.then(undefined, onFailed);
  }

  finally(onFinally?: (() => void) | null): Promise<Notification> {
    this.#taken = true;
    return this.#found.finally(onFinally);
  }

  /**
   * Resolves once the waiter is armed, with nothing; or, when it ended unarmed (the list could not be read) and
   * the spec has not taken it yet, with its error: an act is then not sent.
   */
  async blocking(): Promise<unknown> {
    await this.#wait.armed;
    if (this.#wait.isArmed) return undefined;
    const { error } = (await this.#wait.outcome) as { error?: unknown };
    return this.#taken ? undefined : error;
  }
}

/**
 * A phone's notification waiters: one feed for all of them, and the waiters made since the last act, which the
 * next act waits for. A waiter that could not arm (the list cannot be read) could never see what an act causes:
 * the act is then not sent, and fails saying why.
 */
export class PhoneWaiters {
  readonly feed: NotificationFeed;
  readonly #phone: Phone;
  #made: NotificationWaiter[] = [];

  constructor(phone: Phone, feed: NotificationFeed) {
    this.#phone = phone;
    this.feed = feed;
  }

  /** See `Phone.waitForNotification`. */
  wait(filter: NotificationFilter, options: WaitOptions): NotificationWaiter {
    const waiter = waitForNotification(this.#phone, this.feed, filter, options);
    this.#made.push(waiter);
    return waiter;
  }

  /** Resolves once every waiter made so far is armed (or over). */
  armed(): Promise<void> {
    return this.feed.settled();
  }

  /**
   * What an act waits for: every waiter armed; throws when one made since the last act ended unarmed and the
   * spec has not taken its error.
   * @param act the act's title, for the message
   */
  async ready(act: string): Promise<void> {
    await this.armed();
    const made = this.#made.splice(0);
    const broken = (await Promise.all(made.map((w) => w.blocking()))).find((e) => e !== undefined);
    if (broken === undefined) return;
    const reason = broken instanceof Error ? broken.message : String(broken);
    throw new Error(`${act}: not sent, as a notification waiter made before it could not read the list and could never see what the act causes: ${reason}`, { cause: broken });
  }

  /** Forgets the waiters of a test that is over. */
  forget(): void {
    this.#made = [];
  }
}

/**
 * Waits for a message matching `filter` (on this phone unless the filter names devices) that arrives after
 * the call. The feed is subscribed before anything else, so the act that follows cannot beat it. Its failure
 * points at the spec's line that made it, though the spec awaits it later.
 */
function waitForNotification(phone: Phone, feed: NotificationFeed, filter: NotificationFilter, options: WaitOptions): NotificationWaiter {
  const site = phone.hooks.callSite();
  let wanted: NotificationFilter;
  let timeout: number;
  try {
    wanted = parseNotificationFilter({ device: phone.id, ...filter });
    timeout = checkMs('timeout', options.timeout ?? phone.waitTimeout);
  } catch (error) {
    phone.lab.note(error);
    throw pointAt(error, site);
  }
  const deadline = Deadline.in(timeout);
  const wait = waitForMessage(feed, (m) => matchesNotification(m, wanted), deadline, site);
  const title = `wait for notification on ${phone.id}: ${describeFilter(wanted)}`;
  const found = phone.read(title, { site }, async () => {
    try {
      const outcome = await wait.outcome;
      if (outcome.found) return outcome.found;
      await phone.hooks.screenAtFailure();
      if (outcome.error !== undefined) throw pointAt(outcome.error, site);
      const what = `waitForNotification: no message of ${phone} matching ${describeFilter(wanted)} arrived within ${timeout} ms`;
      const clock = feed.clocks.describe(phone.id);
      throw waitFailure(phone, `${what}${stuck(outcome.report)}.\n${why(clock, wait.seen, wanted)}${listSeen(wait.seen)}`, outcome.report);
    } finally {
      deadline.dispose();
      await attachSeen(phone, wait.seen);
    }
  });
  return new NotificationWaiter(found, wait);
}
