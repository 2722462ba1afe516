import { randomBytes } from 'node:crypto';
import { DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USER } from '../core/defaults.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_API_ROOT, normalizeApiRoot } from '../core/routes.js';
import { checkBehaviour, type Behaviour } from './behaviour.js';
import { checkFaults, type FaultSpec } from './faults.js';
import { checkLab, checkOffsets, type LabOptions } from './lab.js';
import type { ScenarioInput } from './scenario-types.js';

/** What a simulator serves: the interface and the vendor's routes beyond it, or the interface only. */
export type Capabilities = 'all' | 'seed';

/**
 * How a server answers a route it lacks: HTTP 404, 405 or 501, or the interface's failure envelope (HTTP 200,
 * `{"status": null, "value": "<message>"}`). Real servers differ; a client tells each from a phone gone.
 */
export type MissingRouteForm = 404 | 405 | 501 | 'envelope';

/** Every {@link MissingRouteForm}, as the `sim --missing-route` flag writes them. */
export const MISSING_ROUTE_FORMS = ['404', '405', '501', 'envelope'] as const;

/**
 * How a simulator offers its acts: through `screen/inputs` and `screen/texts` (what public clients use, on
 * servers from 2018 on), through the JS bridge (`scripts?cmd=`, server release 6.9.0 on), or both.
 */
export type ActsOffered = 'inputs' | 'scripts' | 'both';

/** Every {@link ActsOffered}, as the `sim --acts` flag writes them. */
export const ACTS_OFFERED: readonly ActsOffered[] = ['inputs', 'scripts', 'both'];

/** How to start a simulator. Every field is optional; the defaults make the vendor's curl examples work. */
export interface SimulatorOptions {
  /** @default 8090 (0 picks a free port) */
  port?: number;
  /** The interface to listen on; only this machine can reach the default. @default "127.0.0.1" */
  host?: string;
  /** @default "/TotalControl/v1" */
  apiRoot?: string;
  /** @default "sigma" (the vendor's example) */
  user?: string;
  /** @default "3D391497" (the vendor's example) */
  password?: string;
  /** A scenario JSON file, or the scenario itself. @default the built-in four phones (DEFAULT_SCENARIO) */
  scenario?: string | ScenarioInput;
  /** Where PNG paths of an object scenario are resolved. @default process.cwd() */
  scenarioDir?: string;
  /** The installation root uploads are stored under. @default a new folder in the OS temp folder, removed on close */
  storage?: string;
  /** Let `local/<absolute path>/` write anywhere on this machine. @default false */
  allowAbsoluteUploads?: boolean;
  /** @default 2 GiB */
  maxUploadBytes?: number;
  /** Switchable answers, over the scenario's `behaviour`. */
  behaviour?: Partial<Behaviour>;
  /** Faults in force from the start and after every reset. */
  faults?: FaultSpec;
  /**
   * Behave like a phone lab: `true` for LAB_PRESET (latency per operation, one phone's screen reads one at a
   * time, phone clocks minutes off), or the settings; `false` for none. Over the scenario's `lab`.
   * @default the scenario's lab, or none
   */
  lab?: boolean | LabOptions;
  /** Phone id or name → clock offset in ms, over the lab's and the scenario's. */
  clockOffsetMs?: Record<string, number>;
  /**
   * `all`: the interface and the vendor's routes beyond it (the device list and properties); `seed`: the
   * interface's six operations only, as a server without the extensions. @default "all"
   */
  capabilities?: Capabilities;
  /**
   * Which routes the acts come through: `inputs` (`screen/inputs` and `screen/texts`, no JS bridge),
   * `scripts` (the JS bridge only) or `both`. Under `capabilities: "seed"` there are none. @default "both"
   */
  acts?: ActsOffered;
  /**
   * Offer the vendor's UI-element engine (`POST devices/<id>/sendAai`), which searches the drawn screens'
   * elements; false: it answers as a route not offered, as on a server without it. Under
   * `capabilities: "seed"` it is not offered either way. @default true
   */
  elements?: boolean;
  /**
   * Offer the server's OCR (`screen/texts` with `rect=`), which reads the drawn screens' texts; false: it
   * answers the failure envelope saying it is not offered (the route still types text and reads the clipboard).
   * @default true
   */
  ocr?: boolean;
  /**
   * How a route of the vendor's that this simulator does not offer answers (every one beyond the interface
   * under `capabilities: "seed"`, the act routes `acts` leaves out, `sendAai` without `elements`): HTTP
   * 404, 405 or 501, or `envelope`, HTTP 200 with `{"status": null, "value": "no such route: …"}`. @default 404
   */
  missingRoutes?: MissingRouteForm;
  /** The admin API's key (header `x-sim-admin-key`). @default random per start */
  adminKey?: string;
  /** The clock, in ms since the epoch: tests advance it instead of sleeping. @default Date.now */
  now?: () => number;
  /** Log each request (method, path with the token redacted, status, ms): true for stderr, or a callback. */
  verbose?: boolean | ((line: string) => void);
}

