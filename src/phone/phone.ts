import type { CallOptions, DeviceClient, DeviceInfo, Pixel, RetryEvent } from '../client/index.js';
import { classify } from '../client/index.js';
import type { DeviceId } from '../core/device-id.js';
import { matchesNotification, type Notification, type NotificationFilter } from '../core/notifications.js';
import type { DisplaySettings } from '../core/settings.js';
import type { Image } from '../image/png.js';
import type { PartialRegion, Rect } from '../image/region.js';
import { LabVerdict } from './lab-verdict.js';
import { readAll } from './pager.js';

/** How a read runs around its body: the fixtures make it a report step; elsewhere it just runs. */
export type Around = <T>(title: string, body: () => Promise<T>) => Promise<T>;

/** Options of one read: the deadline that reaches the wire, and a signal that stops it sooner (Ctrl-C). */
export type PhoneReadOptions = Pick<CallOptions, 'deadline' | 'signal'>;

/** Which messages a notification read returns: 1-based position and count among this phone's matches. */
export interface NotificationRead {
  position: number;
  count: number;
  filter: NotificationFilter;
}

/**
 * One phone of one server, as everything above the client reads it: every read goes through {@link read},
 * which gives it its deadline, its title (the report step the fixtures make of it) and the lab's bookkeeping
 * (which failures the lab caused, and a phone that dropped off while a read waited for it). The reads beyond
 * one call (a capture, a sample, the neighbourhood) load the PNG codec when first used.
 */
export class Phone {
  readonly client: DeviceClient;
  readonly id: DeviceId;
  /** What this phone's reads met that the lab caused, for the infra-failure verdict. */
  readonly lab = new LabVerdict();
  #around: Around;

  /**
   * @param around runs each read under its title: the fixtures' report step; by default the read alone
   */
  constructor(client: DeviceClient, id: DeviceId, around: Around = (_title, body) => body()) {
    this.client = client;
    this.id = id;
    this.#around = around;
  }

  /**
   * Runs one read of this phone: under its title, within its deadline, its failures noted for the lab's verdict
   * and the moments the phone was away while the client waited for it.
   * @param title what is read, e.g. `pixel device@1 (10, 20)`
   */
  read<T>(title: string, options: PhoneReadOptions, body: (o: CallOptions) => Promise<T>): Promise<T> {
    let away: unknown;
    const onRetry = (e: RetryEvent) => {
      if (away === undefined && classify(e.error) === 'phone-gone') this.lab.away((away = e.error));
    };
    return this.#around(title, async () => {
      try {
        return await body({ deadline: options.deadline, signal: options.signal, onRetry });
      } catch (error) {
        this.lab.note(error);
        throw error;
      } finally {
        // Back, or failed for good (then the error itself is remembered): the moment away is forgotten.
        if (away !== undefined) this.lab.back(away);
      }
    });
  }

  /** One pixel, in pixels. */
  pixel(x: number, y: number, options: PhoneReadOptions = {}, title = `pixel ${this.id} (${x}, ${y})`): Promise<Pixel> {
    return this.read(title, options, (o) => this.client.pixel(this.id, x, y, o));
  }

  /** The phone's properties (the vendor's route): model, maker, screen size, Android release. */
  info(options: PhoneReadOptions = {}): Promise<DeviceInfo> {
    return this.read(`device info ${this.id}`, options, (o) => this.client.deviceInfo(this.id, o));
  }

  /** The display settings. */
  settings(options: PhoneReadOptions = {}): Promise<DisplaySettings> {
    return this.read(`settings ${this.id}`, options, (o) => this.client.settings(this.id, o));
  }

  /** The messages held for this phone that match the filter, read through every page of the list. */
  notifications(q: NotificationRead, options: PhoneReadOptions = {}): Promise<Notification[]> {
    return this.read(`notifications ${this.id} position=${q.position} count=${q.count}`, options, async (o) => {
      const mine = (await readAll(this.client, o)).filter((n) => n.id === this.id && matchesNotification(n, q.filter));
      return mine.slice(q.position - 1, q.position - 1 + q.count);
    });
  }

  /** A rectangle as PNG bytes, in one request (the vendor's screen capture). */
  screenshot(rect: Rect, options: PhoneReadOptions = {}, title = `screenshot ${this.id} ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`): Promise<Buffer> {
    return this.read(title, options, async (o) => (await import('./screen.js')).captureScreenshot(this.client, this.id, rect, o));
  }

  /** A rectangle by one capture where the server offers it, else sampled pixel by pixel. */
  region(rect: Rect, options: PhoneReadOptions & { resume?: PartialRegion } = {}): Promise<Image> {
    const title = `read region ${this.id} ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`;
    return this.read(title, options, async (o) => (await import('./screen.js')).readRegion(this.client, this.id, rect, { ...o, resume: options.resume }));
  }

  /** A rectangle sampled pixel by pixel, on any server. */
  sample(rect: Rect, options: PhoneReadOptions & { resume?: PartialRegion } = {}): Promise<Image> {
    const title = `sample region ${this.id} ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`;
    return this.read(title, options, async (o) => (await import('./screen.js')).sampleRegion(this.client, this.id, rect, { ...o, resume: options.resume }));
  }
}
