import type { ActRoute, PathPoint } from './act-log.js';
import type { Phone } from './phone.js';
import type { SimulatorState } from './state.js';

/** Most points a path may have here. */
const MAX_POINTS = 100;

/** How a route writes its paths. */
export interface PathForm {
  /** What the route calls the list, for messages: `swipe`, `coord`. */
  name: string;
  /** Whether each point must carry its time (`[x,y,ms]`), or may leave it out (`[x,y]`). */
  ms: 'required' | 'optional';
  /** Whether numbers below 1 with a fraction are fractions of the screen (the JS bridge's scripts allow it). */
  fractions: boolean;
}

/**
 * Reads a path `[[x,y,ms],[x,y,ms],…]` (as JSON text, or the list itself from a JSON body) into points on
 * the phone's screen, or says what is wrong: the form, or the first point off the screen with the screen's size.
 */
export function parsePath(raw: unknown, size: { width: number; height: number }, form: PathForm): PathPoint[] | string {
  const { width, height } = size;
  const shape = form.ms === 'required' ? '[[x,y,ms],[x,y,ms],…]' : '[[x,y,ms],[x,y,ms],…] (the ms may be left out: [[x,y],[x,y],…])';
  const wrong = `${form.name} takes ${shape} with two to ${MAX_POINTS} points; got ${JSON.stringify(typeof raw === 'string' ? raw.slice(0, 200) : raw)?.slice(0, 200)}`;
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      return wrong;
    }
  }
  if (!Array.isArray(list) || list.length < 2 || list.length > MAX_POINTS) return wrong;
  const points: PathPoint[] = [];
  for (const p of list) {
    const lengthOk = Array.isArray(p) && (p.length === 3 || (p.length === 2 && form.ms === 'optional'));
    if (!lengthOk || !p.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return wrong;
    const [x, y] = [p[0] as number, p[1] as number].map((n, i) => (form.fractions && !Number.isInteger(n) && n < 1 ? Math.floor(n * (i ? height : width)) : n)) as [number, number];
    const ms = (p[2] as number | undefined) ?? 0;
    if (!Number.isInteger(ms)) return wrong;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x >= width || y >= height) return `${form.name}: ${offScreen(p[0] as number, p[1] as number, size)}`;
    points.push({ x, y, ms });
  }
  return points;
}

/**
 * Acts a path out: the first point presses, the middle ones move, the last releases. Every point the same is
 * a long press, held for the sum of the times; else a swipe from the first point to the last, which moves the
 * screen's scrolling rectangles by that (dx, dy), as a list follows the finger. The finger ends up lifted.
 */
export function performPath(state: SimulatorState, phone: Phone, points: readonly PathPoint[], via: ActRoute): void {
  const from = points[0]!;
  const to = points[points.length - 1]!;
  const durationMs = points.reduce((sum, p) => sum + p.ms, 0);
  const path = points.length > 2 ? { path: points.map((p) => ({ ...p })) } : {};
  phone.finger = undefined;
  if (points.every((p) => p.x === from.x && p.y === from.y)) {
    state.record({ device: phone.id, via, kind: 'long-press', x: from.x, y: from.y, durationMs, ...path, at: state.now() });
    return;
  }
  state.record({ device: phone.id, via, kind: 'swipe', from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y }, durationMs, ...path, at: state.now() });
  phone.scroll(to.x - from.x, to.y - from.y);
}

/** A swipe in one direction: the vendor does not say how far, so half the screen, through its centre. */
export function performDirection(state: SimulatorState, phone: Phone, direction: 'up' | 'down' | 'left' | 'right'): void {
  const { width, height } = phone.size;
  const [cx, cy] = [Math.floor(width / 2), Math.floor(height / 2)];
  const [near, far] = direction === 'up' || direction === 'down' ? [Math.floor(height / 4), Math.floor((height * 3) / 4)] : [Math.floor(width / 4), Math.floor((width * 3) / 4)];
  const ends = {
    up: [{ x: cx, y: far }, { x: cx, y: near }],
    down: [{ x: cx, y: near }, { x: cx, y: far }],
    left: [{ x: far, y: cy }, { x: near, y: cy }],
    right: [{ x: near, y: cy }, { x: far, y: cy }],
  }[direction];
  const [from, to] = ends as [{ x: number; y: number }, { x: number; y: number }];
  phone.finger = undefined;
  state.record({ device: phone.id, via: 'inputs', kind: 'directional-swipe', direction, from, to, at: state.now() });
  phone.scroll(to.x - from.x, to.y - from.y);
}

/** The message for a point off the screen: the point as sent, and the screen's size. */
export function offScreen(x: unknown, y: unknown, size: { width: number; height: number }): string {
  return `(${String(x)}, ${String(y)}) is not on the screen (${size.width}×${size.height}): x from 0 to ${size.width - 1}, y from 0 to ${size.height - 1}`;
}
