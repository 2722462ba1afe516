import type { ErrorObject } from 'ajv';
import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ConfigError } from '../core/errors.js';
import type { Language } from '../core/languages.js';
import { normalizeApiRoot } from '../core/routes.js';
import { parseUploadTarget } from '../core/upload-target.js';
import { globSource } from './glob.js';
import validator, { schema as compiledSchema } from './validator.js';

/** A phone named in the configuration. `main` stands for the server's main device. */
export interface DeviceSpec {
  id: DeviceId | 'main';
  /** The Playwright project name; defaults to the id. */
  name?: string;
  /** Phones in the same pool share the specs instead of each running all of them. */
  pool?: string;
  /** The spec files this phone runs (globs relative to the file), among its server's. */
  testMatch?: string[];
  /** Spec files this phone does not run (globs relative to the file). */
  testIgnore?: string[];
}

/** `"devices": "all"` (or `PHONEWRIGHT_DEVICES=all`): every phone the server lists when the run starts. */
export const ALL_DEVICES = 'all';

/** A server's phones in the matrix: those listed, or `all` of them. */
export type DeviceSelection = DeviceSpec[] | typeof ALL_DEVICES;

/** One device-control server as the configuration file describes it (no password: only where to find it). */
export interface ServerFileEntry {
  name: string;
  url?: string;
  user?: string;
  /** The environment variable that holds the password. */
  passwordEnv?: string;
  apiRoot?: string;
  devices?: DeviceSelection;
  /** The spec files this server's phones run (globs relative to the file); undefined: every spec. */
  testMatch?: string[];
  /** Spec files this server's phones do not run (globs relative to the file). */
  testIgnore?: string[];
}

/** What a run does with a phone it could not test: fail the run (the default), or skip the phone's tests. */
export type UnreachablePhones = 'fail' | 'skip';

/** `"leases"` of the file: where the leases are kept, and their timings. */
export interface LeaseFileEntry {
  url?: string;
  expirySeconds?: number;
  waitSeconds?: number;
}

/** Files to upload before the specs: upload target → file path(s), relative to the config file. */
export type PushSpec = Record<string, string | string[]>;

/** `phonewright.config.json`, validated. */
export interface ConfigFile {
  servers: ServerFileEntry[];
  push: PushSpec;
  simulator: { scenario?: string; lab?: boolean; capabilities?: 'all' | 'seed'; acts?: 'inputs' | 'scripts' | 'both'; elements?: boolean; ocr?: boolean };
  /** Where CI publishes the HTML report, for links from the nightly files. */
  reportUrl?: string;
  /**
   * A phone the run could not test (login refused, server down, phone unknown): `fail` (the default) fails the
   * run; `skip` skips its tests and names it once at the end, for labs where phones come and go.
   */
  unreachablePhones?: UnreachablePhones;
  /** Phones leased in Redis, one run at a time on each (src/config/leases.ts reads it with PHONEWRIGHT_LEASES). */
  leases?: LeaseFileEntry;
  /** The languages of the text on the phones' screens, each once; undefined: all the OCR model reads. */
  languages?: Language[];
  /** When a test carries a film of its phone (docs/video.md); a spec's `phoneVideo` option beats it. */
  phoneVideo?: PhoneVideoSetting;
  /** The folder paths in the file are relative to. */
  dir: string;
  /** Where it was read from, for messages. */
  source: string;
}

/** `"phoneVideo"`: when a test is filmed, as Playwright's `video` option; or the mode with frames a second and the film's long side. */
export type PhoneVideoSetting = 'off' | 'on' | 'retain-on-failure' | 'on-first-retry' | { mode: 'off' | 'on' | 'retain-on-failure' | 'on-first-retry'; fps?: number; size?: number };

/** The file's shape once config.schema.json has passed it; what is left to check is what a schema cannot say. */
type Globs = string | string[];
type RawDevice = Omit<DeviceSpec, 'testMatch' | 'testIgnore'> & { testMatch?: Globs; testIgnore?: Globs };
type RawServer = Omit<ServerFileEntry, 'devices' | 'testMatch' | 'testIgnore'> & { devices?: (string | RawDevice)[] | typeof ALL_DEVICES; testMatch?: Globs; testIgnore?: Globs };
type RawFile = Partial<Omit<RawServer, 'name'>> & { servers?: RawServer[]; push?: PushSpec; simulator?: ConfigFile['simulator']; reportUrl?: string; unreachablePhones?: UnreachablePhones; leases?: LeaseFileEntry; languages?: Language[]; phoneVideo?: PhoneVideoSetting };

