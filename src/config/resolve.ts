import { DEFAULT_PASSWORD, DEFAULT_USER } from '../core/defaults.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { DEFAULT_API_ROOT, normalizeApiRoot } from '../core/routes.js';
import { ALL_DEVICES, parseDeviceRef, type ConfigFile, type DeviceSelection, type DeviceSpec, type ServerFileEntry } from './schema.js';

/** The environment variables phonewright reads. */
export const ENV = {
  url: 'PHONEWRIGHT_URL',
  user: 'PHONEWRIGHT_USER',
  password: 'PHONEWRIGHT_PASSWORD',
  apiRoot: 'PHONEWRIGHT_API_ROOT',
  devices: 'PHONEWRIGHT_DEVICES',
  server: 'PHONEWRIGHT_SERVER',
  config: 'PHONEWRIGHT_CONFIG',
  /** The Redis URL phones are leased in (src/config/leases.ts). */
  leases: 'PHONEWRIGHT_LEASES',
  /** Set by `test`/`nightly --shard i/n` for the matrix: the phones of this shard (src/cli/shard.ts). */
  shardPhones: 'PHONEWRIGHT_SHARD_PHONES',
} as const;

export type Env = Readonly<Record<string, string | undefined>>;

/** Settings given on the command line; each wins over the environment and the file. */
export interface ConnectionFlags {
  url?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
  apiRoot?: string | undefined;
  server?: string | undefined;
}

/** Everything needed to talk to one server. `url` undefined means the embedded simulator. */
export interface Connection {
  /** The server's name in the configuration, `env` when it comes from PHONEWRIGHT_URL, `simulator` when embedded. */
  name: string;
  url: string | undefined;
  user: string;
  password: string;
  apiRoot: string;
  /**
   * The phones to run on: those listed, or `all` the server lists; undefined: every phone of the simulator, or
   * the main device of a real server.
   */
  devices: DeviceSelection | undefined;
  /** Where the URL and the credentials came from, for the hints of messages: a flag, a variable, the file. */
  sources: ConnectionSources;
  /**
   * Set when the servers were resolved for listing (see {@link resolveServers}) and the server's `passwordEnv`
   * is unset: `password` is then empty, and whatever connects throws this instead.
   */
  passwordMissing?: ConfigError;
}

/** Where each setting of a connection came from, as a hint names it: `--url`, `PHONEWRIGHT_URL`, `LAB_A_PASSWORD (passwordEnv of server "lab-a")`… */
export interface ConnectionSources {
  url: string;
  user: string;
  password: string;
}

/**
 * Resolves the one server a CLI command talks to: flag, then environment, then `phonewright.config.json`,
 * then the defaults (the embedded simulator with the vendor's example credentials).
 */
export function resolveConnection(flags: ConnectionFlags, env: Env, file?: ConfigFile): Connection {
  const url = pick(flags.url, env[ENV.url]);
  let entry: ServerFileEntry | undefined;
  const wanted = pick(flags.server, env[ENV.server]);
  if (wanted !== undefined) {
    entry = findServer(file, wanted);
  } else if (url === undefined && file && file.servers.length > 1) {
    throw new UsageError(`${file.source} lists ${file.servers.length} servers (${file.servers.map((s) => s.name).join(', ')})`, {
      hint: 'choose one with --server NAME (or PHONEWRIGHT_SERVER), or give --url',
    });
  } else if (url === undefined) {
    entry = file?.servers[0];
  }
  return connectionFor(entry, flags, env, url);
}

/**
 * Resolves every server the device matrix runs on: PHONEWRIGHT_URL (one server), else the servers of the
 * configuration file (PHONEWRIGHT_SERVER selects by name, comma list allowed), else the embedded simulator.
 * PHONEWRIGHT_DEVICES selects phones: by id or name among configured ones, or lists them outright; `all`
 * takes every phone of every server the run has.
 * @param selectedBy what set the selection, for messages: `--devices` when the command line did
 * @param o.listing resolved to list the phones (the runner's config, `--list`, an editor's explorer): a server
 *   whose passwordEnv is unset is listed all the same, its {@link Connection.passwordMissing} set
 * @default selectedBy PHONEWRIGHT_DEVICES
 */
export function resolveServers(env: Env, file?: ConfigFile, selectedBy: string = ENV.devices, o: { listing?: boolean } = {}): Connection[] {
  const selection = parseDeviceList(env[ENV.devices], selectedBy);
  const url = pick(undefined, env[ENV.url]);
  if (url !== undefined || !file || file.servers.length === 0) {
    const conn = connectionFor(undefined, {}, env, url);
    const devices = selection === ALL_DEVICES ? ALL_DEVICES : selection?.map((s) => ({ id: s as DeviceSpec['id'] }));
    return [{ ...conn, devices: devices ?? conn.devices }];
  }
  const names = env[ENV.server]?.split(',').map((s) => s.trim()).filter(Boolean);
  const entries = names?.length ? names.map((n) => findServer(file, n)) : file.servers;
  const servers = entries.map((e) => connectionFor(e, {}, env, undefined, o.listing));
  if (!selection) return servers;
  if (selection === ALL_DEVICES) return servers.map((s) => ({ ...s, devices: ALL_DEVICES }));
  const unmatched = new Set(selection);
  const selected = servers.map((s) => {
    if (s.devices === ALL_DEVICES) {
      // A server that takes all its phones has whichever id it lists: an id (or main) is taken there as it is;
      // the names its phones have are the server's, unknown until the run lists them.
      const ids = selection.filter((want) => want === 'main' || want.startsWith('device@'));
      for (const id of ids) unmatched.delete(id);
      return { ...s, devices: ids.map((id) => ({ id: id as DeviceSpec['id'] })) };
    }
    const devices = (s.devices ?? [{ id: 'main' as const }]).filter((d) => {
      const hit = selection.find((want) => want === d.id || want === d.name);
      if (hit) unmatched.delete(hit);
      return hit !== undefined;
    });
    return { ...s, devices };
  });
  if (unmatched.size) {
    throw new ConfigError(`${selectedBy} names ${[...unmatched].join(', ')}, which no selected server in ${file.source} lists`, {
      hint: `one of ${servers.flatMap((s) => (s.devices === ALL_DEVICES ? [`any id ${s.name} lists`] : (s.devices ?? [{ id: 'main' }]).map((d) => d.name ?? d.id))).join(', ')}`,
    });
  }
  return selected.filter((s) => s.devices.length > 0);
}

