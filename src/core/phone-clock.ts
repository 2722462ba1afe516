import type { DeviceId } from './device-id.js';
import type { Notification } from './notifications.js';

/**
 * A notification's `time` below this is in seconds: 1e11 ms is March 1973, 1e11 s the year 5138. A phone's
 * clock off by hours or days comes nowhere near either, so the unit is told by the number alone.
 */
const SECONDS_BELOW = 1e11;
/** Arrivals ignored as late from this many polls in a row mean the phone's clock went back: learn again. */
const LATE_POLLS_TO_RELEARN = 3;
/**
 * How fast a phone's clock may drift from this machine's, as a fraction: 200 ppm, 0.72 s an hour. Quartz in
 * phones is good to 20–100 ppm, and NTP on either side slews a few hundred ms a day on top. What was learned
 * of an offset widens by this much as it ages, so a clock that drifts is followed, not taken for a stale one.
 */
export const CLOCK_DRIFT = 200e-6;

/** The span of a phone's clock, in ms since the epoch, that a `time` stands for: one ms, or a whole second. */
export function phoneTimeSpan(time: number): { from: number; to: number } {
  return time < SECONDS_BELOW ? { from: time * 1000, to: time * 1000 + 999 } : { from: time, to: time };
}

/** What is known of one phone's clock: its offset from this machine's, `phone − machine`, in ms. */
export interface ClockOffset {
  /** The offset is at least this. */
  lo: number;
  /** The offset is at most this. */
  hi: number;
  /** Reads whose arrivals agree on it; two or more make it trusted. */
  polls: number;
}

interface Estimate extends ClockOffset {
  /** This machine's time at which `lo` and `hi` held (the end of the read that last narrowed them). */
  at: number;
  lastPoll: number;
  latePolls: number;
  lastLatePoll: number;
}

/**
 * Each phone's clock, learned from the messages a feed saw arrive between two of its reads. Phones stamp
 * `time` with their own clocks (the interface: "time at which the device received the message"), minutes
 * away from this machine's in a real lab, in ms or in s; so no verdict compares `time` with this machine's
 * clock directly.
 *
 * A message absent from a read that started at `s` and present in one that ended at `e` reached the list
 * between the two, so `time − e ≤ offset ≤ time − s` (with a second's width when `time` is in seconds). The
 * intervals of several arrivals intersect to the offset. An arrival stamped before the earlier read began
 * (a phone that delivers a backlog after reconnecting, a message posted with an old `time`) says nothing of
 * the clock and is left out; one stamped after the later read ended means the clock moved, and learning
 * starts again. An offset is trusted once arrivals of two different reads agree on it. What was learned
 * ages: the interval widens by {@link CLOCK_DRIFT} of the time since, so a drifting clock stays followed.
 */
export class PhoneClocks {
  #phones = new Map<DeviceId, Estimate>();

  /**
   * Learns from a message first listed by read number `poll`.
   * @param previousStart when the read before it started (this machine's clock, ms since the epoch)
   * @param end when read `poll` ended
   */
  learn(m: Notification, previousStart: number, end: number, poll: number): void {
    const { from, to } = phoneTimeSpan(m.time);
    const lo = from - end;
    const hi = to - previousStart;
    const known = this.#phones.get(m.id);
    if (!known) return void this.#phones.set(m.id, fresh(lo, hi, poll, end));
    const e = aged(known, end);
    this.#phones.set(m.id, e);
    if (hi < e.lo) {
      // Late: stamped before the read that missed it began. Several reads of such arrivals in a row are not a
      // backlog but a clock set back.
      if (poll !== e.lastLatePoll) [e.latePolls, e.lastLatePoll] = [e.latePolls + 1, poll];
      if (e.latePolls >= LATE_POLLS_TO_RELEARN) this.#phones.set(m.id, fresh(lo, hi, poll, end));
      return;
    }
    if (lo > e.hi) return void this.#phones.set(m.id, fresh(lo, hi, poll, end));
    e.lo = Math.max(e.lo, lo);
    e.hi = Math.min(e.hi, hi);
    e.at = end;
    e.latePolls = 0;
    if (poll !== e.lastPoll) [e.polls, e.lastPoll] = [e.polls + 1, poll];
  }

  /**
   * The offset of a phone's clock, once trusted; undefined before.
   * @param at this machine's time it is wanted for: the interval widens with the time since it was learned
   */
  offset(device: DeviceId, at?: number): ClockOffset | undefined {
    const e = this.#phones.get(device);
    if (!e || e.polls < 2) return undefined;
    const { lo, hi, polls } = at === undefined ? e : aged(e, at);
    return { lo, hi, polls };
  }

  /**
   * True when the phone certainly stamped `m` after `moment` (this machine's clock, ms since the epoch): its
   * time is past the moment even under the largest offset the phone's clock may have. False while the
   * offset is not known: then nothing is certain.
   */
  stampedAfter(m: Notification, moment: number): boolean {
    const offset = this.offset(m.id, moment);
    return offset !== undefined && phoneTimeSpan(m.time).from > moment + offset.hi;
  }

  /** The phone's clock for messages: `+5 min 0.2 s ahead of this machine (±40 ms)`, or that it is not known yet. */
  describe(device: DeviceId): string {
    const o = this.offset(device);
    if (!o) return 'its clock is not known yet (no message seen arriving between two reads of two polls)';
    const mid = (o.lo + o.hi) / 2;
    const side = mid >= 0 ? 'ahead of' : 'behind';
    return `its clock is ${formatSpan(Math.abs(mid))} ${side} this machine's (±${Math.ceil((o.hi - o.lo) / 2)} ms)`;
  }
}

function fresh(lo: number, hi: number, poll: number, at: number): Estimate {
  return { lo, hi, at, polls: 1, lastPoll: poll, latePolls: 0, lastLatePoll: -1 };
}

/** The estimate as it stands at `at`: widened both ways by the drift the time since it was learned allows. */
function aged(e: Estimate, at: number): Estimate {
  const widen = at > e.at ? (at - e.at) * CLOCK_DRIFT : 0;
  return widen ? { ...e, lo: e.lo - widen, hi: e.hi + widen, at } : e;
}

function formatSpan(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  // Tenths of a second first, so 299,975 ms reads "5 min 0.0 s", not "4 min 60.0 s".
  const tenths = Math.round(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = ((tenths % 600) / 10).toFixed(1);
  return minutes ? `${minutes} min ${seconds} s` : `${seconds} s`;
}
