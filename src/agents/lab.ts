// The lab as the tools see it: the phones of the configured server (or of the embedded simulator), one phone-layer
// `Phone` each, and the leases that keep an agent off a phone another run holds.
import path from 'node:path';
import type { CallOptions, DeviceClient } from '../client/index.js';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import { listPhones, type InspectedPhone } from '../inspector/phones.js';
import type { ServerFacts } from '../inspector/naming.js';
import { Phone } from '../phone/index.js';
import { Leases } from './leases.js';
import type { LeaseSettings } from '../config/leases.js';

/** What the command hands the lab. */
export interface LabOptions {
  client: DeviceClient;
  /** Phones known by name: the embedded simulator's scenario, or the config file's (`main` for the main device). */
  named: readonly { id: DeviceId | 'main'; name: string }[];
  /** True on the embedded simulator, which is nobody else's and is never leased. */
  embedded: boolean;
  /** The server's place in a run of the matrix, for the phones' project names. */
  server: Omit<ServerFacts, 'mainDevice' | 'embedded'>;
  /** Where leases are kept, when the configuration names a store. */
  leases: LeaseSettings | undefined;
  /** The working folder: specs/ is under it, image paths start there. */
  cwd: string;
  /** ms: a read's or an act's default deadline, and a locator's wait. */
  timeoutMs: number;
  /** The environment (PHONEWRIGHT_*, the variable a server's passwordEnv names), for the runs of specs. */
  env: Readonly<Record<string, string | undefined>>;
  /** The connection flags the command was given, handed to a run of specs as the environment. */
  connectionArgs: { url?: string | undefined; user?: string | undefined; password?: string | undefined; apiRoot?: string | undefined; server?: string | undefined };
  /** Scrubs the server's password and token from a text. */
  clean: (text: string) => string;
  /** A line on stderr. */
  log: (line: string) => void;
}

/** The phones of one server as the tools name them, each a `Phone` kept for the server's life. */
export class Lab {
  readonly options: LabOptions;
  readonly leases: Leases;
  /** The JSON report of this server's last run of specs, which accept takes its failures from. */
  lastResults: string | undefined;
  #listed: Promise<{ phones: InspectedPhone[]; main: DeviceId }> | undefined;
  #phones = new Map<DeviceId, Phone>();

  constructor(options: LabOptions) {
    this.options = options;
    this.leases = new Leases(options.leases, options.embedded ? undefined : options.client.url);
  }

  get client(): DeviceClient {
    return this.options.client;
  }

  /**
   * Every phone: the simulator's or the server's list, the config file's, with model and screen where known. Read
   * once and kept (a tool names its phone without a read of the server); `fresh` reads them again.
   */
  async list(call: CallOptions = {}, fresh = false): Promise<InspectedPhone[]> {
    if (fresh) this.#listed = undefined;
    return (await this.#roster(call)).phones;
  }

  /** The server's main device, as read with the list. */
  async mainDevice(call: CallOptions = {}): Promise<DeviceId> {
    return (await this.#roster(call)).main;
  }

  /**
   * The phone a tool's `phone` argument names: an id or a name as `phones` lists them, the main device when left out.
   * @throws UsageError naming the argument and the phones there are
   */
  async phone(ref: string | undefined, call: CallOptions = {}): Promise<{ phone: Phone; facts: InspectedPhone }> {
    const { phones: listed, main } = await this.#roster(call);
    const facts = ref === undefined || ref === 'main' ? listed.find((p) => p.id === main) : (listed.find((p) => p.id === ref) ?? listed.find((p) => p.name === ref));
    if (!facts) {
      throw new UsageError(`invalid argument phone: no phone ${JSON.stringify(ref)} on this server`, { hint: `one of ${listed.map((p) => (p.name === p.id ? p.id : `${p.name} (${p.id})`)).join(', ')}; or leave it out for the main device` });
    }
    let phone = this.#phones.get(facts.id);
    if (!phone) {
      const { cwd, timeoutMs } = this.options;
      phone = new Phone(this.client, facts.id, { name: facts.name, screen: facts.screen, waitTimeout: () => timeoutMs, imageFile: (name) => path.resolve(cwd, name) });
      this.#phones.set(facts.id, phone);
    }
    return { phone, facts };
  }

  /** The phones and the main device, read once (a failed read is made again at the next call). */
  #roster(call: CallOptions): Promise<{ phones: InspectedPhone[]; main: DeviceId }> {
    this.#listed ??= (async () => {
      const main = await this.client.mainDevice(call);
      const phones = await listPhones({ client: this.client, selected: main, named: this.options.named, embedded: this.options.embedded, server: this.options.server, call });
      return { phones, main };
    })();
    this.#listed.catch(() => (this.#listed = undefined));
    return this.#listed;
  }

  /** Lets go of the lease store. */
  async close(): Promise<void> {
    await this.leases.close();
  }
}
