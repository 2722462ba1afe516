import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { Notification } from '../core/notifications.js';
import type { Act } from './act-log.js';
import type { Behaviour } from './behaviour.js';
import { createRequestHandler, type DispatchContext } from './dispatch.js';
import type { FaultSpec } from './faults.js';
import type { LabOptions } from './lab.js';
import type { PhoneInfo } from './phone.js';
import { resolveOptions, type SimulatorOptions } from './options.js';
import { routeTable } from './route-table.js';
import { failure } from './respond.js';
import { loadScenario } from './scenario.js';
import type { DrawnScreenInput, SettingsInput } from './scenario-types.js';
import { DEFAULT_SCENARIO } from './scenarios/default.js';
import { SimulatorState, type NotificationPost, type RectFill, type SimulatorStats } from './state.js';
import { screenInfo, type ScreenInfo } from './screen-info.js';
import { fileUrlFor } from './file-url.js';
import { NameAllocator } from './storage-paths.js';

/**
 * Node's default (16 KiB) counts the request line, so a notifications query with long filter lists, or a
 * client that sends thousands of query parameters, would be refused; larger heads still get a JSON 431.
 */
const MAX_HEADER_BYTES = 256 * 1024;

/** A running simulator: where it listens, and the admin operations in-process. */
export interface SimulatorHandle {
  /** Base URL without the API root, e.g. `http://127.0.0.1:8090`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /**
   * The API root the simulator names in the URLs it hands out. When it ends in `/v<digit>`, the sibling
   * roots `/v1` and `/v2` are served too, with the same tokens.
   */
  readonly apiRoot: string;
  /** Every API root served: {@link apiRoot} first. */
  readonly apiRoots: readonly string[];
  readonly user: string;
  readonly password: string;
  /** The admin API's key (header `x-sim-admin-key`). */
  readonly adminKey: string;
  /** The installation root uploads are stored under. */
  readonly storageRoot: string;
  readonly mainDevice: DeviceId;
  /** The phones as they are now. */
  readonly phones: PhoneInfo[];
  /** The behaviours in force now. */
  readonly behaviour: Behaviour;
  /** The lab in force now (what `lab: true` stands for, spelt out), or undefined. */
  readonly lab: LabOptions | undefined;
  /**
   * Shows a new screen, in place of the home screen and any app screen: PNG bytes, or `{width, height, fill,
   * rects, texts, elements}`.
   */
  setScreen(device: string, screen: Uint8Array | DrawnScreenInput): void;
  /** What a phone shows now: the app screen's name (null: home), its UI elements and its texts with their ink boxes. */
  screenInfo(device: string): ScreenInfo;
  fillRect(device: string, rect: RectFill): void;
  /** Posts a message; without `time` the phone stamps it with its clock. Answers it as the wire carries it. */
  postNotification(post: NotificationPost): Notification;
  setSettings(device: string, settings: SettingsInput): void;
  setOnline(device: string, online: boolean): void;
  /** Puts text on a phone's clipboard (empty at the start and after a reset), for `screen/texts?type=clipboard_text`. */
  setClipboard(device: string, text: string): void;
  /** Replaces the faults in force; undefined clears them. */
  setFaults(faults: FaultSpec | undefined): void;
  setBehaviour(behaviour: Partial<Behaviour>): void;
  /** Sets how far a phone's clock is off, in ms (within a day either way), until the next reset. */
  setClockOffset(device: string, ms: number): void;
  /** Freezes a phone: its reads, captures and acts are taken and never answered, until it thaws. */
  freeze(device: string): void;
  /** Thaws a phone: requests from now on are answered (those already held stay unanswered). */
  thaw(device: string): void;
  /** Replaces the lab until the next reset: `true` for LAB_PRESET, undefined or false for none. */
  setLab(lab: boolean | LabOptions | undefined): void;
  /** Phones (thawed, clocks as at the start, fingers lifted, clipboards empty), messages, behaviour, faults, lab, tokens and counters back to the start. */
  reset(): void;
  /** Every token handed out so far stops working. */
  expireTokens(): void;
  /** Requests counted per operation since the start or the last reset. */
  stats(): SimulatorStats;
  /**
   * The acts made through the vendor's routes since the start or the last reset, oldest first: taps, touches,
   * swipes, long presses, keys, text and app changes, each with the route it came through (`via`). Where a
   * phone's finger is down now is in {@link phones} (`finger`).
   */
  acts(): Act[];
  /** The screen a phone shows now, as PNG bytes. */
  screenshot(device: string): Buffer;
  /** Stops listening, drops every connection (idle keep-alive ones and held requests too), aborts uploads in progress. */
  close(): Promise<void>;
}

