import { notificationKey, type Notification } from '../core/notifications.js';
import type { CallOptions, DeviceClient } from './client.js';

/** The order a server lists notifications in, as far as the watcher has learned it. */
export type NotificationOrder = 'oldest-first' | 'newest-first' | 'unknown';

export interface WatcherOptions {
  /**
   * Messages asked for per read.
   * @default 100
   */
  pageSize?: number;
}

/** Most keys remembered as seen; a phone holds 1,000 messages, a lab a few dozen phones. */
const MAX_SEEN = 100_000;
/**
 * Earlier windows a page read looks through for the last message read before it, when the list moved back
 * by more than the overlap between two reads: three quarters of a page each.
 */
const MAX_STEPS_BACK = 4;
/** A list longer than this many pages is not re-read whole to learn the order; the times decide. */
const SMALL_LIST_PAGES = 2;

/**
 * Finds the messages that arrived since it was armed, without assuming the server's order or what its
 * `position` indexes (field notes: both are "not shown"). It sends no filters, so `position` indexes the
 * same list under either semantics; callers filter on the client. While the order is unknown it reads the
 * whole list and learns the order from where new messages appear; then each idle poll is one small read:
 * the head for newest-first, the last known message for oldest-first (which survives old messages falling
 * off the front of the list).
 */
export class NotificationWatcher {
  #client: Pick<DeviceClient, 'notifications'>;
  #page: number;
  #order: NotificationOrder = 'unknown';
  #seen = new Map<string, number>();
  /** The newest message seen: oldest-first, with its 1-based position; newest-first, the head (pos 1). */
  #anchor: { key: string; pos: number } | undefined;

  constructor(client: Pick<DeviceClient, 'notifications'>, options: WatcherOptions = {}) {
    this.#client = client;
    this.#page = options.pageSize ?? 100;
  }

  /** The order learned so far. */
  get order(): NotificationOrder {
    return this.#order;
  }

  /** Reads the current list as the baseline: only messages that arrive after this count as new. */
  async arm(options: CallOptions = {}): Promise<void> {
    await this.poll(options);
  }

