import { OPERATIONS, type Operation } from '../core/routes.js';
import { seededRandom } from './prng.js';

/** Faults to inject into the interface's answers (never into the admin API). */
export interface FaultSpec {
  /** Added before every answer, in milliseconds. */
  latencyMs?: number;
  /** Share of requests (0..1) whose connection is destroyed before any answer. */
  resetRate?: number;
  /** Share of requests (0..1) answered with HTTP 200 and an HTML body. */
  notJsonRate?: number;
  /** Share of requests (0..1) answered with `errorStatus`. */
  errorRate?: number;
  /**
   * Share of requests (0..1) accepted and never answered: the connection stays open until the client gives
   * up. `{hangRate: 1, operations: ['notifications']}` is a stuck notification list.
   */
  hangRate?: number;
  /** The next this many requests are answered with `errorStatus`. */
  errorBurst?: number;
  /** @default 503 */
  errorStatus?: number;
  /** Only these operations are affected. @default every operation */
  operations?: Operation[];
  /** Seed of the generator behind the rates, so a run can be repeated. @default 1 */
  seed?: number;
}

/** What to do to one request. */
export interface FaultDecision {
  latencyMs: number;
  action: 'reset' | 'notJson' | 'error' | 'hang' | undefined;
  status: number;
}

const RATES = ['resetRate', 'notJsonRate', 'errorRate', 'hangRate'] as const;

/**
 * Checks a fault specification; returns the problem as text, or the checked specification.
 * @param input the parsed specification
 */
export function checkFaults(input: unknown): FaultSpec | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return 'faults must be an object such as {"errorBurst": 2, "errorStatus": 503}';
  const f = input as Record<string, unknown>;
  const known = ['latencyMs', 'errorBurst', 'errorStatus', 'operations', 'seed', ...RATES];
  for (const key of Object.keys(f)) if (!known.includes(key)) return `faults.${key} is not a fault; write one of ${known.join(', ')}`;
  for (const key of RATES) {
    const v = f[key];
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1))) return `faults.${key} is ${JSON.stringify(v)}; write a share from 0 to 1`;
  }
  const ints: [string, number, number][] = [['latencyMs', 0, 600_000], ['errorBurst', 0, 1_000_000], ['errorStatus', 500, 599], ['seed', 0, 2 ** 32 - 1]];
  for (const [key, min, max] of ints) {
    const v = f[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) return `faults.${key} is ${JSON.stringify(v)}; write an integer from ${min} to ${max}`;
  }
  if (f.operations !== undefined && (!Array.isArray(f.operations) || f.operations.some((o) => !OPERATIONS.includes(o as Operation)))) {
    return `faults.operations is ${JSON.stringify(f.operations)}; write a list of ${OPERATIONS.join(', ')}`;
  }
  return { ...(f as FaultSpec) };
}

/** Decides, request by request, which fault to inject. Deterministic for a given seed and request order. */
export class FaultInjector {
  #spec: FaultSpec = {};
  #random = seededRandom(1);
  #burstLeft = 0;
  #active = false;

  /** True when any fault is set (the hot path skips the injector otherwise). */
  get active(): boolean {
    return this.#active;
  }

  /** The faults in force, with the burst's remaining count. */
  get spec(): FaultSpec {
    return { ...this.#spec, ...(this.#spec.errorBurst !== undefined ? { errorBurst: this.#burstLeft } : {}) };
  }

  /** Replaces the faults (undefined: none) and restarts the generator from the seed. */
  set(spec: FaultSpec | undefined): void {
    this.#spec = spec ? { ...spec } : {};
    this.#random = seededRandom(this.#spec.seed ?? 1);
    this.#burstLeft = this.#spec.errorBurst ?? 0;
    const s = this.#spec;
    this.#active = Boolean(s.latencyMs || s.resetRate || s.notJsonRate || s.errorRate || s.hangRate || this.#burstLeft);
  }

  /** The fault for one request of `op`, or undefined. */
  decide(op: Operation): FaultDecision | undefined {
    const s = this.#spec;
    if (s.operations && !s.operations.includes(op)) return undefined;
    const decision: FaultDecision = { latencyMs: s.latencyMs ?? 0, action: undefined, status: s.errorStatus ?? 503 };
    if (this.#burstLeft > 0) {
      this.#burstLeft--;
      decision.action = 'error';
    } else if (s.resetRate && this.#random() < s.resetRate) {
      decision.action = 'reset';
    } else if (s.notJsonRate && this.#random() < s.notJsonRate) {
      decision.action = 'notJson';
    } else if (s.errorRate && this.#random() < s.errorRate) {
      decision.action = 'error';
    } else if (s.hangRate && this.#random() < s.hangRate) {
      // Drawn last, so a seed gives the same resets and errors as before hangRate existed.
      decision.action = 'hang';
    }
    return decision.latencyMs > 0 || decision.action ? decision : undefined;
  }
}
