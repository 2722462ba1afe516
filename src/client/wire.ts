import { parseDeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import { MAX_NOTIFICATION_COUNT, type NotificationQuery } from '../core/notifications.js';

/** Coordinates beyond this are refused before any call: no phone screen is that large. */
const MAX_COORDINATE = 100_000;

/**
 * The query of a notifications read: `count` always sent, one filter value as a plain string and several
 * as the interface's bracketed list of quoted strings.
 */
export function notificationParams(query: NotificationQuery): string {
  const { position, count } = query;
  if (!Number.isInteger(position) || position < 1) throw new UsageError(`invalid position ${String(position)}: expected an integer ≥ 1 (the interface's minimum)`);
  if (!Number.isInteger(count) || count < 1 || count > MAX_NOTIFICATION_COUNT) {
    throw new UsageError(`invalid count ${String(count)}: expected an integer from 1 to ${MAX_NOTIFICATION_COUNT}`);
  }
  let out = `&position=${position}&count=${count}`;
  for (const key of ['device', 'app', 'match'] as const) {
    const list = query[key];
    if (list === undefined || list.length === 0) continue;
    if (key === 'device') list.forEach((d) => parseDeviceId(d));
    out += `&${key}=${encodeURIComponent(list.length === 1 ? list[0]! : JSON.stringify(list))}`;
  }
  return out;
}

/** Checks a server's base URL given by a user: http or https, no credentials in it. */
export function checkUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`invalid server URL ${JSON.stringify(url.slice(0, 100))}`, { hint: 'http://<server ip>:8090' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`invalid server URL: ${u.protocol} is not http: or https:`);
  if (u.username || u.password) throw new UsageError('invalid server URL: credentials do not belong in it', { hint: 'use --user and --password' });
  return url;
}

/** Checks a pixel coordinate given by a user. */
export function checkCoordinate(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_COORDINATE) {
    throw new UsageError(`invalid ${name} coordinate ${String(value)}: expected a whole number from 0 to ${MAX_COORDINATE}`);
  }
}