type Fail = (where: string, what: string, hint?: string) => never;

const PASSWORD = ['a password is never written in the configuration file', 'name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"'] as const;

/**
 * Validates the parsed JSON of a configuration file: its structure against config.schema.json (the schema
 * editors read too), then what a schema cannot say. Every refusal names the file, the key and what to write.
 * @param json the parsed file
 * @param source the file's path, for messages
 * @param dir the folder relative paths in the file are resolved against
 */
export function parseConfigFile(json: unknown, source: string, dir: string): ConfigFile {
  const fail: Fail = (where, what, hint) => {
    throw new ConfigError(`${source}: ${where}: ${what}`, hint ? { hint } : {});
  };
  const error = validate(json);
  if (error) structuralFailure(error, json, fail);
  const { shorthandKeys } = schemaFacts();
  const top = json as RawFile;
  const shorthand = shorthandKeys.filter((k) => k in top);
  if (shorthand.length && top.servers) {
    fail('top level', `"${shorthand[0]}" and "servers" together`, 'put every server in "servers", or describe one server at the top level');
  }
  let servers: ServerFileEntry[] = [];
  if (top.servers) {
    servers = top.servers.map((s, i) => checkServer(s, `servers[${i}]`, fail));
    const seen = new Set<string>();
    for (const s of servers) {
      if (seen.has(s.name)) fail('servers', `the name "${s.name}" is used twice`, 'give every server its own name');
      seen.add(s.name);
    }
  } else if (shorthand.length) {
    servers = [checkServer({ name: 'default', ...Object.fromEntries(shorthand.map((k) => [k, top[k as keyof RawFile]])) }, 'top level', fail)];
  }
  for (const target of Object.keys(top.push ?? {})) {
    try {
      parseUploadTarget(target === 'contacts' ? 'tcbr/contacts' : target);
    } catch (e) {
      fail(`push.${target}`, (e as Error).message);
    }
  }
  return { servers, push: { ...top.push }, simulator: { ...top.simulator }, ...(top.reportUrl ? { reportUrl: top.reportUrl } : {}), ...(top.unreachablePhones ? { unreachablePhones: top.unreachablePhones } : {}), ...(top.leases ? { leases: { ...top.leases } } : {}), ...(top.languages ? { languages: [...new Set(top.languages)] } : {}), ...(top.phoneVideo ? { phoneVideo: top.phoneVideo } : {}), dir, source };
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

function checkServer(s: RawServer, where: string, fail: Fail): ServerFileEntry {
  const { devices, testMatch, testIgnore, ...rest } = s;
  const out: ServerFileEntry = { ...rest, ...checkGlobs({ testMatch, testIgnore }, where, fail) };
  if (s.url !== undefined) out.url = checkUrl(s.url, `${where}.url`, fail);
  if (s.apiRoot !== undefined) {
    try {
      out.apiRoot = normalizeApiRoot(s.apiRoot);
    } catch (e) {
      fail(`${where}.apiRoot`, (e as Error).message);
    }
  }
  if (devices === ALL_DEVICES) {
    out.devices = ALL_DEVICES;
  } else if (devices) {
    out.devices = devices.map((d, i) => {
      const { testMatch: match, testIgnore: ignore, ...entry }: RawDevice = typeof d === 'string' ? { id: d as DeviceSpec['id'] } : d;
      const bound = checkGlobs({ testMatch: match, testIgnore: ignore }, `${where}.devices[${i}]`, fail);
      if (entry.pool !== undefined && Object.keys(bound).length) {
        fail(`${where}.devices[${i}].${Object.keys(bound)[0]}`, `a phone of pool "${entry.pool}" runs its pool's specs, whichever phone of the pool takes them`, 'bind the server\'s phones (its testMatch or testIgnore), or take the phone out of the pool');
      }
      return { ...entry, ...bound, id: parseDeviceRef(entry.id, `${where}.devices[${i}].id`, fail) };
    });
    const names = new Set<string>();
    for (const d of out.devices) {
      const n = d.name ?? d.id;
      if (names.has(n)) fail(`${where}.devices`, `"${n}" is listed twice`);
      names.add(n);
    }
  }
  return out;
}

/** `testMatch` and `testIgnore` as lists of globs, each checked: a glob that cannot match as meant is refused. */
function checkGlobs(raw: { testMatch: Globs | undefined; testIgnore: Globs | undefined }, where: string, fail: Fail): Pick<ServerFileEntry, 'testMatch' | 'testIgnore'> {
  const out: Pick<ServerFileEntry, 'testMatch' | 'testIgnore'> = {};
  for (const key of ['testMatch', 'testIgnore'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    const globs = typeof value === 'string' ? [value] : value;
    globs.forEach((glob, i) => {
      try {
        globSource(glob);
      } catch (e) {
        fail(`${where}.${key}${typeof value === 'string' ? '' : `[${i}]`}`, (e as Error).message, 'a glob relative to the config file\'s folder, e.g. "specs/lab-a/**" or "specs/*.tc.spec.ts"');
      }
    });
    out[key] = globs;
  }
  return out;
}

function checkUrl(raw: string, where: string, fail: Fail): string {
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

/** A node of config.schema.json: besides JSON Schema's keywords, `errorMessage` (which VS Code shows too). */
interface SchemaNode {
  $ref?: string;
  errorMessage?: string;
  properties?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
}

/** Turns ajv's first error into the one line: the key as `servers[0].devices[1].id`, what was wrong, a hint. */
function structuralFailure(error: ErrorObject, json: unknown, fail: Fail): never {
  const { root } = schemaFacts();
  const where = whereOf(error.instancePath, json);
  const node = error.parentSchema as SchemaNode;
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    // Refused with its own reason and way out, at the top level as in a server entry.
    if (key === 'password') fail(error.instancePath ? `${where}.password` : 'password', ...PASSWORD);
    const allowed = Object.keys(node.properties ?? {}).filter((k) => k !== '$schema');
    return fail(where, `unknown key "${key}"`, `one of ${allowed.join(', ')}`);
  }
  // A list's item outside its values is named, as its place in the list alone would leave the reader counting.
  if (error.keyword === 'enum' && where.endsWith(']')) return fail(where, `${JSON.stringify(error.data)}: ${node.errorMessage ?? error.message}`);
  if (error.keyword === 'required') {
    const key = (error.params as { missingProperty: string }).missingProperty;
    return fail(`${where}.${key}`, resolve(root, node.properties?.[key]).errorMessage ?? error.message ?? 'required');
  }
  return fail(where, node.errorMessage ?? `${error.message}`, error.instancePath ? undefined : 'see the README, "Configuration"');
}

/** `/servers/0/devices/1` → `servers[0].devices[1]`; the one-server shorthand's keys under `top level`. */
function whereOf(pointer: string, json: unknown): string {
  if (!pointer) return 'top level';
  let where = '';
  let data = json;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(data)) where += `[${key}]`;
    else where += where ? `.${key}` : schemaFacts().shorthandKeys.includes(key) ? `top level.${key}` : key;
    data = (data as Record<string, unknown>)[key];
  }
  return where;
}

function resolve(root: SchemaNode, node: SchemaNode | undefined): SchemaNode {
  const ref = node?.$ref?.match(/^#\/definitions\/(.+)$/)?.[1];
  return (ref ? root.definitions?.[ref] : node) ?? {};
}

let schema: { root: SchemaNode; shorthandKeys: string[] } | undefined;

/**
 * config.schema.json as its compiled validator carries it (validator.ts: the test that keeps the two in step
 * compares them), and the server keys that may also stand at the top level.
 */
function schemaFacts(): NonNullable<typeof schema> {
  if (schema) return schema;
  const root = compiledSchema as SchemaNode;
  // The one-server shorthand: the server keys that may also stand at the top level.
  const serverKeys = Object.keys(root.definitions?.server?.properties ?? {});
  schema = { root, shorthandKeys: Object.keys(root.properties ?? {}).filter((k) => serverKeys.includes(k)) };
  return schema;
}

/**
 * Checks a file against the schema with its validator, compiled ahead of time by ajv (validator.ts, written by
 * scripts/validator.mjs): compiling it here cost every process that read a file ~90 ms of CPU.
 */
function validate(json: unknown): ErrorObject | undefined {
  return validator(json) ? undefined : validator.errors![0]!;
}
