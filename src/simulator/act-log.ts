import type { DeviceId } from '../core/device-id.js';

/**
 * The route an act came through: `screen/inputs` (taps, touches, keys, paths, directional swipes),
 * `screen/texts` (text typed), the JS bridge (`scripts?cmd=`), an app's state (`apps/<package>`), or the
 * UI-element engine (`sendAai`: a `click` is a tap at the element's centre, a `setText` a text).
 */
export type ActRoute = 'inputs' | 'texts' | 'script' | 'apps' | 'aai';

/** A point of a path, as sent: `ms` is the time given with it (0 when the point came without one). */
export interface PathPoint {
  x: number;
  y: number;
  ms: number;
}

/** What every act carries: the phone, the route it came through, and when (the simulator's clock, ms). */
interface ActBase {
  device: DeviceId;
  via: ActRoute;
  at: number;
}

/**
 * An act made on a phone through the vendor's routes: a tap (down and up), a finger put down, moved or
 * lifted, a swipe, a long press, a directional swipe, text typed, a key (its name as sent: `back` through
 * `screen/inputs`, `KEY_BACK` through the bridge; with the `state` sent through `screen/inputs`), an app
 * started or closed. A swipe or long press of more than two points keeps them all in `path`.
 */
export type Act = ActBase &
  (
    | { kind: 'tap'; x: number; y: number }
    | { kind: 'touch-down' | 'touch-move' | 'touch-up'; x: number; y: number }
    | { kind: 'swipe'; from: { x: number; y: number }; to: { x: number; y: number }; durationMs: number; path?: PathPoint[] }
    | { kind: 'long-press'; x: number; y: number; durationMs: number; path?: PathPoint[] }
    | { kind: 'directional-swipe'; direction: 'up' | 'down' | 'left' | 'right'; from: { x: number; y: number }; to: { x: number; y: number } }
    | { kind: 'text'; text: string }
    | { kind: 'key'; key: string; state?: 'press' | 'down' | 'up' }
    | { kind: 'app'; app: string; state: 'active' | 'inactive' | 'restart' }
  );

/** Acts kept for the admin API and the handle; older ones fall off. */
export const ACTS_KEPT = 1_000;

/** Keeps an act, the oldest falling off past {@link ACTS_KEPT}. */
export function recordAct(acts: Act[], act: Act): void {
  acts.push(act);
  if (acts.length > ACTS_KEPT) acts.splice(0, acts.length - ACTS_KEPT);
}
