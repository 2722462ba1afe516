import { TimeoutError } from '../core/errors.js';
import type { Notification } from '../core/notifications.js';
import { PhoneClocks } from '../core/phone-clock.js';
import type { CallOptions } from '../client/caller.js';
import { Deadline, pause } from '../client/deadline.js';
import { keepsPolling } from '../client/resilience.js';
import type { CallSite } from './hooks.js';
import { Arrivals } from './notification-arrivals.js';
import type { NotificationSource } from './notification-list.js';
import { until } from './until.js';

/**
 * How the feed's reads run: a phone's feed reads through `Phone.read`, so each read of the list is a report step
 * with its deadline and the lab's bookkeeping, as every other read of the phone. By default the read just runs.
 */
export type ReadThrough = <T>(title: string, options: { deadline: Deadline; site?: CallSite | undefined }, body: (o: CallOptions) => Promise<T>) => Promise<T>;

export interface FeedOptions {
  /**
   * Pause between polls while anyone listens, in ms. One idle poll is one small read, so 150 ms keeps an
   * idle waiter under 10 calls a second while a message is seen within ~75 ms of arriving, on median.
   * @default 150
   */
  interval?: number;
  /** Messages per read. @default 100 */
  pageSize?: number;
  /** This machine's clock, ms since the epoch. @default performance.timeOrigin + performance.now() */
  now?: () => number;
  /** How each read of the list runs, and its title. @default the read alone */
  read?: ReadThrough;
  /** The title of each read of the list, for its report step. @default 'new notifications' */
  title?: string;
}

/** What a listener is told. */
export interface FeedListener {
  /** Messages that arrived after the listener's call, oldest first, in batches. */
  deliver(messages: Notification[]): void;
  /** The feed cannot read the list any more: a failure no further read can mend. */
  fail(error: unknown): void;
}

/** One listener's hold on the feed, and what the feed did for it. */
export interface Subscription {
  /** This machine's clock when it subscribed: the call moment its messages are judged against. */
  readonly since: number;
  /**
   * Resolves once the listener is armed: a read that started after its call has been answered, so every
   * message arriving from now on reaches it. Resolves too when the subscription closes unarmed; never rejects.
   */
  readonly armed: Promise<void>;
  readonly isArmed: boolean;
  /** Reads answered since it subscribed. */
  readonly reads: number;
  /** Reads started since it subscribed and not answered (failed, or still in flight when it closed). */
  readonly unanswered: number;
  /** The last failed read's error, cleared by an answered one. */
  readonly lastError: unknown;
  /** Stops listening; the feed stops polling when nobody listens. */
  close(): void;
}

/** One read of the feed: answered or not, and whether anyone still listens as it ends. */
interface Read {
  answered: boolean;
  idle: boolean;
}

interface Listener extends Subscription {
  sink: FeedListener;
  deadline: Deadline;
  site: CallSite | undefined;
  isArmed: boolean;
  reads: number;
  unanswered: number;
  lastError: unknown;
  resolveArmed: () => void;
}

/**
 * One reader of a server's notification list shared by every listener (a phone's waiters): one read at a time
 * however many waiters a test arms, paced by the phone layer's one wait loop, and none when nobody listens.
 *
 * Which messages reach a listener, without comparing a phone's `time` with this machine's clock (phones keep
 * their own): what a read answered after the listener's first read that started after its call (its arming
 * read) arrived after the call. What that arming read (or a read in flight at the call) found new may have
 * arrived before the call or after it: it counts only when its phone certainly stamped it after the call
 * moment, by that phone's clock as the feed learned it (see {@link PhoneClocks}); until a phone's clock is
 * known, such a message counts as old. A message in the list at the previous read never counts.
 */
export class NotificationFeed {
  /** Each phone's clock, learned from the arrivals every poll sees. */
  readonly clocks = new PhoneClocks();
  #arrivals: Arrivals;
  #options: Required<FeedOptions>;
  #listeners = new Set<Listener>();
  #running = false;
  #polls = 0;
  #lastReadStart: number | undefined;
  /** Cuts the read in flight when the last listener leaves. */
  #reading: AbortController | undefined;
  #wake: AbortController | undefined;

