import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { DeviceClient, type CallEvent } from '../client/index.js';
import { loadConfigFile } from '../config/load.js';
import { resolveConnection, type Connection } from '../config/resolve.js';
import type { DeviceId } from '../core/device-id.js';
import { AbortedError } from '../core/errors.js';
import { startSimulator } from '../simulator/index.js';
import { embeddedSimulatorSettings } from '../config/simulator.js';
import type { GlobalOptions } from './options.js';
import type { Output } from './output.js';
import { timeoutArg, withTimeoutAdvice } from './timeout.js';

/**
 * The world a CLI run lives in. `main` takes the process's own unless told otherwise: tests run the CLI
 * in-process with an environment, a working folder and a stop signal of their own. `test`, `nightly` and
 * `merge` hand the process's environment and folder to Playwright, which runs as a child: they ignore these.
 */
export interface Host {
  /** Where PHONEWRIGHT_* and the variable a server's `passwordEnv` names are read. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where phonewright.config.json is looked for, and where relative paths start. */
  cwd: string;
  /** The terminal's width, for wrapping help; undefined when stdout is not a terminal. */
  columns: number | undefined;
  /** Stops a running command as Ctrl-C does; without it, SIGINT and SIGTERM do, while a command runs. */
  signal?: AbortSignal;
  /**
   * Asks the person at the terminal one question and resolves with the answer, trimmed; undefined when nobody
   * is there to answer (stdin is not a terminal): a command that would ask takes its defaults instead.
   */
  ask?: (question: string) => Promise<string>;
}

/** The host of a real process: its environment, its working folder, its terminal, its signals. */
export function processHost(): Host {
  return { env: process.env, cwd: process.cwd(), columns: process.stdout.columns, ...(process.stdin.isTTY ? { ask: askOnTerminal } : {}) };
}

/** What a command gets: a logged-in client for the resolved server, and where to write. */
export interface CommandContext {
  client: DeviceClient;
  connection: Connection;
  output: Output;
  /** Aborted on SIGINT/SIGTERM, or by the host's signal. */
  signal: AbortSignal;
  /** The budget of each call, in ms: `--timeout`, or the default. */
  timeoutMs: number;
  /** The embedded simulator's phones, when the command runs on one (its scenario names them). */
  simulatorPhones: readonly { id: DeviceId; name: string }[] | undefined;
}

/**
 * Resolves the server (flag, environment, config file), starts the embedded simulator when none is
 * configured, runs `fn` with a client, and closes everything after, whatever happens. Each call of the
 * client has the budget `--timeout` gives (commands without the option: the default), and a call that runs
 * out of it says how to give it longer.
 * @param args the parsed global options, and `--timeout` where the command has it
 * @param output where the command writes
 * @param host the environment and working folder to read the configuration from, and what stops the command
 * @param fn the command's work
 */
export async function withClient<T>(args: GlobalOptions & { timeout?: unknown }, output: Output, host: Host, fn: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const timeoutMs = timeoutArg(args.timeout);
  const flags = { url: args.url, user: args.user, password: args.password, apiRoot: args.apiRoot, server: args.server };
  const file = loadConfigFile(host.cwd, host.env);
  const connection = resolveConnection(flags, host.env, file);
  output.addSecrets(connection.password);
  const simulator = connection.url === undefined
    ? await startSimulator({
        port: 0,
        user: connection.user,
        password: connection.password,
        apiRoot: connection.apiRoot,
        ...embeddedSimulatorSettings(file),
      })
    : undefined;
  const stop = stopSignal(host.signal);
  let client: DeviceClient | undefined;
  try {
    if (args.verbose) output.note(describeConnection(connection, simulator?.url));
    client = new DeviceClient({
      url: connection.url ?? simulator!.url,
      user: connection.user,
      password: connection.password,
      apiRoot: connection.apiRoot,
      // With the stop signal every command passes, each call's budget becomes its deadline on the wire.
      totalTimeout: timeoutMs,
      onCall: args.verbose ? (e: CallEvent) => output.note(describeCall(e)) : undefined,
      sources: connection.sources,
    });
    return await fn({ client, connection, output, signal: stop.signal, timeoutMs, simulatorPhones: simulator?.phones });
  } catch (error) {
    throw withTimeoutAdvice(error, timeoutMs);
  } finally {
    // The token is registered last: `login --show-token` has printed it by now, and nothing else may.
    if (client) output.addSecrets(...client.secrets());
    stop.dispose();
    await client?.close();
    // A simulator left open would keep the process alive.
    await simulator?.close();
  }
}

/**
 * What stops a running command: the host's signal when it has one, else the first SIGINT or SIGTERM, caught
 * only until `dispose` (outside a command, Ctrl-C keeps its default, ending the process).
 * @param signal the host's stop signal
 */
export function stopSignal(signal?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  if (signal) return { signal, dispose: () => undefined };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/**
 * A path the user typed, naming the same file from this process: relative to the host's working folder.
 * Left as typed when that folder is the process's own, so that messages name the file as the user wrote it.
 * @param host whose working folder relative paths start from
 * @param file the path as typed
 */
export function hostPath(host: Host, file: string): string {
  return path.isAbsolute(file) || path.resolve(host.cwd) === process.cwd() ? file : path.resolve(host.cwd, file);
}

/**
 * One question on the terminal, asked on stderr so that stdout keeps only what the command prints. Ctrl-C (or
 * Ctrl-D) at the question stops the command, exit 130, rather than leaving it waiting on a closed input.
 */
async function askOnTerminal(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  terminal.once('SIGINT', stop).once('close', stop);
  try {
    return (await terminal.question(question, { signal: stopped.signal })).trim();
  } catch (error) {
    if (stopped.signal.aborted) throw new AbortedError(`stopped at the question "${question.trim()}"`);
    throw error;
  } finally {
    terminal.off('close', stop);
    terminal.close();
  }
}

function describeConnection(c: Connection, simulatorUrl: string | undefined): string {
  const where = simulatorUrl ? `the embedded simulator at ${simulatorUrl}` : `${c.url} (from ${c.sources.url})`;
  return `server: ${where}, user ${c.user}, API root ${c.apiRoot}`;
}

function describeCall(e: CallEvent): string {
  const outcome = e.error ? `failed: ${e.error}` : `HTTP ${e.status}`;
  return `${e.request} → ${outcome} in ${e.ms} ms${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
}
