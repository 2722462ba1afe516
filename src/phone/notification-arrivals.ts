import { notificationKey, type Notification } from '../core/notifications.js';
import type { CallOptions } from '../client/client.js';
import { readPages, type NotificationSource } from './notification-list.js';

/** The order a server lists notifications in, as far as {@link Arrivals} has learned it. */
export type NotificationOrder = 'oldest-first' | 'newest-first' | 'unknown';

export interface ArrivalsOptions {
  /**
   * Messages asked for per read.
   * @default 100
   */
  pageSize?: number;
}

/** Most keys remembered as seen; a phone holds 1,000 messages, a lab a few dozen phones. */
const MAX_SEEN = 100_000;
/** A list longer than this many pages is not re-read whole to learn the order; the times decide. */
const SMALL_LIST_PAGES = 2;

/**
 * The messages that arrived on a server's notification list since the last read of it: what the feed hands its
 * waiters. It assumes neither the server's order nor what its `position` indexes, which the interface leaves
 * unsaid. It sends no filters, so `position` indexes the same list either way; callers filter on the client.
 * While the order is unknown it reads the whole list and learns the order from where new messages appear; then
 * a read while nothing arrives is one small request: the head for newest-first, the last known message for
 * oldest-first (which survives old messages falling off the front of the list).
 */
export class Arrivals {
  #client: NotificationSource;
  #page: number;
  #order: NotificationOrder = 'unknown';
  #seen = new Map<string, number>();
  /** The newest message seen: oldest-first, with its 1-based position; newest-first, the head (pos 1). */
  #anchor: { key: string; pos: number } | undefined;
  #baselined = false;

  constructor(client: NotificationSource, options: ArrivalsOptions = {}) {
    this.#client = client;
    this.#page = options.pageSize ?? 100;
  }

  /** The order learned so far. */
  get order(): NotificationOrder {
    return this.#order;
  }

  /**
   * True once the list was read: from then on, what a read returns arrived since the read before it. The first
   * read returns the whole list (the baseline), whatever its age.
   */
  get baselined(): boolean {
    return this.#baselined;
  }

  /** Reads the current list as the baseline: only messages that arrive after this count as new. */
  async baseline(options: CallOptions = {}): Promise<void> {
    await this.read(options);
  }

