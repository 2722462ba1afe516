import type { Behaviour } from './behaviour.js';
import type { FaultSpec } from './faults.js';
import type { LabOptions } from './lab.js';
import { OPERATIONS, type Operation } from '../core/routes.js';

/** Requests counted since the start (or the last reset): per operation, unknown routes, admin calls. */
export interface SimulatorStats {
  total: number;
  operations: Record<Operation, number>;
  /** Requests to a route the server lacks (under `seed`, the vendor's too, whatever form they answer in). */
  notFound: number;
  admin: number;
}

/** A rectangle to paint: `color` as `0xrrggbb`, `#rrggbb` or `rrggbb`. */
export interface RectFill {
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
}

/**
 * A message to post. Without `time`, the phone stamps it with its own clock (the simulator's plus the phone's
 * offset); a `time` given is kept as it is, and places the message in the list too (to post history).
 */
export interface NotificationPost {
  device: string;
  app: string;
  text: string;
  time?: number;
}

/** What the options set from the start, and again on every reset. */
export interface StartSettings {
  /** The options' behaviour, over the scenario's. */
  behaviour: Partial<Behaviour>;
  faults: FaultSpec | undefined;
  /** undefined: the scenario's lab; false: none. */
  lab: LabOptions | false | undefined;
  /** Phone id or name → clock offset in ms, over the lab's and the scenario's. */
  clockOffsetMs: Record<string, number> | undefined;
}

/** Counters at zero, every operation listed. */
export function emptyStats(): SimulatorStats {
  return { total: 0, notFound: 0, admin: 0, operations: Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as Record<Operation, number> };
}