/**
 * Starts the embedded device-control simulator.
 * @param options port, host, scenario, credentials, storage, behaviours, faults… (see {@link SimulatorOptions})
 * @default options {} — port 8090 on 127.0.0.1, the built-in scenario, sigma / 3D391497
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const opts = resolveOptions(options);
  const scenario = loadScenario(opts.scenario ?? DEFAULT_SCENARIO, opts.scenarioDir);
  const state = new SimulatorState(scenario, { behaviour: opts.behaviour, faults: opts.faults, lab: opts.lab, clockOffsetMs: opts.clockOffsetMs }, opts.now);
  const table = routeTable(opts.apiRoot, opts.capabilities, opts.acts, opts.elements);
  const routes = table.primary;
  const ownStorage = opts.storage === undefined;
  const storageRoot = opts.storage === undefined ? await mkdtemp(path.join(tmpdir(), 'phonewright-sim-')) : path.resolve(opts.storage);
  if (!ownStorage) await mkdir(storageRoot, { recursive: true });
  const realRoot = await realpath(storageRoot);
  const listening = { host: opts.host, port: 0 };
  const ctx: DispatchContext = {
    state,
    table,
    credentials: `${opts.user}:${opts.password}`,
    adminKey: opts.adminKey,
    missingRoutes: opts.missingRoutes,
    log: opts.log,
    timers: new Set(),
    held: new Set(),
    port: () => listening.port,
    ocr: opts.ocr,
    upload: {
      realRoot,
      allowAbsolute: opts.allowAbsoluteUploads,
      maxBytes: opts.maxUploadBytes,
      names: new NameAllocator(),
      now: opts.now,
      active: new Set(),
      fileUrl: (target, file, name, req) => fileUrlFor(target, file, name, req.headers.host, listening, routes, state.behaviour.fileUrl),
    },
  };
  const server = createServer({ keepAlive: true, maxHeaderSize: MAX_HEADER_BYTES }, createRequestHandler(ctx));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket));
  try {
    await listen(server, opts.port, opts.host);
  } catch (e) {
    if (ownStorage) await rm(storageRoot, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} on ${opts.host} is in use`, { hint: '--port 0 for any free port, or stop what listens there', cause: e });
    throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${code ?? (e as Error).message})`, { hint: 'check --host and --port', cause: e });
  }
  listening.port = (server.address() as AddressInfo).port;
  const urlHost = urlHostFor(opts.host);
  const known = (device: string) => {
    const phone = state.find(device);
    if (!phone) throw new UsageError(`no phone ${JSON.stringify(device)} in this simulator`, { hint: `one of ${[...state.phones.keys()].join(', ')}` });
    return phone;
  };
  let closed: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${listening.port}`,
    host: opts.host,
    port: listening.port,
    apiRoot: routes.apiRoot,
    apiRoots: table.all.map((r) => r.apiRoot),
    user: opts.user,
    password: opts.password,
    adminKey: opts.adminKey,
    storageRoot: realRoot,
    get mainDevice() {
      return state.main;
    },
    get phones() {
      return state.info();
    },
    get behaviour() {
      return { ...state.behaviour };
    },
    get lab() {
      return state.lab;
    },
    setScreen: (device, screen) => state.setScreen(device, screen),
    fillRect: (device, rect) => state.fillRect(device, rect),
    postNotification: (post) => state.postNotification(post),
    setSettings: (device, settings) => state.setSettings(device, settings),
    setOnline: (device, online) => state.setOnline(device, online),
    setClipboard: (device, text) => state.setClipboard(device, text),
    setFaults: (faults) => state.setFaults(faults),
    setBehaviour: (behaviour) => state.setBehaviour(behaviour),
    setClockOffset: (device, ms) => state.setClockOffset(device, ms),
    freeze: (device) => state.setFrozen(device, true),
    thaw: (device) => state.setFrozen(device, false),
    setLab: (lab) => state.setLab(lab),
    reset: () => state.reset(),
    expireTokens: () => state.tokens.clear(),
    stats: () => structuredClone(state.stats),
    acts: () => structuredClone(state.acts),
    screenshot: (device) => state.screenOf(known(device)).toPng(),
    screenInfo: (device) => screenInfo(state, known(device)),
    close: () =>
      (closed ??= (async () => {
        for (const timer of ctx.timers) clearTimeout(timer);
        ctx.timers.clear();
        for (const abort of [...ctx.upload.active]) abort();
        for (const res of [...ctx.held]) res.destroy();
        ctx.held.clear();
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await done;
        if (ownStorage) await rm(storageRoot, { recursive: true, force: true });
      })()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Malformed requests (huge headers, bad request lines) get a JSON answer and a closed connection, never a crash. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (error.code === 'ECONNRESET')) return void socket.destroy();
  const [status, reason] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const body = failure(`bad request: ${error.code ?? error.message}`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function urlHostFor(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
