// A client of the simulator's admin API (admin.ts), for tests and specs that act as a phone lab does by hand:
// its routes and header as admin.ts defines them, each call within a deadline of its own.
import { TimeoutError } from '../core/errors.js';
import type { Notification } from '../core/notifications.js';
import type { Act } from './act-log.js';
import { ADMIN_KEY_HEADER, ADMIN_PREFIX } from './admin-routes.js';
import type { ScreenInfo } from './screen-info.js';

/** The simulator answers its admin calls at once; one that takes longer than this is gone or stuck. */
export const ADMIN_TIMEOUT_MS = 10_000;

export interface SimulatorAdminOptions {
  /**
   * Awaited before every act; the `simulator` fixture waits there for the phone's notification waiters to be
   * armed, so a message the act causes is never taken for one from before the waiter.
   */
  beforeAct?: () => Promise<void>;
  /** How long one admin call may wait for its answer, in ms. @default 10_000 */
  timeoutMs?: number;
}

/**
 * The embedded simulator's admin API, for specs that need the "act" a real phone lab performs by hand or
 * by another tool: a message posted by the app, a screen that changes, a phone unplugged.
 */
export class SimulatorAdmin {
  #url: string;
  #key: string;
  #beforeAct: () => Promise<void>;
  #timeoutMs: number;

  /**
   * @param url the simulator's base URL
   * @param key its admin key
   */
  constructor(url: string, key: string, options: SimulatorAdminOptions = {}) {
    this.#url = url.replace(/\/+$/, '');
    this.#key = key;
    this.#beforeAct = options.beforeAct ?? (async () => {});
    this.#timeoutMs = options.timeoutMs ?? ADMIN_TIMEOUT_MS;
  }

  /** Posts a notification-bar message on a phone, as if its app had. */
  async postNotification(device: string, app: string, text: string): Promise<Notification> {
    return ((await this.#send('POST', 'notifications', { device, app, text })) as { notification: Notification }).notification;
  }

  /** Paints a rectangle of a phone's screen. */
  async fillRect(device: string, rect: { x: number; y: number; width: number; height: number; color: string }): Promise<void> {
    await this.#send('POST', `phones/${device}/rect`, rect);
  }

  /** Changes display settings (wire names). */
  async setSettings(device: string, settings: Record<string, unknown>): Promise<void> {
    await this.#send('PATCH', `phones/${device}/settings`, settings);
  }

  /** Freezes a phone (its pixel and settings reads are taken and never answered), or thaws it. */
  async setFrozen(device: string, frozen: boolean): Promise<void> {
    await this.#send('POST', `phones/${device}/${frozen ? 'freeze' : 'thaw'}`);
  }

  /**
   * The acts the simulator took, oldest first (the last 1,000): taps, touches, swipes, long presses, keys, text
   * typed (drawn in the field a tap focused, if any), apps started or closed, each with the route it came
   * through (`via`: `inputs`, `texts`, `script`, `apps` or `aai`).
   * @param device only this phone's
   */
  async acts(device?: string): Promise<Act[]> {
    const { acts } = (await this.#send('GET', 'acts')) as { acts: Act[] };
    return device === undefined ? acts : acts.filter((a) => a.device === device);
  }

  /**
   * What a phone shows now: the app screen's name (null for the home screen), its UI elements as the vendor's
   * element engine finds them, and its drawn texts with the boxes their ink covers.
   */
  async screenInfo(device: string): Promise<ScreenInfo> {
    const { ok: _, ...info } = (await this.#send('GET', `phones/${device}/elements`)) as ScreenInfo & { ok: boolean };
    return info;
  }

  /** Unplugs or plugs a phone back in. */
  async setOnline(device: string, online: boolean): Promise<void> {
    await this.#send('POST', `phones/${device}/${online ? 'online' : 'offline'}`);
  }

  async #send(method: string, route: string, body?: unknown): Promise<unknown> {
    await this.#beforeAct();
    const what = `simulator admin ${method} ${route}`;
    let json: { ok: boolean; error?: string };
    try {
      // The deadline reaches the request: a simulator that took the call and went silent ends it, not the test's timeout.
      const res = await fetch(`${this.#url}${ADMIN_PREFIX}${route}`, {
        method,
        headers: { [ADMIN_KEY_HEADER]: this.#key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      json = (await res.json()) as { ok: boolean; error?: string };
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      throw new TimeoutError(`${what}: no answer within ${this.#timeoutMs} ms from ${this.#url}`, { hint: 'is the simulator still running?', cause: error });
    }
    if (!json.ok) throw new Error(`${what}: ${json.error}`);
    return json;
  }
}
