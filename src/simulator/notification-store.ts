import type { DeviceId } from '../core/device-id.js';
import type { Notification } from '../core/notifications.js';
import type { Behaviour } from './behaviour.js';
import type { NotificationRule } from './scenario-types.js';

/** A read of the list, as the query gave it (filters already parsed). */
export interface NotificationRead {
  position: number;
  count: number;
  device?: readonly string[] | undefined;
  app?: readonly string[] | undefined;
  match?: readonly string[] | undefined;
}

interface Held extends Notification {
  /**
   * Where the message sits in the list, in ms on the simulator's clock: its arrival, or the `time` an admin
   * post gave. `time` is what the phone stamped (its own clock), so a phone whose clock is off does not move
   * its messages in the list.
   */
  order: number;
  /** Arrival order, to keep messages of the same millisecond in the order they came. */
  seq: number;
}

/** How a phone stamps the messages it receives. */
export interface StampingPhones {
  /** Whether a phone is connected (an offline phone misses timed messages). */
  isOnline(id: DeviceId): boolean;
  /** How far the phone's clock is from the simulator's, in ms. */
  offsetOf(id: DeviceId): number;
}

/** A rule's progress: how many of its messages have arrived. */
interface RuleState {
  rule: NotificationRule;
  sent: number;
}

/** Past this many due messages of one rule, the older ones would fall off anyway; they are skipped. */
const CATCH_UP_SLACK = 1;

/**
 * The messages the server holds, per phone, newest `messagesHeld` of each. Timed and periodic messages of the
 * scenario arrive lazily: each read first delivers whatever fell due by `now`, so an injected clock drives
 * them without timers.
 */
export class NotificationStore {
  #byPhone = new Map<string, Held[]>();
  #rules: RuleState[] = [];
  #seq = 0;
  #startMs = 0;

  /**
   * Forgets every message and starts the rules again at `startMs`.
   * @param rules the scenario's timed and periodic messages
   * @param startMs the start time, ms since the epoch
   */
  reset(rules: readonly NotificationRule[], startMs: number): void {
    this.#byPhone.clear();
    this.#rules = rules.map((rule) => ({ rule, sent: 0 }));
    this.#startMs = startMs;
  }

  /**
   * Adds a message (the admin API's "post a notification", and the scenario's timed ones).
   * @param note the message, `time` as the phone stamped it (ms)
   * @param order its place in the list, in ms on the simulator's clock
   * @param held the newest this many of the phone are kept
   */
  post(note: Notification, order: number, held: number): Notification {
    let list = this.#byPhone.get(note.id);
    if (!list) this.#byPhone.set(note.id, (list = []));
    const entry: Held = { app: note.app, text: note.text, time: note.time, id: note.id, order, seq: this.#seq++ };
    // Keep each phone's list sorted; a message posted with an older time goes where it belongs.
    let i = list.length;
    while (i > 0 && list[i - 1]!.order > entry.order) i--;
    list.splice(i, 0, entry);
    if (list.length > held) list.splice(0, list.length - held);
    return { app: entry.app, text: entry.text, time: entry.time, id: entry.id };
  }

  /**
   * Delivers the scenario's messages that fell due by `now`, each stamped with its phone's clock. Phones
   * offline at that moment miss them.
   * @param now ms since the epoch
   */
  catchUp(now: number, held: number, phones: StampingPhones): void {
    const due: Notification[] = [];
    const elapsed = now - this.#startMs;
    for (const state of this.#rules) {
      const { rule } = state;
      if (rule.everyMs === 0) {
        if (state.sent === 0 && elapsed >= rule.firstMs) {
          state.sent = 1;
          due.push({ app: rule.app, text: expand(rule.text, 1), time: this.#startMs + rule.firstMs, id: rule.device });
        }
        continue;
      }
      if (elapsed < rule.firstMs) continue;
      const total = Math.floor((elapsed - rule.firstMs) / rule.everyMs) + 1;
      // After a long pause only the newest `held` can still be held.
      if (total - state.sent > held + CATCH_UP_SLACK) state.sent = total - held;
      for (; state.sent < total; state.sent++) {
        const time = this.#startMs + rule.firstMs + state.sent * rule.everyMs;
        due.push({ app: rule.app, text: expand(rule.text, state.sent + 1), time, id: rule.device });
      }
    }
    due.sort((a, b) => a.time - b.time);
    for (const note of due) {
      if (phones.isOnline(note.id)) this.post({ ...note, time: note.time + phones.offsetOf(note.id) }, note.time, held);
    }
  }

  /**
   * Answers a read: the messages at `position`, or 'past-end'.
   * @param read position (1-based), count and filters
   */
  read(read: NotificationRead, behaviour: Behaviour): Notification[] | 'past-end' {
    const all: Held[] = [];
    for (const list of this.#byPhone.values()) {
      const keep = list.length > behaviour.messagesHeld ? list.slice(list.length - behaviour.messagesHeld) : list;
      for (const note of keep) all.push(note);
    }
    all.sort((a, b) => a.order - b.order || a.seq - b.seq);
    if (behaviour.notificationOrder === 'newest-first') all.reverse();
    const keep = (n: Held) => passes(n, read, behaviour.match);
    const start = read.position - 1;
    let page: Held[];
    if (behaviour.positionIndexes === 'filtered') {
      const list = all.filter(keep);
      if (start >= list.length) return 'past-end';
      page = list.slice(start, start + read.count);
    } else {
      if (start >= all.length) return 'past-end';
      page = all.slice(start, start + read.count).filter(keep);
    }
    const unit = behaviour.timeUnit;
    return page.map((n) => ({ app: n.app, text: n.text, time: wireTime(n.time, unit), id: n.id }));
  }
}

/**
 * A `time` as the wire carries it: ms, or whole seconds (rounded down, as a phone's seconds clock reads).
 * @param ms ms since the epoch
 */
export function wireTime(ms: number, unit: Behaviour['timeUnit']): number {
  return unit === 's' ? Math.floor(ms / 1000) : ms;
}

function passes(n: Held, read: NotificationRead, match: Behaviour['match']): boolean {
  if (read.device && !read.device.includes(n.id)) return false;
  if (read.app && !read.app.includes(n.app)) return false;
  if (read.match) return read.match.some((m) => (match === 'exact' ? n.text === m : n.text.includes(m)));
  return true;
}

function expand(text: string, n: number): string {
  return text.includes('{n}') ? text.replaceAll('{n}', String(n)) : text;
}
