import { Deadline, type DeviceClient } from '../client/index.js';
import { NotificationFeed } from '../phone/index.js';
import type { Notification } from '../core/notifications.js';

/** How often `notifications --follow` asks for new messages: quick enough to feel live, light on the server. */
export const FOLLOW_POLL_MS = 250;

export interface FollowOptions {
  /** Keeps a message or drops it (the feed reads unfiltered; filters apply on the client). */
  accept: (n: Notification) => boolean;
  /** Told each new message that passes `accept`, oldest first. */
  onMessage: (n: Notification) => void;
  /** Called once armed: from then on every message that arrives is reported. */
  onArmed: () => void;
  /** Ends the watch; the function then returns normally. */
  signal: AbortSignal;
}

/**
 * Tails the messages that arrive after it starts, until `signal` aborts, on the same notification feed the
 * fixtures' waiters use. A read that fails for good (the server gone, the login refused) ends it with that error.
 * @param client the logged-in client
 */
export async function followNotifications(client: Pick<DeviceClient, 'notifications'>, options: FollowOptions): Promise<void> {
  const { signal } = options;
  if (signal.aborted) return;
  const feed = new NotificationFeed(client, { interval: FOLLOW_POLL_MS });
  let fail!: (error: unknown) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // No end but Ctrl-C: the feed's reads are cut when it aborts.
  const deadline = Deadline.in(Infinity, signal);
  const subscription = feed.subscribe({ deliver: (messages) => messages.filter(options.accept).forEach(options.onMessage), fail: (error) => fail(error) }, deadline);
  const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    await Promise.race([subscription.armed.then(() => subscription.isArmed && options.onArmed()), failed, stopped]);
    await Promise.race([failed, stopped]);
  } finally {
    subscription.close();
    deadline.dispose();
  }
}
