import { setTimeout as sleep } from 'node:timers/promises';
import { NotificationWatcher, type DeviceClient } from '../client/index.js';
import type { Notification } from '../core/notifications.js';

/** How often `notifications --follow` asks for new messages: quick enough to feel live, light on the server. */
export const FOLLOW_POLL_MS = 250;

export interface FollowOptions {
  /** Keeps a message or drops it (the watcher reads unfiltered; filters apply on the client). */
  accept: (n: Notification) => boolean;
  /** Told each new message that passes `accept`, oldest first. */
  onMessage: (n: Notification) => void;
  /** Called once the baseline is read: from then on every message that arrives is reported. */
  onArmed: () => void;
  /** Ends the watch; the function then returns normally. */
  signal: AbortSignal;
}

/**
 * Tails the messages that arrive after it starts, until `signal` aborts. The watcher is armed first, so a
 * message posted while the first read is in flight is still reported; errors other than the abort end it.
 * @param client the logged-in client
 */
export async function followNotifications(client: Pick<DeviceClient, 'notifications'>, options: FollowOptions): Promise<void> {
  const { signal } = options;
  const watcher = new NotificationWatcher(client);
  try {
    await watcher.arm({ signal });
    options.onArmed();
    while (!signal.aborted) {
      await sleep(FOLLOW_POLL_MS, undefined, { signal });
      for (const n of await watcher.poll({ signal })) if (options.accept(n)) options.onMessage(n);
    }
  } catch (error) {
    // Ctrl-C lands in the middle of a sleep or a read; either way it is the normal end of a follow.
    if (!signal.aborted) throw error;
  }
}
