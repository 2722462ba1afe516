import { OPERATIONS, type Operation } from '../core/routes.js';
import { isInt } from './check.js';
import { seededRandom } from './prng.js';

/** A latency: a fixed number of milliseconds, or a `[min, max]` range drawn from uniformly. */
export type Latency = number | readonly [number, number];

/**
 * What makes the simulator behave like a phone lab (the answers servers differ on in latency, phone
 * clocks and screen reads). `lab: true` means {@link LAB_PRESET}.
 */
export interface LabOptions {
  /** Per interface operation: a fixed ms or a `[min, max]` range, drawn from a generator seeded with `seed`. */
  latencyMs?: Partial<Record<Operation, Latency>>;
  /**
   * One phone's pixel reads and screen captures are served one at a time (a lab server grabs a frame per
   * read): each waits for the previous one of that phone to finish its frame grab (`screenGrabMs`; without
   * it, its whole latency). Reads of different phones overlap.
   */
  serialScreenReads?: boolean;
  /**
   * With `serialScreenReads`: the frame grab, the part of a pixel read that one phone serves one at a time.
   * The pixel latency of `latencyMs` then comes on top, and overlaps with other reads (the round trip).
   */
  screenGrabMs?: Latency;
  /** Phone id or name → clock offset in ms, over the scenario's `clockOffsetMs`. */
  clockOffsetMs?: Record<string, number>;
  /**
   * Offsets handed to the scenario's phones by their place in the list (cycled), for phones whose offset
   * nothing else sets.
   */
  clockOffsetCycleMs?: readonly number[];
  /** @default 1 */
  seed?: number;
}

/** A phone's clock may be off by up to a day either way: more is a typo (seconds written as ms × 1000). */
export const MAX_CLOCK_OFFSET_MS = 86_400_000;
/** Ten minutes: longer than any deadline a test sets, so a larger figure is a mistake. */
export const MAX_LATENCY_MS = 600_000;

const KEYS = ['latencyMs', 'serialScreenReads', 'screenGrabMs', 'clockOffsetMs', 'clockOffsetCycleMs', 'seed'];
const MIN = 60_000;

/**
 * `lab: true`. Figures of a phone lab: a pixel read takes 20–80 ms end to end, of which the frame grab
 * (3–7 ms) is served one read at a time per phone, so a phone serves about 200 reads a second however many
 * are asked at once; settings and notifications go through the phone's agent (tens of ms); login and
 * uploads touch the server's disk; a screen capture grabs a frame (serially, as a read) and writes an image;
 * a tap, a key or text typed goes through the phone's input agent (`screen/inputs`, `screen/texts`) or its
 * script engine (the JS bridge) alike, a phone's app list through its agent, and starting an app takes a few
 * hundred ms.
 * Clocks are minutes and seconds off, both ways.
 */
export const LAB_PRESET: Readonly<LabOptions> = deepFreeze({
  latencyMs: { pixel: [20, 80], settings: [20, 60], notifications: [20, 80], login: [50, 150], mainDevice: [10, 40], upload: [50, 150], download: [5, 20], capture: [80, 200], captureFile: [5, 20], inputs: [30, 120], texts: [30, 120], script: [30, 120], appState: [200, 600], apps: [20, 80], aai: [40, 200] },
  serialScreenReads: true,
  screenGrabMs: [3, 7],
  clockOffsetCycleMs: [5 * MIN, -3 * MIN, 47_000, -90_000, 10 * MIN, -10 * MIN],
  seed: 1,
});

/**
 * Checks a lab setting written by a user: `true` (the preset), `false` or `{}` (no lab), or an object.
 * Returns the problem as text (the caller wraps it in the error type that fits), false for "no lab", or the
 * checked options. Phone names in `clockOffsetMs` are checked later, against the phones ({@link checkOffsetKeys}).
 * @param input the parsed setting
 * @param where how it is named in messages, e.g. `lab`
 */