  constructor(client: NotificationSource, options: FeedOptions = {}) {
    this.#options = {
      interval: options.interval ?? 150,
      pageSize: options.pageSize ?? 100,
      now: options.now ?? (() => performance.timeOrigin + performance.now()),
      read: options.read ?? ((_title, o, body) => body({ deadline: o.deadline })),
      title: options.title ?? 'new notifications',
    };
    this.#arrivals = new Arrivals(client, { pageSize: this.#options.pageSize });
  }

  /**
   * Starts listening now. The feed reads on the listener's behalf until its deadline (a read in flight is cut
   * there) or until it closes.
   * @param site where the spec made the listener: the reads made for it are shown there
   */
  subscribe(sink: FeedListener, deadline: Deadline, site?: CallSite): Subscription {
    let resolveArmed!: () => void;
    const armed = new Promise<void>((r) => (resolveArmed = r));
    const listener: Listener = {
      since: this.#options.now(),
      armed,
      isArmed: false,
      reads: 0,
      unanswered: 0,
      lastError: undefined,
      sink,
      deadline,
      site,
      resolveArmed,
      close: () => {
        this.#listeners.delete(listener);
        listener.resolveArmed();
        // Nobody listens: a read in flight is of no use to anyone.
        if (this.#listeners.size === 0) this.#reading?.abort();
      },
    };
    this.#listeners.add(listener);
    if (!this.#running) void this.#loop();
    else this.#wake?.abort(); // poll now rather than after the pause: arming should be quick
    return listener;
  }

  /** Resolves once every listener subscribed so far is armed (or closed): acts wait for it. */
  async settled(): Promise<void> {
    await Promise.all([...this.#listeners].map((l) => l.armed));
  }

  /** Reads for the listeners, through the one wait loop, until nobody listens. */
  async #loop(): Promise<void> {
    this.#running = true;
    // No end of its own: it ends when nobody listens after a read, each listener ending at its own deadline.
    const forever = Deadline.in(Infinity);
    let last: Read = { answered: false, idle: false };
    try {
      await until(
        async () => (last = await this.#readOnce()),
        (read) => read.idle,
        forever,
        // An unarmed listener (it joined during that read) gets its arming read at once; after a failed read,
        // the next one waits the interval like any other (the client already spent its retries).
        { pause: () => (last.answered && [...this.#listeners].some((l) => !l.isArmed) ? Promise.resolve() : this.#pause()) },
      );
    } finally {
      forever.dispose();
      this.#running = false;
      // Someone subscribed while the last read was being cut short: read for them.
      if (this.#listeners.size > 0) void this.#loop();
    }
  }

  /**
   * One read of the list on behalf of everyone listening, its new messages handed out by {@link #answered}.
   * Never throws: a failure no further read can mend ends every wait now; a passing one, or a read cut by the
   * deadline, is read again, each listener ending at its own deadline. `idle`: nobody listens any more, as the
   * read ends (a listener that leaves on what it was handed leaves after that).
   */
  async #readOnce(): Promise<Read> {
    const reading = [...this.#listeners];
    // The read may take as long as the longest-waiting listener; it ends when nobody listens any more.
    const left = Math.max(...reading.map((l) => l.deadline.at)) - performance.now();
    // Every listener's time is up: each closes on its own timer in a moment.
    if (!(left > 0)) return { answered: false, idle: reading.length === 0 };
    const stop = (this.#reading = new AbortController());
    const deadline = Deadline.in(left, stop.signal);
    const baseline = !this.#arrivals.baselined;
    const start = this.#options.now();
    try {
      const site = reading.at(-1)!.site;
      const fresh = await this.#options.read(this.#options.title, { deadline, site }, (o) => this.#arrivals.read(o));
      this.#answered(fresh, { start, end: this.#options.now(), baseline });
      return { answered: true, idle: this.#listeners.size === 0 };
    } catch (error) {
      if (stop.signal.aborted) return { answered: false, idle: true };
      for (const l of reading) [l.unanswered, l.lastError] = [l.unanswered + 1, error];
      if (!keepsPolling(error) && !(error instanceof TimeoutError && error.reason === 'deadline')) {
        for (const l of [...this.#listeners]) l.sink.fail(error);
        this.#listeners.clear();
      }
      return { answered: false, idle: this.#listeners.size === 0 };
    } finally {
      this.#reading = undefined;
      deadline.dispose();
    }
  }

  /** The pause between reads, cut short by a listener that joins. */
  async #pause(): Promise<void> {
    const wake = (this.#wake = new AbortController());
    const until = Deadline.in(Infinity, wake.signal);
    await pause(this.#options.interval, until);
    until.dispose();
    this.#wake = undefined;
  }

  /** Hands an answered read's new messages to the listeners, and learns the phones' clocks from them. */
  #answered(fresh: Notification[], read: { start: number; end: number; baseline: boolean }): void {
    const poll = ++this.#polls;
    // A baseline read found the whole list, not arrivals: nothing to learn from it.
    if (!read.baseline && this.#lastReadStart !== undefined) for (const m of fresh) this.clocks.learn(m, this.#lastReadStart, read.end, poll);
    this.#lastReadStart = read.start;
    for (const l of [...this.#listeners]) {
      [l.reads, l.lastError] = [l.reads + 1, undefined];
      const mine = l.isArmed ? fresh : fresh.filter((m) => this.clocks.stampedAfter(m, l.since));
      if (!l.isArmed && read.start >= l.since) {
        l.isArmed = true;
        l.resolveArmed();
      }
      if (mine.length) l.sink.deliver(mine);
    }
  }
}
