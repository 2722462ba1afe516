import { isTransientFailure } from '../core/errors.js';
import type { Notification } from '../core/notifications.js';
import type { DeviceClient } from './client.js';
import { NotificationWatcher } from './watch.js';

export interface FeedOptions {
  /**
   * Pause between polls while anyone listens, in ms. One idle poll is one small read, so 150 ms keeps an
   * idle waiter under 10 calls a second while a message is seen within ~75 ms of arriving, on median.
   * @default 150
   */
  interval?: number;
  /** Messages per read. @default 100 */
  pageSize?: number;
  /** The clock messages' `time` is compared with (the simulator's and the phones' are assumed in sync). */
  now?: () => number;
}

/** One listener's hold on the feed. */
export interface Subscription {
  /** Resolves once the listener is armed: every message arriving from now on will reach it. */
  readonly ready: Promise<void>;
  /** Stops listening; the feed stops polling when nobody listens. */
  close(): void;
}

interface Listener {
  since: number;
  /** A poll that started after it joined has been delivered: what comes now arrived after the join. */
  armed: boolean;
  /** The first poll that starts after the listener joined; messages up to it are filtered by time. */
  armedAt: number;
  deliver: (messages: Notification[]) => void;
  fail: (error: unknown) => void;
  resolveReady: () => void;
}

/**
 * Shares one notification watcher among every listener of one client: one poll loop however many waiters
 * a test arms, and none when nobody listens.
 *
 * "Only messages that arrive after arming count": a poll that started before a listener joined (or the
 * first one after) may hold messages that arrived before or after the join; they count only if their `time`
 * is not before the moment the listener joined. Every later poll's messages arrived after it joined.
 */
export class NotificationFeed {
  #watcher: NotificationWatcher;
  #client: Pick<DeviceClient, 'notifications'>;
  #options: Required<Omit<FeedOptions, 'now'>> & { now: () => number };
  #listeners = new Set<Listener>();
  #generation = 0;
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;

  constructor(client: Pick<DeviceClient, 'notifications'>, options: FeedOptions = {}) {
    this.#client = client;
    this.#options = { interval: options.interval ?? 150, pageSize: options.pageSize ?? 100, now: options.now ?? Date.now };
    this.#watcher = new NotificationWatcher(client, { pageSize: this.#options.pageSize });
  }

  /**
   * Starts listening now.
   * @param deliver told every new message, oldest first, in batches
   * @param fail told when the feed cannot read the list (the error the client gave up with)
   */
  subscribe(deliver: (messages: Notification[]) => void, fail: (error: unknown) => void): Subscription {
    let resolveReady!: () => void;
    const ready = new Promise<void>((r) => (resolveReady = r));
    const listener: Listener = { since: this.#options.now(), armed: false, armedAt: this.#generation + 1, deliver, fail, resolveReady };
    this.#listeners.add(listener);
    if (!this.#running) void this.#loop();
    else this.#wake?.(); // poll now rather than after the pause: arming should be quick
    return { ready, close: () => this.#listeners.delete(listener) };
  }

  async #loop(): Promise<void> {
    this.#running = true;
    try {
      for (let failures = 0; this.#listeners.size > 0; ) {
        const generation = ++this.#generation;
        let fresh: Notification[] | undefined;
        try {
          fresh = await this.#watcher.poll();
          failures = 0;
        } catch (error) {
          // A read that failed after the client's own retries may be a flaky server's bad luck: the next poll
          // tries again. Two failed polls in a row, or a failure waiting cannot fix, end every listener's wait.
          if (++failures >= 2 || !isTransientFailure(error)) {
            for (const l of this.#listeners) l.fail(error);
            this.#listeners.clear();
            break;
          }
        }
        if (fresh) this.#deliver(generation, fresh);
        if (this.#listeners.size === 0) break;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          this.#timer = setTimeout(resolve, this.#options.interval);
        });
        clearTimeout(this.#timer);
        this.#wake = undefined;
      }
    } finally {
      this.#running = false;
      // Nobody listens: forget the baseline, so the next listener arms against the list as it is then.
      if (this.#listeners.size === 0) this.#watcher = new NotificationWatcher(this.#client, { pageSize: this.#options.pageSize });
    }
  }

  /** Hands a poll's new messages to the listeners. */
  #deliver(generation: number, fresh: Notification[]): void {
    for (const l of [...this.#listeners]) {
      // Not armed yet (it joined while this poll was in flight, or this is the first poll after): the poll may
      // hold messages from before the join and after it, which no later poll reports again; their times tell
      // them apart.
      const mine = l.armed ? fresh : fresh.filter((m) => m.time >= l.since);
      if (generation >= l.armedAt && !l.armed) {
        l.armed = true;
        l.resolveReady();
      }
      if (mine.length) l.deliver(mine);
    }
  }
}