export function checkLab(input: unknown, where: string): LabOptions | false | string {
  if (input === true) return structuredClone(LAB_PRESET) as LabOptions;
  if (input === false) return false;
  if (!input || typeof input !== 'object' || Array.isArray(input)) return `${where} is ${JSON.stringify(input)}; write true (the lab preset), false, or an object such as {"latencyMs": {"pixel": [2, 8]}, "serialScreenReads": true}`;
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KEYS.includes(key)) return `${where}.${key} is not a lab setting; write one of ${KEYS.join(', ')}`;
  if (Object.keys(o).length === 0) return false;
  const out: LabOptions = {};
  if (o.latencyMs !== undefined) {
    const latency = checkLatencies(o.latencyMs, `${where}.latencyMs`);
    if (typeof latency === 'string') return latency;
    out.latencyMs = latency;
  }
  if (o.serialScreenReads !== undefined) {
    if (typeof o.serialScreenReads !== 'boolean') return `${where}.serialScreenReads is ${JSON.stringify(o.serialScreenReads)}; write true or false`;
    out.serialScreenReads = o.serialScreenReads;
  }
  if (o.screenGrabMs !== undefined) {
    const grab = checkLatencies({ pixel: o.screenGrabMs }, where);
    if (typeof grab === 'string') return grab.replace(`${where}.pixel`, `${where}.screenGrabMs`);
    out.screenGrabMs = grab.pixel!;
  }
  if (o.clockOffsetMs !== undefined) {
    const offsets = checkOffsets(o.clockOffsetMs, `${where}.clockOffsetMs`);
    if (typeof offsets === 'string') return offsets;
    out.clockOffsetMs = offsets;
  }
  if (o.clockOffsetCycleMs !== undefined) {
    const cycle = o.clockOffsetCycleMs;
    if (!Array.isArray(cycle)) return `${where}.clockOffsetCycleMs is ${JSON.stringify(cycle)}; write a list of offsets in ms, e.g. [300000, -180000]`;
    const bad = cycle.findIndex((v) => !isClockOffset(v));
    if (bad >= 0) return `${where}.clockOffsetCycleMs[${bad}] is ${JSON.stringify(cycle[bad])}; ${OFFSET_HINT}`;
    out.clockOffsetCycleMs = [...(cycle as number[])];
  }
  if (o.seed !== undefined) {
    if (!isInt(o.seed, 0, 2 ** 32 - 1)) return `${where}.seed is ${JSON.stringify(o.seed)}; write an integer from 0 to ${2 ** 32 - 1}`;
    out.seed = o.seed;
  }
  return out;
}

/** What to write for a clock offset, for messages. */
export const OFFSET_HINT = `write the clock offset in milliseconds, an integer from -${MAX_CLOCK_OFFSET_MS} to ${MAX_CLOCK_OFFSET_MS} (e.g. 300000: five minutes ahead)`;

/** True for an offset a phone's clock may have. */
export function isClockOffset(v: unknown): v is number {
  return isInt(v, -MAX_CLOCK_OFFSET_MS, MAX_CLOCK_OFFSET_MS);
}

/**
 * Checks a map of phone (id or name) → clock offset; the names are checked by {@link checkOffsetKeys}.
 * @param where how it is named in messages, e.g. `clockOffsetMs`
 */
export function checkOffsets(input: unknown, where: string): Record<string, number> | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return `${where} is ${JSON.stringify(input)}; write an object of phone id or name → offset in ms, e.g. {"pixel-7": -180000}`;
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isClockOffset(value)) return `${where}.${key} is ${JSON.stringify(value)}; ${OFFSET_HINT}`;
    out[key] = value;
  }
  return out;
}

/**
 * Checks that every key of an offset map names a phone, by id or by name; returns the problem as text.
 * @param where how the map is named in messages
 */
export function checkOffsetKeys(offsets: Record<string, number> | undefined, phones: readonly { id: string; name: string }[], where: string): string | undefined {
  for (const key of Object.keys(offsets ?? {})) {
    if (!phones.some((p) => p.id === key || p.name === key)) {
      return `${where} names ${JSON.stringify(key)}, which is not a phone here; write the id or name of one of the phones: ${phones.map((p) => `${p.id} (${p.name})`).join(', ')}`;
    }
  }
  return undefined;
}

/**
 * Each phone's clock offset, in the phones' order. The first that is set wins: the options' offsets, the
 * lab's, the phone's own `clockOffsetMs` in the scenario, the lab's cycle (by the phone's place), 0.
 * @param phones the scenario's phones
 * @param given the options' offsets (phone id or name → ms)
 */
export function clockOffsets(phones: readonly { id: string; name: string; clockOffsetMs?: number | undefined }[], lab: LabOptions | undefined, given: Record<string, number> | undefined): number[] {
  const cycle = lab?.clockOffsetCycleMs ?? [];
  return phones.map((p, i) => {
    const named = (map: Record<string, number> | undefined) => (map ? (Object.hasOwn(map, p.id) ? map[p.id] : Object.hasOwn(map, p.name) ? map[p.name] : undefined) : undefined);
    return named(given) ?? named(lab?.clockOffsetMs) ?? p.clockOffsetMs ?? (cycle.length > 0 ? cycle[i % cycle.length]! : 0);
  });
}

