import { DeviceClient, type CallEvent } from '../client/index.js';
import { loadConfigFile } from '../config/load.js';
import { resolveConnection, type Connection } from '../config/resolve.js';
import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { startSimulator } from '../simulator/index.js';
import type { GlobalOptions } from './options.js';
import type { Output } from './output.js';

/** What a command gets: a logged-in client for the resolved server, and where to write. */
export interface CommandContext {
  client: DeviceClient;
  connection: Connection;
  output: Output;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/**
 * Resolves the server (flag, environment, config file), starts the embedded simulator when none is
 * configured, runs `fn` with a client, and closes everything after, whatever happens.
 * @param args the parsed global options
 * @param output where the command writes
 * @param fn the command's work
 */
export async function withClient<T>(args: GlobalOptions, output: Output, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const flags = { url: args.url, user: args.user, password: args.password, apiRoot: args.apiRoot, server: args.server };
  const connection = resolveConnection(flags, process.env, loadConfigFile(process.cwd(), process.env));
  output.addSecrets(connection.password);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const simulator = connection.url === undefined
    ? await startSimulator({ port: 0, user: connection.user, password: connection.password, apiRoot: connection.apiRoot })
    : undefined;
  const client = new DeviceClient({
    url: connection.url ?? simulator!.url,
    user: connection.user,
    password: connection.password,
    apiRoot: connection.apiRoot,
    onCall: args.verbose ? (e: CallEvent) => output.note(describeCall(e)) : undefined,
  });
  try {
    return await fn({ client, connection, output, signal: controller.signal });
  } finally {
    output.addSecrets(...client.secrets());
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await client.close();
    await simulator?.close();
  }
}

/** Reads a device argument: an id, or `main` for the server's main device. */
export async function resolveDevice(value: string, ctx: CommandContext): Promise<DeviceId> {
  return value === 'main' ? ctx.client.mainDevice({ signal: ctx.signal }) : parseDeviceId(value);
}

function describeCall(e: CallEvent): string {
  const outcome = e.error ? `failed: ${e.error}` : `HTTP ${e.status}`;
  return `${e.request} → ${outcome} in ${e.ms} ms${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
}
