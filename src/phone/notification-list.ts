import { notificationKey, type Notification } from '../core/notifications.js';
import type { CallOptions, DeviceClient } from '../client/client.js';

/** What reading the notification list needs of a client. */
export type NotificationSource = Pick<DeviceClient, 'notifications'>;

export interface PageOptions extends CallOptions {
  /** Messages asked for per read. @default 100 */
  pageSize?: number;
  /** Stops once a page holds what the caller looks for. */
  enough?: (page: Notification[]) => boolean;
  /** The first page, when the caller has read it already. */
  first?: Notification[];
}

/**
 * Earlier windows a page read looks through for the last message read before it, when the list moved back
 * by more than the overlap between two reads: three quarters of a page each.
 */
const MAX_STEPS_BACK = 4;
const DEFAULT_PAGE = 100;

/**
 * Reads the notification list page by page, the one place it is read: reads the server's list (unfiltered, every phone's) from `position` until a
 * short page, until `enough` says stop, or until the call's deadline. The list moves between two reads (new
 * messages come, old ones fall off the front), so a page read where the one before ended would skip what
 * moved back over the gap: each page after the first starts a quarter page earlier and is aligned on the
 * last message read before it. When the list moved back by more than that, the earlier windows are searched
 * for that message, and the overlap grows to what the list moved.
 * @param position the 1-based position to start at
 */
export async function readPages(client: NotificationSource, position: number, options: PageOptions = {}): Promise<Notification[]> {
  const size = options.pageSize ?? DEFAULT_PAGE;
  const enough = options.enough ?? (() => false);
  let overlap = Math.floor(size / 4);
  const read = (pos: number) => client.notifications({ position: pos, count: size }, options);
  let page = options.first ?? (await read(position));
  const out = [...page];
  for (let pos = position; page.length === size && !enough(page); ) {
    pos += size - overlap;
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
      const start = Math.max(1, pos - back * (size - overlap));
      const earlier = await read(start);
      const found = indexNear(earlier, last, earlier.length - 1);
      if (found < 0) continue;
      // It stood `moved` places before where it was looked for: overlap that much from now on.
      const moved = pos + overlap - 1 - (start + found);
      [pos, page, at, overlap] = [start, earlier, found, Math.min(size - 1, Math.max(overlap, moved + 1))];
    }
    out.push(...(at >= 0 ? page.slice(at + 1) : withoutOverlap(out, page)));
  }
  return out;
}

/** Every message the server holds, every phone's, in the server's order. */
export function readAll(client: NotificationSource, options: Omit<PageOptions, 'enough' | 'first'> = {}): Promise<Notification[]> {
  return readPages(client, 1, options);
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
