import { UsageError } from './errors.js';
import type { Notification } from './notifications.js';
import { phoneTimeSpan } from './phone-clock.js';

/** Units of a span back from now, in ms. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, sec: 1_000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
/** `10m`, `90 s`, `1.5h`, `2 d ago`. */
const SPAN = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h|d)(?:\s+ago)?$/i;
/** An ISO 8601 date and time: `2026-12-02T13:05:00Z`, `2026-12-02 14:05:00.250+01:00`; the zone is checked apart. */
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
/** The forms, for messages. */
const FORMS = 'an ISO time with its zone (2026-12-02T13:05:00Z), ms since the epoch as a message\'s time gives it (1796216700000), or a span back from now (30s, 10m, 2h, 1d)';

/**
 * The moment a `since` names, in ms since the epoch: an ISO 8601 time with its zone, a `time` as the notification
 * list gives it (ms since the epoch, or seconds where a phone stamps seconds: told apart by size, as
 * {@link phoneTimeSpan} does), as a number or its digits, or a span back from `now` (`30s`, `10m`, `2h`, `1d`, `ago`
 * allowed).
 * @param value what the user gave
 * @param now this machine's clock, ms since the epoch: where a span is counted back from
 * @throws UsageError saying which forms there are
 */
export function parseSince(value: string | number, now: number): number {
  if (typeof value === 'number') return fromTime(value, String(value));
  const raw = value.trim();
  if (/^\d+$/.test(raw)) return fromTime(Number(raw), raw);
  const span = SPAN.exec(raw);
  if (span) return now - Number(span[1]) * UNIT_MS[span[2]!.toLowerCase()]!;
  const iso = ISO.exec(raw);
  if (iso) {
    if (iso[1] === undefined) throw new UsageError(`${quote(raw)} has no time zone, so it names no one moment`, { hint: `add Z for UTC or the offset (${raw}Z, ${raw}+01:00)` });
    const ms = Date.parse(raw.replace(' ', 'T'));
    if (Number.isFinite(ms) && realDay(raw)) return ms;
  }
  throw new UsageError(`${quote(raw)} is not a moment`, { hint: FORMS });
}

/**
 * True when a message may have been stamped at `since` or after it, by its phone's own clock (a `time` in
 * seconds stands for the whole second).
 * @param since ms since the epoch
 */
export function stampedSince(n: Notification, since: number): boolean {
  return phoneTimeSpan(n.time).to >= since;
}

function fromTime(n: number, raw: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${quote(raw)} is not a moment`, { hint: FORMS });
  return phoneTimeSpan(n).from;
}

/** False for a day the calendar lacks (2026-02-30), which Date.parse would roll into the next month. */
function realDay(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function quote(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}
