import { createClient } from '@redis/client';
import type { LeaseSettings } from '../config/leases.js';
import { UnreachableError } from '../core/errors.js';

/** How long connecting to Redis may take before the phone fails. */
const CONNECT_MS = 5_000;
/** One command's deadline, unless the caller's is sooner: Redis answers in a millisecond when it answers. */
export const COMMAND_MS = 2_000;
/** Pauses between reconnection attempts while Redis is away: renewals need it back within the lease's expiry. */
const RECONNECT_MS = [50, 100, 200, 400];

/** The one client shape used here: no modules, scripts or functions, the default protocol. */
type Client = ReturnType<typeof newClient>;

/**
 * One connection to the Redis server that keeps the leases, with a deadline on everything: connecting, and
 * each command. Commands fail at once while the connection is down (no offline queue), so a renewal is never
 * held back past the lease's expiry; the client reconnects in the background meanwhile.
 */
export class LeaseStore {
  /** The URL without credentials, for messages. */
  readonly shown: string;
  #client: Client;

  private constructor(client: Client, shown: string) {
    this.#client = client;
    this.shown = shown;
  }

  /**
   * Connects to the Redis server of the settings.
   * @throws UnreachableError naming the URL (never its password) when it does not answer within 5 s
   */
  static async connect(settings: Pick<LeaseSettings, 'url' | 'shown'>): Promise<LeaseStore> {
    const client = newClient(settings.url);
    let last: unknown;
    // Errors surface in the commands that meet them; the event only keeps the last one for messages.
    client.on('error', (error: unknown) => (last = error));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no connection within ${CONNECT_MS} ms`)), CONNECT_MS);
    });
    try {
      await Promise.race([client.connect(), timedOut]);
    } catch (error) {
      client.destroy();
      throw new UnreachableError(`the lease store ${settings.shown} cannot be reached: ${reason(last ?? error)}`, {
        hint: 'check that Redis runs there and this machine reaches it (PHONEWRIGHT_LEASES or "leases" in phonewright.config.json)',
        cause: last ?? error,
      });
    } finally {
      clearTimeout(timer);
    }
    return new LeaseStore(client, settings.shown);
  }

  /**
   * Sends one command with its deadline.
   * @param args the command and its arguments, e.g. `['GET', key]`
   * @param timeoutMs its deadline
   * @default timeoutMs COMMAND_MS
   * @throws UnreachableError when Redis does not answer in time, or the connection is down
   */
  async command<T>(args: string[], timeoutMs = COMMAND_MS): Promise<T> {
    const ms = Math.max(1, Math.round(timeoutMs));
    let timer: NodeJS.Timeout | undefined;
    try {
      // The client's own timeout covers a command only until it is written: a link gone quiet after that would
      // hold it for ever, and a renewal with it. The deadline covers the answer too.
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
      return await Promise.race([this.#client.sendCommand<T>(args, { timeout: ms }), late]);
    } catch (error) {
      throw new UnreachableError(`the lease store ${this.shown} did not answer ${args[0]}: ${reason(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection; what is still queued fails. */
  close(): void {
    this.#client.destroy();
  }
}

function newClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: CONNECT_MS, reconnectStrategy: (retries: number) => RECONNECT_MS[Math.min(retries, RECONNECT_MS.length - 1)]! },
  });
}

/** An error's own words, on one line. */
function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return (e?.code && !e.message?.includes(e.code) ? `${e.code} ` : '') + (e?.message ?? String(error)).split('\n')[0]!;
}