/**
 * The lab's latency at run time, or undefined when it holds nothing back (a lab of clock offsets only
 * costs the hot path nothing).
 */
export function labLatency(lab: LabOptions | undefined): LabLatency | undefined {
  const some = (l: Latency) => (typeof l === 'number' ? l > 0 : l[1] > 0);
  // A serial frame grab holds reads back on its own, with no latency per operation beside it.
  const grabs = lab?.serialScreenReads === true && lab.screenGrabMs !== undefined && some(lab.screenGrabMs);
  return grabs || Object.values(lab?.latencyMs ?? {}).some(some) ? new LabLatency(lab!) : undefined;
}

/**
 * The lab's latency at run time: how long each request of the interface is held back before it is served,
 * and when each phone's screen is next free when reads are serial.
 */
export class LabLatency {
  #ranges = new Map<Operation, readonly [number, number]>();
  #serial: boolean;
  #grab: readonly [number, number] | undefined;
  #random: () => number;
  /**
   * Phone → the moment (performance.now()) its last scheduled screen read finishes. A read starts at
   * max(now, busy until): no queue to drain, nothing to cancel on close but the timers.
   */
  #busyUntil = new Map<string, number>();

  constructor(lab: LabOptions) {
    for (const [op, latency] of Object.entries(lab.latencyMs ?? {}) as [Operation, Latency][]) {
      this.#ranges.set(op, typeof latency === 'number' ? [latency, latency] : latency);
    }
    this.#serial = lab.serialScreenReads ?? false;
    const grab = lab.screenGrabMs;
    this.#grab = grab === undefined ? undefined : typeof grab === 'number' ? [grab, grab] : grab;
    this.#random = seededRandom(lab.seed ?? 1);
  }

  /**
   * Milliseconds from `now` until a request of `op` may be served; for a serial screen read, it also books
   * the phone's screen until then.
   * @param device the phone of a pixel or settings request
   * @param now performance.now() at the request's arrival
   */
  delay(op: Operation, device: string | undefined, now: number): number {
    const ms = this.#draw(this.#ranges.get(op));
    if ((op !== 'pixel' && op !== 'capture') || !this.#serial || device === undefined) return ms;
    // The phone's serial part: the frame grab when one is set (the round trip `ms` then comes on top and
    // overlaps with other reads), else the whole read.
    const serial = this.#grab ? this.#draw(this.#grab) : ms;
    const busy = this.#busyUntil.get(device);
    const end = (busy !== undefined && busy > now ? busy : now) + serial;
    // Device ids come from request paths: forget phones that are free again before a client's made-up ids pile up.
    if (busy === undefined && this.#busyUntil.size >= MAX_TRACKED) for (const [id, until] of this.#busyUntil) if (until <= now) this.#busyUntil.delete(id);
    this.#busyUntil.set(device, end);
    return end - now + (this.#grab ? ms : 0);
  }

  /** A latency drawn from a range: whole milliseconds, both ends included (what a timer can wait anyway). */
  #draw(range: readonly [number, number] | undefined): number {
    return range === undefined ? 0 : range[0] + Math.floor(this.#random() * (range[1] - range[0] + 1));
  }
}

/** More phones than any lab has; past this, phones whose screen is free are forgotten. */
const MAX_TRACKED = 1_024;

function checkLatencies(input: unknown, where: string): Partial<Record<Operation, Latency>> | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return `${where} is ${JSON.stringify(input)}; write an object such as {"pixel": [2, 8], "settings": 40}`;
  const out: Partial<Record<Operation, Latency>> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!OPERATIONS.includes(key as Operation)) return `${where}.${key} is not an operation; write one of ${OPERATIONS.join(', ')}`;
    const fixed = isInt(value, 0, MAX_LATENCY_MS);
    const range = Array.isArray(value) && value.length === 2 && isInt(value[0], 0, MAX_LATENCY_MS) && isInt(value[1], value[0] as number, MAX_LATENCY_MS);
    if (!fixed && !range) return `${where}.${key} is ${JSON.stringify(value)}; write whole milliseconds from 0 to ${MAX_LATENCY_MS}, or a range [min, max] with min ≤ max`;
    out[key as Operation] = fixed ? (value as number) : ([value[0], value[1]] as [number, number]);
  }
  return out;
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (inner && typeof inner === 'object') deepFreeze(inner as object);
  return Object.freeze(value);
}