/**
 * Reads a comma list of device ids (or `main`, or configured names), or `all`; undefined when unset or empty.
 * `all` stands alone: every phone of the server is already every phone.
 * @param selectedBy what set the list, for messages
 * @default selectedBy PHONEWRIGHT_DEVICES
 */
export function parseDeviceList(value: string | undefined, selectedBy: string = ENV.devices): string[] | typeof ALL_DEVICES | undefined {
  const items = value?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!items?.length) return undefined;
  if (items.includes(ALL_DEVICES)) {
    if (items.length === 1) return ALL_DEVICES;
    const how = selectedBy.startsWith('--') ? `${selectedBy} ` : `${selectedBy}=`;
    throw new ConfigError(`${selectedBy}: "${ALL_DEVICES}" takes every phone of the server and goes alone, not with ${items.filter((i) => i !== ALL_DEVICES).join(', ')}`, {
      hint: `${how}${ALL_DEVICES}, or list the phones: ${how}main,device@1116106541`,
    });
  }
  return items.map((item) =>
    item.startsWith('device@') || item === 'main'
      ? parseDeviceRef(item, selectedBy, (where, what) => {
          throw new ConfigError(`${where}: ${what}`);
        })
      : item,
  );
}

function connectionFor(entry: ServerFileEntry | undefined, flags: ConnectionFlags, env: Env, url: string | undefined, listing = false): Connection {
  const resolvedUrl = url ?? entry?.url;
  if (resolvedUrl !== undefined) checkUrl(resolvedUrl, flags.url !== undefined ? '--url' : env[ENV.url] !== undefined ? ENV.url : 'url');
  const user = pick(flags.user, env[ENV.user]) ?? entry?.user ?? DEFAULT_USER;
  if (user.includes(':')) throw new UsageError('the user name may not contain ":" (the login header joins user and password with it)');
  const inFile = (key: string) => `the ${key} of server "${entry?.name}" in phonewright.config.json`;
  const sourceOf = (flag: string | undefined, flagName: string, variable: string, fromFile: string | undefined, fallback: string) =>
    flag !== undefined && flag !== '' ? flagName : pick(env[variable]) !== undefined ? variable : fromFile ?? fallback;
  const sources: ConnectionSources = {
    url: sourceOf(flags.url, '--url', ENV.url, entry?.url === undefined ? undefined : inFile('url'), 'the embedded simulator'),
    user: sourceOf(flags.user, '--user', ENV.user, entry?.user === undefined ? undefined : inFile('user'), 'the default user'),
    password: sourceOf(flags.password, '--password', ENV.password, entry?.passwordEnv === undefined ? undefined : `${entry.passwordEnv} (the passwordEnv of server "${entry.name}")`, 'the default password'),
  };
  const given = pick(flags.password, env[ENV.password]);
  let password: string | undefined;
  let passwordMissing: ConfigError | undefined;
  try {
    password = given ?? filePassword(entry, env) ?? DEFAULT_PASSWORD;
  } catch (error) {
    if (!listing || !(error instanceof ConfigError)) throw error;
    passwordMissing = error;
  }
  return {
    name: entry?.name ?? (resolvedUrl === undefined ? 'simulator' : 'env'),
    url: resolvedUrl?.replace(/\/+$/, ''),
    user,
    password: password ?? '',
    apiRoot: normalizeApiRoot(pick(flags.apiRoot, env[ENV.apiRoot]) ?? entry?.apiRoot ?? DEFAULT_API_ROOT),
    devices: entry?.devices,
    sources,
    ...(passwordMissing ? { passwordMissing } : {}),
  };
}

function filePassword(entry: ServerFileEntry | undefined, env: Env): string | undefined {
  if (!entry?.passwordEnv) return undefined;
  const value = env[entry.passwordEnv];
  if (value === undefined || value === '') {
    throw new ConfigError(`server "${entry.name}": the environment variable ${entry.passwordEnv} (its passwordEnv) is not set`, {
      hint: `export ${entry.passwordEnv}=… before running, or pass --password`,
    });
  }
  return value;
}

function findServer(file: ConfigFile | undefined, name: string): ServerFileEntry {
  const hit = file?.servers.find((s) => s.name === name);
  if (hit) return hit;
  if (!file || file.servers.length === 0) {
    throw new UsageError(`no server named "${name}": there is no phonewright.config.json listing servers`, {
      hint: 'create one (see the README, "Configuration"), or give --url',
    });
  }
  throw new UsageError(`no server named "${name}" in ${file.source}`, { hint: `one of ${file.servers.map((s) => s.name).join(', ')}` });
}

function checkUrl(value: string, where: string): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${where}: ${JSON.stringify(value.slice(0, 100))} is not a URL`, { hint: 'http://<server ip>:8090' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${where}: ${u.protocol} is not http: or https:`);
  if (u.username || u.password) throw new UsageError(`${where}: credentials do not belong in the URL`, { hint: 'use --user and --password' });
}

/** The first value that is set and not empty. */
function pick(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v !== '');
}
