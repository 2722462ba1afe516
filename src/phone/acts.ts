import type { CallOptions } from '../client/index.js';
import { resolvePoint, type Coordinate, type ResolvedPoint } from '../core/fraction.js';
import { checkPointOnScreen } from '../core/screen.js';
import type { Phone, ReadOptions } from './phone.js';

/** A point as a spec gives it: pixels, or percentages of the screen (`{ x: '50%', y: '80%' }`). */
export interface PointInput {
  x: Coordinate;
  y: Coordinate;
}

/** Options of a gesture: its duration, and the deadline of every act. */
export interface GestureOptions extends ReadOptions {
  /** How long the finger is on the screen, in whole ms (1 to 60 000). @default 300 for a swipe, 1000 for a long press */
  durationMs?: number;
}

/** How long a swipe takes unless told, in ms: a deliberate scroll rather than a fling. */
export const SWIPE_MS = 300;
/** How long a long press holds unless told, in ms: past Android's long-press timeout (500 ms by default). */
export const LONG_PRESS_MS = 1_000;

// A phone's acts through the vendor's routes beyond the interface (taps, keys, apps, gestures, text). A server
// without the route fails the act with one line that says so. Each is one `Phone.act`: its input checked first,
// then sent after the phone's notification waiters are armed, never sent twice once the server may have done it.

/** See {@link Phone.tap}: a tap at a point. */
export function tap(phone: Phone, x: Coordinate, y: Coordinate, options: ReadOptions = {}): Promise<void> {
  let at: ResolvedPoint;
  const check = () => void ([at] = points(phone, [{ x, y }]) as [ResolvedPoint]);
  return phone.act(`tap (${x}, ${y})`, { x, y }, options, (o) => phone.client.tap(phone.id, at.x, at.y, o), check);
}

/** See {@link Phone.press}. */
export function press(phone: Phone, key: string, options: ReadOptions = {}): Promise<void> {
  return phone.act(`press ${key}`, { key }, options, (o) => phone.client.press(phone.id, key, o));
}

/** See {@link Phone.launch} and {@link Phone.closeApp}. */
export function setApp(phone: Phone, pkg: string, state: 'active' | 'inactive', options: ReadOptions = {}): Promise<void> {
  const what = `${state === 'active' ? 'launch' : 'close'} ${pkg}`;
  return phone.act(what, { package: pkg }, options, (o: CallOptions) => phone.client.setAppState(phone.id, pkg, state, o));
}

/** See {@link Phone.swipe}. */
export function swipe(phone: Phone, from: PointInput, to: PointInput, options: GestureOptions = {}): Promise<void> {
  const ms = options.durationMs ?? SWIPE_MS;
  let at: ResolvedPoint[] = [];
  const check = () => void (at = points(phone, [from, to]));
  const params = { from: `(${from.x}, ${from.y})`, to: `(${to.x}, ${to.y})`, durationMs: ms };
  return phone.act(`swipe ${params.from} to ${params.to}`, params, options, (o) => phone.client.swipe(phone.id, at[0]!, at[1]!, ms, o), check);
}

/** See {@link Phone.longPress}. */
export function longPress(phone: Phone, point: PointInput, options: GestureOptions = {}): Promise<void> {
  const ms = options.durationMs ?? LONG_PRESS_MS;
  let at: ResolvedPoint[] = [];
  const check = () => void (at = points(phone, [point]));
  return phone.act(`long press (${point.x}, ${point.y})`, { x: point.x, y: point.y, durationMs: ms }, options, (o) => phone.client.longPress(phone.id, at[0]!, ms, o), check);
}

/** See {@link Phone.type}. The step names the text's length, never the text: it may be a password. */
export function type(phone: Phone, text: string, options: ReadOptions = {}): Promise<void> {
  const length = typeof text === 'string' ? text.length : 0;
  return phone.act(`type ${length} character${length === 1 ? '' : 's'}`, { characters: length }, options, (o) => phone.client.type(phone.id, text, o));
}

/**
 * Points in pixels, percentages resolved on the phone's screen, each refused when off the known screen: called
 * in an act's `check`, so nothing is sent for a point off the screen.
 */
function points(phone: Phone, given: PointInput[]): ResolvedPoint[] {
  return given.map(({ x, y }) => {
    const at = resolvePoint(phone, x, y);
    checkPointOnScreen(phone, at.x, at.y);
    return at;
  });
}