  /** The messages that arrived since the last poll (or since arming), oldest first. */
  async poll(options: CallOptions = {}): Promise<Notification[]> {
    if (this.#order === 'newest-first' && this.#anchor) return this.#pollNewestFirst(this.#anchor, options);
    if (this.#order === 'oldest-first' && this.#anchor) return this.#pollOldestFirst(this.#anchor, options);
    return this.#pollUnknown(options);
  }

  async #pollUnknown(options: CallOptions): Promise<Notification[]> {
    const list = await this.#readFrom(1, options, () => false);
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

  async #pollNewestFirst(anchor: { key: string; pos: number }, options: CallOptions): Promise<Notification[]> {
    // New messages are the prefix before the last head seen: read pages until the head shows up again. What
    // stands before it is new even when a copy of an older message (equal app, text and time) is among it.
    const head = await this.#readFrom(1, options, (page) => page.some((m) => notificationKey(m) === anchor.key));
    const at = head.findIndex((m) => notificationKey(m) === anchor.key);
    const fresh = at >= 0 ? this.#markSeen(head.slice(0, at)) : this.#diff(head).items;
    if (head.length) this.#anchor = { key: notificationKey(head[0]!), pos: 1 };
    else [this.#order, this.#anchor] = ['unknown', undefined]; // the list is empty: learn again
    return fresh.reverse();
  }

  async #pollOldestFirst(anchor: { key: string; pos: number }, options: CallOptions): Promise<Notification[]> {
    const first = await this.#client.notifications({ position: anchor.pos, count: this.#page }, options);
    let start = anchor.pos;
    let tail: Notification[];
    let anchored = true;
    if (first[0] && notificationKey(first[0]) === anchor.key) {
      tail = first.length === this.#page ? await this.#readFrom(anchor.pos, options, () => false, first) : first;
    } else {
      // Old messages fell off the front (or the list was cleared): look for the anchor just before.
      start = Math.max(1, anchor.pos - this.#page);
      const around = await this.#readFrom(start, options, () => false);
      let at = -1;
      for (let i = around.length - 1; i >= 0; i--) if (notificationKey(around[i]!) === anchor.key) { at = i; break; }
      anchored = at >= 0;
      if (at < 0 && start > 1) {
        start = 1;
        tail = await this.#readFrom(1, options, () => false);
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

  /**
   * Reads pages from `position` until a short page, or until `enough` says stop. The list moves between two
   * reads (new messages come, old ones fall off the front), so a page read where the one before ended would
   * skip what moved back over the gap: each page after the first starts a quarter page earlier and is aligned
   * on the last message read before it. When the list moved back by more than that, the earlier windows are
   * searched for that message, and the overlap grows to what the list moved.
   * @param first the first page, when the caller has read it already
   */
  async #readFrom(position: number, options: CallOptions, enough: (page: Notification[]) => boolean, first?: Notification[]): Promise<Notification[]> {
    let overlap = Math.floor(this.#page / 4);
    const read = (pos: number) => this.#client.notifications({ position: pos, count: this.#page }, options);
    let page = first ?? (await read(position));
    const out = [...page];
    for (let pos = position; page.length === this.#page && !enough(page); ) {
      pos += this.#page - overlap;
      page = await read(pos);
      if (overlap === 0) {
        out.push(...withoutOverlap(out, page));
        continue;
      }
      const last = notificationKey(out.at(-1)!);
      let at = indexNear(page, last, overlap - 1);
      // Neither the last message read nor a repeat of what was read: old messages fell off faster than the
      // overlap covers, and what follows the last message read now stands before this page. Look back for it.
      for (let back = 1; at < 0 && back <= MAX_STEPS_BACK && pos > 1 && withoutOverlap(out, page).length === page.length; back++) {
        const start = Math.max(1, pos - back * (this.#page - overlap));
        const earlier = await read(start);
        const found = indexNear(earlier, last, earlier.length - 1);
        if (found < 0) continue;
        // It stood `moved` places before where it was looked for: overlap that much from now on.
        const moved = pos + overlap - 1 - (start + found);
        [pos, page, at, overlap] = [start, earlier, found, Math.min(this.#page - 1, Math.max(overlap, moved + 1))];
      }
      out.push(...(at >= 0 ? page.slice(at + 1) : withoutOverlap(out, page)));
    }
    return out;
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
    if (this.#order === 'newest-first') return items.reverse();
    // Order not learned yet (every message is new, e.g. armed on an empty list): the times are all there is.
    // The sort is stable, so messages of the same millisecond keep the server's order.
    if (this.#order === 'unknown') return items.sort((a, b) => a.time - b.time);
    return items;
  }
}

/** Where the message with `key` stands in `page`: of several copies, the one nearest `expected`; -1 when none. */
function indexNear(page: Notification[], key: string, expected: number): number {
  let at = -1;
  page.forEach((m, i) => {
    if (notificationKey(m) === key && (at < 0 || Math.abs(i - expected) < Math.abs(at - expected))) at = i;
  });
  return at;
}

/**
 * A page without its head where it repeats the tail of what was read before it. Messages that arrive
 * between two page reads of a newest-first list push it down, so the next page starts with the last ones
 * of the page before; counted twice, those old messages would pass for new ones.
 */
function withoutOverlap(before: Notification[], page: Notification[]): Notification[] {
  for (let shift = Math.min(before.length, page.length); shift > 0; shift--) {
    const tail = before.length - shift;
    let same = true;
    for (let i = 0; i < shift && same; i++) same = notificationKey(before[tail + i]!) === notificationKey(page[i]!);
    if (same) return page.slice(shift);
  }
  return page;
}

/** The order a long list is in, judged by its first and last times; unknown when they are equal. */
function orderByTime(list: Notification[]): NotificationOrder {
  const first = list[0]!.time;
  const last = list.at(-1)!.time;
  return first < last ? 'oldest-first' : first > last ? 'newest-first' : 'unknown';
}
