import { isDeviceId, parseDeviceId, type DeviceId } from './device-id.js';
import { UsageError } from './errors.js';

/** A notification-bar message collected from a phone. */
export interface Notification {
  /** Package name of the app that posted it. */
  app: string;
  text: string;
  /** When the phone received it, in milliseconds since the epoch. */
  time: number;
  /** The phone it came from. */
  id: DeviceId;
}

/** Which messages a user is after. Text is matched on the client: a substring, or a RegExp. */
export interface NotificationFilter {
  device?: string | readonly string[];
  app?: string | readonly string[];
  text?: string | RegExp;
}

/** A read of the server's list, as it goes on the wire (`count` is always sent). */
export interface NotificationQuery {
  /** 1-based start position. */
  position: number;
  count: number;
  device?: readonly DeviceId[];
  app?: readonly string[];
  match?: readonly string[];
}

/** Largest `count` phonewright asks for in one read; the simulator holds 1,000 per phone by default. */
export const MAX_NOTIFICATION_COUNT = 10_000;

/** True when a message passes every part of the filter. */
export function matchesNotification(n: Notification, filter: NotificationFilter): boolean {
  if (filter.device !== undefined && !toList(filter.device).includes(n.id)) return false;
  if (filter.app !== undefined && !toList(filter.app).includes(n.app)) return false;
  if (filter.text !== undefined) {
    if (typeof filter.text === 'string') return n.text.includes(filter.text);
    filter.text.lastIndex = 0; // a /g or /y RegExp keeps state between calls
    return filter.text.test(n.text);
  }
  return true;
}

/**
 * What the messages seen that came close to a filter missed by: the text (the phone and app were right), or
 * the app (the phone and text were right). Undefined when none came close.
 * @param seen the messages seen while waiting
 */
export function nearMiss(seen: readonly Notification[], filter: NotificationFilter): string | undefined {
  const missed = (part: 'text' | 'app') => seen.filter((n) => matchesNotification(n, { ...filter, [part]: undefined }) && !matchesNotification(n, filter));
  const quote = (n: Notification) => `${n.app} ${JSON.stringify(n.text)}`;
  if (filter.text !== undefined) {
    const texts = missed('text');
    if (texts.length) return `Seen, but the text did not match ${describeFilter({ text: filter.text }).slice(5)}: ${texts.slice(-3).map(quote).join('; ')}${texts.length > 3 ? ` (and ${texts.length - 3} more)` : ''}.`;
  }
  if (filter.app !== undefined) {
    const apps = missed('app');
    if (apps.length) return `Seen, but from another app than ${toList(filter.app).join(' or ')}: ${apps.slice(-3).map(quote).join('; ')}${apps.length > 3 ? ` (and ${apps.length - 3} more)` : ''}.`;
  }
  return undefined;
}

/** Checks a filter given by a user; returns it with device ids validated. */
export function parseNotificationFilter(filter: NotificationFilter = {}): NotificationFilter {
  if (!filter || typeof filter !== 'object') throw new UsageError('a notification filter must be an object: { device?, app?, text? }');
  for (const key of Object.keys(filter)) {
    if (!['device', 'app', 'text'].includes(key)) {
      throw new UsageError(`unknown notification filter key "${key}"`, { hint: 'device, app or text' });
    }
  }
  const out: NotificationFilter = {};
  if (filter.device !== undefined) out.device = toList(filter.device).map((d) => parseDeviceId(d));
  if (filter.app !== undefined) {
    const apps = toList(filter.app);
    if (apps.some((a) => typeof a !== 'string' || a === '')) throw new UsageError('notification filter app must be package names');
    out.app = apps;
  }
  if (filter.text !== undefined) {
    if (typeof filter.text !== 'string' && !(filter.text instanceof RegExp)) {
      throw new UsageError('notification filter text must be a string (substring) or a RegExp');
    }
    out.text = filter.text;
  }
  return out;
}

/** Describes a filter for messages: `app=com.example.chat text=/code (\d{6})/`. */
export function describeFilter(filter: NotificationFilter): string {
  const parts: string[] = [];
  if (filter.device !== undefined) parts.push(`device=${toList(filter.device).join(',')}`);
  if (filter.app !== undefined) parts.push(`app=${toList(filter.app).join(',')}`);
  if (filter.text !== undefined) parts.push(`text=${typeof filter.text === 'string' ? JSON.stringify(filter.text) : String(filter.text)}`);
  return parts.length ? parts.join(' ') : 'any message';
}

/**
 * Decodes one element of a notifications answer. Throws a plain `Error` naming the bad field.
 * @param value one element of the `value` array
 */
export function decodeNotification(value: unknown): Notification {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('a notification is not an object');
  const v = value as Record<string, unknown>;
  if (typeof v.app !== 'string') throw new Error('notification field app is not a string');
  if (typeof v.text !== 'string') throw new Error('notification field text is not a string');
  if (typeof v.time !== 'number' || !Number.isFinite(v.time)) throw new Error('notification field time is not a number');
  if (!isDeviceId(v.id)) throw new Error('notification field id is not a device id');
  return { app: v.app, text: v.text, time: v.time, id: v.id };
}

/** A key under which equal messages compare equal (the interface gives messages no id of their own). */
export function notificationKey(n: Notification): string {
  return `${n.id}\u0000${n.time}\u0000${n.app}\u0000${n.text}`;
}

function toList<T extends string>(value: T | readonly T[]): readonly T[] {
  return typeof value === 'string' ? [value] : value;
}
