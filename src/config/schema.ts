import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ConfigError } from '../core/errors.js';
import { normalizeApiRoot } from '../core/routes.js';
import { parseUploadTarget } from '../core/upload-target.js';

/** A phone named in the configuration. `main` stands for the server's main device. */
export interface DeviceSpec {
  id: DeviceId | 'main';
  /** The Playwright project name; defaults to the id. */
  name?: string;
  /** Phones in the same pool share the specs instead of each running all of them. */
  pool?: string;
}

/** One device-control server as the configuration file describes it (no password: only where to find it). */
export interface ServerFileEntry {
  name: string;
  url?: string;
  user?: string;
  /** The environment variable that holds the password. */
  passwordEnv?: string;
  apiRoot?: string;
  devices?: DeviceSpec[];
}

/** Files to upload before the specs: upload target → file path(s), relative to the config file. */
export type PushSpec = Record<string, string | string[]>;

/** `phonewright.config.json`, validated. */
export interface ConfigFile {
  servers: ServerFileEntry[];
  push: PushSpec;
  simulator: { scenario?: string; lab?: boolean };
  /** The folder paths in the file are relative to. */
  dir: string;
  /** Where it was read from, for messages. */
  source: string;
}

const TOP_KEYS = ['$schema', 'servers', 'push', 'simulator', 'url', 'user', 'passwordEnv', 'apiRoot', 'devices'];
const SERVER_KEYS = ['name', 'url', 'user', 'passwordEnv', 'apiRoot', 'devices'];
const DEVICE_KEYS = ['id', 'name', 'pool'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates the parsed JSON of a configuration file. Every refusal names the file, the key and what to write.
 * @param json the parsed file
 * @param source the file's path, for messages
 * @param dir the folder relative paths in the file are resolved against
 */
export function parseConfigFile(json: unknown, source: string, dir: string): ConfigFile {
  const fail = (where: string, what: string, hint?: string): never => {
    throw new ConfigError(`${source}: ${where}: ${what}`, hint ? { hint } : {});
  };
  if (!isObject(json)) fail('top level', 'expected a JSON object', 'see the README, "Configuration"');
  const top = json as Record<string, unknown>;
  // Checked before the unknown keys, so the one-server shorthand gets the same clear refusal as a server entry.
  if ('password' in top) {
    fail('password', 'a password is never written in the configuration file', 'name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"');
  }
  unknownKeys(top, TOP_KEYS, 'top level', fail);
  const shorthand = ['url', 'user', 'passwordEnv', 'apiRoot', 'devices'].filter((k) => k in top);
  if (shorthand.length && 'servers' in top) {
    fail('top level', `"${shorthand[0]}" and "servers" together`, 'put every server in "servers", or describe one server at the top level');
  }
  let servers: ServerFileEntry[];
  if ('servers' in top) {
    if (!Array.isArray(top.servers) || top.servers.length === 0) fail('servers', 'expected a non-empty array of servers');
    servers = (top.servers as unknown[]).map((s, i) => parseServer(s, `servers[${i}]`, fail));
    const seen = new Set<string>();
    for (const s of servers) {
      if (seen.has(s.name)) fail('servers', `the name "${s.name}" is used twice`, 'give every server its own name');
      seen.add(s.name);
    }
  } else {
    servers = shorthand.length ? [parseServer({ name: 'default', ...pick(top, shorthand) }, 'top level', fail)] : [];
  }
  const push = 'push' in top ? parsePush(top.push, fail) : {};
  let simulator: ConfigFile['simulator'] = {};
  if ('simulator' in top) {
    if (!isObject(top.simulator)) fail('simulator', 'expected an object such as {"scenario": "sim/lab.json"}');
    const sim = top.simulator as Record<string, unknown>;
    unknownKeys(sim, ['scenario', 'lab'], 'simulator', fail);
    if (sim.scenario !== undefined && (typeof sim.scenario !== 'string' || !sim.scenario)) fail('simulator.scenario', 'expected a file path');
    if (sim.lab !== undefined && typeof sim.lab !== 'boolean') fail('simulator.lab', 'expected true (the lab preset: reads take milliseconds, phone clocks are off) or false');
    simulator = { ...(sim.scenario ? { scenario: sim.scenario as string } : {}), ...(sim.lab !== undefined ? { lab: sim.lab as boolean } : {}) };
  }
  return { servers, push, simulator, dir, source };
}

type Fail = (where: string, what: string, hint?: string) => never;

function parseServer(raw: unknown, where: string, fail: Fail): ServerFileEntry {
  if (!isObject(raw)) return fail(where, 'expected an object with name, url, user, passwordEnv, devices');
  const s = raw as Record<string, unknown>;
  if ('password' in s) {
    fail(`${where}.password`, 'a password is never written in the configuration file', 'name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"');
  }
  unknownKeys(s, SERVER_KEYS, where, fail);
  if (typeof s.name !== 'string' || !NAME.test(s.name)) fail(`${where}.name`, 'expected a name of letters, digits, ".", "_" or "-"');
  const out: ServerFileEntry = { name: s.name as string };
  if (s.url !== undefined) out.url = parseUrl(s.url, `${where}.url`, fail);
  if (s.user !== undefined) {
    if (typeof s.user !== 'string' || s.user === '' || s.user.includes(':')) fail(`${where}.user`, 'expected a user name without ":"');
    out.user = s.user as string;
  }
  if (s.passwordEnv !== undefined) {
    if (typeof s.passwordEnv !== 'string' || !ENV_NAME.test(s.passwordEnv)) {
      fail(`${where}.passwordEnv`, 'expected the name of an environment variable, e.g. "LAB_A_PASSWORD"');
    }
    out.passwordEnv = s.passwordEnv as string;
  }
  if (s.apiRoot !== undefined) {
    try {
      out.apiRoot = normalizeApiRoot(String(s.apiRoot));
    } catch (e) {
      fail(`${where}.apiRoot`, (e as Error).message);
    }
  }
  if (s.devices !== undefined) {
    if (!Array.isArray(s.devices) || s.devices.length === 0) fail(`${where}.devices`, 'expected a non-empty array of device ids');
    out.devices = (s.devices as unknown[]).map((d, i) => parseDevice(d, `${where}.devices[${i}]`, fail));
    const names = new Set<string>();
    for (const d of out.devices) {
      const n = d.name ?? d.id;
      if (names.has(n)) fail(`${where}.devices`, `"${n}" is listed twice`);
      names.add(n);
    }
  }
  return out;
}

function parseDevice(raw: unknown, where: string, fail: Fail): DeviceSpec {
  const entry = typeof raw === 'string' ? { id: raw } : raw;
  if (!isObject(entry)) return fail(where, 'expected a device id or {"id", "name", "pool"}');
  const d = entry as Record<string, unknown>;
  unknownKeys(d, DEVICE_KEYS, where, fail);
  const out: DeviceSpec = { id: parseDeviceRef(d.id, `${where}.id`, fail) };
  if (d.name !== undefined) {
    if (typeof d.name !== 'string' || !NAME.test(d.name)) fail(`${where}.name`, 'expected a name of letters, digits, ".", "_" or "-"');
    out.name = d.name as string;
  }
  if (d.pool !== undefined) {
    if (typeof d.pool !== 'string' || !NAME.test(d.pool)) fail(`${where}.pool`, 'expected a pool name of letters, digits, ".", "_" or "-"');
    out.pool = d.pool as string;
  }
  return out;
}

/** Reads `main` or a device id; used for the file and for `PHONEWRIGHT_DEVICES`. */
export function parseDeviceRef(raw: unknown, where: string, fail: Fail): DeviceId | 'main' {
  if (raw === 'main') return 'main';
  if (typeof raw !== 'string') return fail(where, 'expected a device id such as device@1116106541, or "main"');
  try {
    return parseDeviceId(raw);
  } catch (e) {
    return fail(where, (e as Error).message);
  }
}

function parsePush(raw: unknown, fail: Fail): PushSpec {
  if (!isObject(raw)) return fail('push', 'expected an object of upload target → file path(s), e.g. {"apk": "builds/app.apk"}');
  const out: PushSpec = {};
  for (const [target, files] of Object.entries(raw as Record<string, unknown>)) {
    try {
      parseUploadTarget(target === 'contacts' ? 'tcbr/contacts' : target);
    } catch (e) {
      fail(`push.${target}`, (e as Error).message);
    }
    const list = typeof files === 'string' ? [files] : files;
    if (!Array.isArray(list) || list.length === 0 || list.some((f) => typeof f !== 'string' || f === '')) {
      fail(`push.${target}`, 'expected a file path or a non-empty array of file paths');
    }
    out[target] = files as string | string[];
  }
  return out;
}

function parseUrl(raw: unknown, where: string, fail: Fail): string {
  if (typeof raw !== 'string') return fail(where, 'expected a URL such as http://10.0.0.5:8090');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return fail(where, `${JSON.stringify(raw.slice(0, 100))} is not a URL`, 'http://<server ip>:8090');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(where, `${u.protocol} is not http: or https:`);
  if (u.username || u.password) fail(where, 'credentials do not belong in the URL', 'use "user" and "passwordEnv"');
  if (u.search || u.hash) fail(where, 'a server URL has no query or fragment');
  return raw.replace(/\/+$/, '');
}

function unknownKeys(obj: Record<string, unknown>, allowed: string[], where: string, fail: Fail): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(where, `unknown key "${key}"`, `one of ${allowed.filter((k) => k !== '$schema').join(', ')}`);
  }
}

function pick(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, obj[k]]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
