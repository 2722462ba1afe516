import path from 'node:path';
import { DeviceClient, type CallEvent } from '../client/index.js';
import { loadConfigFile } from '../config/load.js';
import { resolveConnection, type Connection } from '../config/resolve.js';
import type { DeviceId } from '../core/device-id.js';
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
  const file = loadConfigFile(process.cwd(), process.env);
  const connection = resolveConnection(flags, process.env, file);
  output.addSecrets(connection.password);
  const simulator = connection.url === undefined
    ? await startSimulator({
        port: 0,
        user: connection.user,
        password: connection.password,
        apiRoot: connection.apiRoot,
        // A scenario path in the config file is relative to the file.
        ...(file?.simulator.scenario ? { scenario: path.resolve(file.dir, file.simulator.scenario) } : {}),
      })
    : undefined;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let client: DeviceClient | undefined;
  try {
    if (args.verbose) output.note(describeConnection(connection, simulator?.url));
    client = new DeviceClient({
      url: connection.url ?? simulator!.url,
      user: connection.user,
      password: connection.password,
      apiRoot: connection.apiRoot,
      onCall: args.verbose ? (e: CallEvent) => output.note(describeCall(e)) : undefined,
    });
    return await fn({ client, connection, output, signal: controller.signal });
  } finally {
    // The token is registered last: `login --show-token` has printed it by now, and nothing else may.
    if (client) output.addSecrets(...client.secrets());
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await client?.close();
    // A simulator left open would keep the process alive.
    await simulator?.close();
  }
}

/** Resolves a device argument read by `deviceArg`: `main` asks the server for its main device. */
export async function resolveDevice(value: DeviceId | 'main', ctx: CommandContext): Promise<DeviceId> {
  return value === 'main' ? ctx.client.mainDevice({ signal: ctx.signal }) : value;
}

function describeConnection(c: Connection, simulatorUrl: string | undefined): string {
  const where = simulatorUrl ? `the embedded simulator at ${simulatorUrl}` : `${c.url} (${c.name === 'env' ? 'from --url or PHONEWRIGHT_URL' : `server "${c.name}"`})`;
  return `server: ${where}, user ${c.user}, API root ${c.apiRoot}`;
}

function describeCall(e: CallEvent): string {
  const outcome = e.error ? `failed: ${e.error}` : `HTTP ${e.status}`;
  return `${e.request} → ${outcome} in ${e.ms} ms${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
}