  /** The messages that arrived since the last read (or since the baseline), oldest first. */
  async read(options: CallOptions = {}): Promise<Notification[]> {
    let fresh: Notification[];
    if (this.#order === 'newest-first' && this.#anchor) fresh = await this.#readNewestFirst(this.#anchor, options);
    else if (this.#order === 'oldest-first' && this.#anchor) fresh = await this.#readOldestFirst(this.#anchor, options);
    else fresh = await this.#readUnknown(options);
    this.#baselined = true;
    return fresh;
  }

  async #readUnknown(options: CallOptions): Promise<Notification[]> {
    const list = await readPages(this.#client, 1, { ...options, pageSize: this.#page });
    const fresh = this.#diff(list);
    const n = fresh.indexes.length;
    // Where new messages appear among old ones tells the order (the first read sees everything as new).
    if (n > 0 && n < list.length) {
      if (fresh.indexes.every((i) => i >= list.length - n)) this.#order = 'oldest-first';
      else if (fresh.indexes.every((i) => i < n)) this.#order = 'newest-first';
    }
    if (this.#order === 'unknown' && list.length > this.#page * SMALL_LIST_PAGES) this.#order = orderByTime(list);
    if (this.#order === 'oldest-first' && list.length > 0) this.#anchor = { key: notificationKey(list.at(-1)!), pos: list.length };
    if (this.#order === 'newest-first' && list.length > 0) this.#anchor = { key: notificationKey(list[0]!), pos: 1 };
    return this.#chronological(fresh.items);
  }

  async #readNewestFirst(anchor: { key: string; pos: number }, options: CallOptions): Promise<Notification[]> {
    // New messages are the prefix before the last head seen: read pages until the head shows up again. What
    // stands before it is new even when a copy of an older message (equal app, text and time) is among it.
    const head = await readPages(this.#client, 1, { ...options, pageSize: this.#page, enough: (page) => page.some((m) => notificationKey(m) === anchor.key) });
    const at = head.findIndex((m) => notificationKey(m) === anchor.key);
    const fresh = at >= 0 ? this.#markSeen(head.slice(0, at)) : this.#diff(head).items;
    if (head.length) this.#anchor = { key: notificationKey(head[0]!), pos: 1 };
    else [this.#order, this.#anchor] = ['unknown', undefined]; // the list is empty: learn again
    return fresh.reverse();
  }

  async #readOldestFirst(anchor: { key: string; pos: number }, options: CallOptions): Promise<Notification[]> {
    const first = await this.#client.notifications({ position: anchor.pos, count: this.#page }, options);
    let start = anchor.pos;
    let tail: Notification[];
    let anchored = true;
    if (first[0] && notificationKey(first[0]) === anchor.key) {
      tail = first.length === this.#page ? await readPages(this.#client, anchor.pos, { ...options, pageSize: this.#page, first }) : first;
    } else {
      // Old messages fell off the front (or the list was cleared): look for the anchor just before.
      start = Math.max(1, anchor.pos - this.#page);
      const around = await readPages(this.#client, start, { ...options, pageSize: this.#page });
      let at = -1;
      for (let i = around.length - 1; i >= 0; i--) if (notificationKey(around[i]!) === anchor.key) { at = i; break; }
      anchored = at >= 0;
      if (at < 0 && start > 1) {
        start = 1;
        tail = await readPages(this.#client, 1, { ...options, pageSize: this.#page });
      } else {
        tail = at >= 0 ? around.slice(at) : around;
        start += Math.max(at, 0);
      }
    }
    // Past the anchor, the position says what is new: a copy of a message seen before is new too (phones stamp
    // whole seconds, so an app posting the same text twice in a second sends two equal messages).
    const fresh = anchored ? this.#markSeen(tail.slice(1)) : this.#diff(tail).items;
    if (tail.length) this.#anchor = { key: notificationKey(tail.at(-1)!), pos: start + tail.length - 1 };
    else if (start === 1) [this.#order, this.#anchor] = ['unknown', undefined]; // the list is empty: learn again
    return fresh;
  }

  /** The messages of `list` not seen before (equal messages counted, not merged), and where they stand. */
  #diff(list: Notification[]): { items: Notification[]; indexes: number[] } {
    const budget = new Map<string, number>();
    const items: Notification[] = [];
    const indexes: number[] = [];
    list.forEach((m, i) => {
      const key = notificationKey(m);
      const left = budget.get(key) ?? this.#seen.get(key) ?? 0;
      if (left > 0) {
        budget.set(key, left - 1);
        return;
      }
      budget.set(key, 0);
      items.push(m);
      indexes.push(i);
    });
    return { items: this.#markSeen(items), indexes };
  }

  /** Counts `items` as seen; returns them. */
  #markSeen(items: Notification[]): Notification[] {
    for (const m of items) {
      const key = notificationKey(m);
      this.#seen.set(key, (this.#seen.get(key) ?? 0) + 1);
    }
    while (this.#seen.size > MAX_SEEN) this.#seen.delete(this.#seen.keys().next().value!);
    return items;
  }

  #chronological(items: Notification[]): Notification[] {
    // Order not learned yet (every message is new, e.g. armed on an empty list): each phone's times tell it.
    const order = this.#order === 'unknown' ? orderByTime(items) : this.#order;
    return order === 'newest-first' ? items.reverse() : items;
  }
}

/**
 * The order of a list, told by its times; unknown when they do not say. Only one phone's times are compared
 * with each other: phones stamp `time` with their own clocks, minutes apart in a lab, so the first message
 * of a list may carry a later time than the last while the list is oldest first.
 */
function orderByTime(list: Notification[]): NotificationOrder {
  const span = new Map<string, { first: number; last: number }>();
  for (const m of list) {
    const s = span.get(m.id);
    if (s) s.last = m.time;
    else span.set(m.id, { first: m.time, last: m.time });
  }
  let votes = 0;
  for (const { first, last } of span.values()) votes += Math.sign(last - first);
  return votes > 0 ? 'oldest-first' : votes < 0 ? 'newest-first' : 'unknown';
}
