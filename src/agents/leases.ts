// An agent never acts on a phone another run holds: where the configuration names a lease store, each act takes
// the phone's lease (waiting within the call's deadline, as a run's worker waits), acts, and lets it go.
import { hostname } from 'node:os';
import type { Deadline } from '../client/index.js';
import type { LeaseSettings } from '../config/leases.js';
import type { LeaseStore } from '../lease/index.js';

/** How the agent's server shows in another run's lease messages. */
const RUN = `phonewright mcp (pid ${process.pid})`;

/** The leases of one server's phones, for the acts of `phonewright mcp`. */
export class Leases {
  readonly #settings: LeaseSettings | undefined;
  readonly #serverUrl: string | undefined;
  #store: Promise<LeaseStore> | undefined;

  /**
   * @param settings the lease store, when the configuration names one
   * @param serverUrl the phones' server; undefined for the embedded simulator, which is never leased
   */
  constructor(settings: LeaseSettings | undefined, serverUrl: string | undefined) {
    this.#settings = settings;
    this.#serverUrl = serverUrl;
  }

  /** True when acts take leases. */
  get on(): boolean {
    return this.#settings !== undefined && this.#serverUrl !== undefined;
  }

  /**
   * Runs `act` holding the phone's lease: taken first (waiting for another run's, up to the deadline, then failing
   * with a line naming who holds it), released after, whatever the act did. Without a store, the act alone.
   * @param phone the phone in messages
   */
  async holding<T>(id: string, phone: string, deadline: Deadline, act: () => Promise<T>): Promise<T> {
    if (!this.on) return act();
    const { acquireLease, leaseKey } = await import('../lease/index.js');
    const store = await this.#connect();
    const waitMs = Math.max(0, Math.min(this.#settings!.waitMs, deadline.remaining() - 100));
    const lease = await acquireLease(store, { key: leaseKey(this.#serverUrl!, id), phone, holder: { host: hostname(), run: RUN, pid: process.pid }, expiryMs: this.#settings!.expiryMs, waitMs });
    try {
      return await act();
    } finally {
      await lease.release();
    }
  }

  /** Who holds a phone now, in one line; undefined when nobody does or phones are not leased. */
  async holder(id: string): Promise<string | undefined> {
    if (!this.on) return undefined;
    const { describeHolder, leaseKey } = await import('../lease/index.js');
    const value = await (await this.#connect()).command<string | null>(['GET', leaseKey(this.#serverUrl!, id)]);
    if (value === null) return undefined;
    try {
      return describeHolder(JSON.parse(value));
    } catch {
      return 'an unknown holder';
    }
  }

  /** Closes the store's connection. */
  async close(): Promise<void> {
    const store = await this.#store?.catch(() => undefined);
    store?.close();
  }

  #connect(): Promise<LeaseStore> {
    this.#store ??= import('../lease/index.js').then(({ LeaseStore }) => LeaseStore.connect(this.#settings!));
    this.#store.catch(() => (this.#store = undefined));
    return this.#store;
  }
}
