import type { DeviceId } from '../core/device-id.js';

/** An act made on a phone through the vendor's routes: a tap, a swipe, a long press, a key, text typed, an app started or closed. */
export type Act =
  | { device: DeviceId; kind: 'tap'; x: number; y: number; at: number }
  | { device: DeviceId; kind: 'swipe'; from: { x: number; y: number }; to: { x: number; y: number }; durationMs: number; at: number }
  | { device: DeviceId; kind: 'long-press'; x: number; y: number; durationMs: number; at: number }
  | { device: DeviceId; kind: 'text'; text: string; at: number }
  | { device: DeviceId; kind: 'key'; key: string; at: number }
  | { device: DeviceId; kind: 'app'; app: string; state: 'active' | 'inactive' | 'restart'; at: number };

/** Acts kept for the admin API and the handle; older ones fall off. */
export const ACTS_KEPT = 1_000;

/** Keeps an act, the oldest falling off past {@link ACTS_KEPT}. */
export function recordAct(acts: Act[], act: Act): void {
  acts.push(act);
  if (acts.length > ACTS_KEPT) acts.splice(0, acts.length - ACTS_KEPT);
}