/** The options with their defaults, checked. */
export interface ResolvedOptions {
  port: number;
  host: string;
  apiRoot: string;
  user: string;
  password: string;
  scenario: string | ScenarioInput | undefined;
  scenarioDir: string;
  storage: string | undefined;
  allowAbsoluteUploads: boolean;
  maxUploadBytes: number;
  behaviour: Partial<Behaviour>;
  faults: FaultSpec | undefined;
  /** undefined: the scenario decides; false: no lab. */
  lab: LabOptions | false | undefined;
  clockOffsetMs: Record<string, number> | undefined;
  capabilities: Capabilities;
  acts: ActsOffered;
  elements: boolean;
  ocr: boolean;
  missingRoutes: MissingRouteForm;
  adminKey: string;
  now: () => number;
  log: ((line: string) => void) | undefined;
}

/** 2 GiB: the vendor's documented default upload limit. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
/** Only this machine can reach the simulator unless a host says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Fills in the defaults and refuses what cannot work, before anything is started.
 * @param options what the caller gave
 */
export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const o = options ?? {};
  const port = o.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`invalid port ${JSON.stringify(port)}: expected 0 (any free port) to 65535`);
  const maxUploadBytes = o.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (!Number.isSafeInteger(maxUploadBytes) || maxUploadBytes < 1) throw new UsageError(`invalid maximum upload size ${JSON.stringify(maxUploadBytes)}: expected a number of bytes ≥ 1`);
  const user = o.user ?? DEFAULT_USER;
  const password = o.password ?? DEFAULT_PASSWORD;
  // The colon separates user from password in the Authorization header, so a user name cannot hold one.
  if (typeof user !== 'string' || user === '' || user.includes(':')) throw new UsageError('invalid user name: expected a non-empty name without ":"');
  if (typeof password !== 'string' || password === '') throw new UsageError('invalid password: expected a non-empty string');
  const behaviour = o.behaviour === undefined ? {} : checkBehaviour(o.behaviour, 'behaviour');
  if (typeof behaviour === 'string') throw new UsageError(behaviour);
  const faults = o.faults === undefined ? undefined : checkFaults(o.faults);
  if (typeof faults === 'string') throw new UsageError(faults);
  const lab = o.lab === undefined ? undefined : checkLab(o.lab, 'lab');
  if (typeof lab === 'string') throw new UsageError(lab);
  const clockOffsetMs = o.clockOffsetMs === undefined ? undefined : checkOffsets(o.clockOffsetMs, 'clockOffsetMs');
  if (typeof clockOffsetMs === 'string') throw new UsageError(clockOffsetMs);
  const capabilities = o.capabilities ?? 'all';
  if (capabilities !== 'all' && capabilities !== 'seed') throw new UsageError(`invalid capabilities ${JSON.stringify(capabilities)}: expected "all" (the vendor's routes beyond the interface too) or "seed" (the interface's six operations only)`);
  const acts = o.acts ?? 'both';
  if (!ACTS_OFFERED.includes(acts)) throw new UsageError(`invalid acts ${JSON.stringify(acts)}: expected "inputs" (screen/inputs and screen/texts), "scripts" (the JS bridge) or "both"`);
  for (const key of ['elements', 'ocr'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') throw new UsageError(`invalid ${key} ${JSON.stringify(o[key])}: expected true (offered, the default) or false (answered as a server without it answers)`);
  }
  const missingRoutes = o.missingRoutes ?? 404;
  if (missingRoutes !== 404 && missingRoutes !== 405 && missingRoutes !== 501 && missingRoutes !== 'envelope') {
    throw new UsageError(`invalid missingRoutes ${JSON.stringify(missingRoutes)}: expected 404, 405, 501 (the HTTP status a lacking route answers) or "envelope" (HTTP 200 with {"status": null, …})`);
  }
  const adminKey = o.adminKey ?? randomBytes(18).toString('base64url');
  if (typeof adminKey !== 'string' || adminKey.length < 8) throw new UsageError('invalid admin key: expected at least 8 characters');
  const verbose = o.verbose;
  const log = typeof verbose === 'function' ? verbose : verbose ? (line: string) => void process.stderr.write(`${line}\n`) : undefined;
  return {
    port,
    host: o.host ?? DEFAULT_HOST,
    apiRoot: normalizeApiRoot(o.apiRoot ?? DEFAULT_API_ROOT),
    user,
    password,
    scenario: o.scenario,
    scenarioDir: o.scenarioDir ?? process.cwd(),
    storage: o.storage,
    allowAbsoluteUploads: o.allowAbsoluteUploads ?? false,
    maxUploadBytes,
    behaviour,
    faults,
    lab,
    clockOffsetMs,
    capabilities,
    acts,
    elements: o.elements ?? true,
    ocr: o.ocr ?? true,
    missingRoutes,
    adminKey,
    // The same clock as the client's feed (src/phone/notification-feed.ts): a wall clock being slewed (NTP on a VM, 0.5 % here)
    // would otherwise make every simulated phone's clock drift against this machine's during a run.
    now: o.now ?? (() => performance.timeOrigin + performance.now()),
    log,
  };
}
