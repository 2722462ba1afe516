// The acts a phone takes (taps, keys, swipes, long presses, text) and the two forms a server takes them in:
// `screen/inputs` and `screen/texts`, what every public client of the vendor's server sends, and the JS bridge
// (`scripts?cmd=…`), from the server release that added it. docs/capabilities.md says where each form comes from.
import { UsageError } from '../core/errors.js';
import { checkCoordinate } from './wire.js';

/** A point of the screen, in pixels. */
export interface Point {
  x: number;
  y: number;
}

/** One act, as data: checked once, then written in the form of whichever route the server offers. */
export type Act =
  | { kind: 'tap'; at: Point }
  | { kind: 'key'; key: Key }
  | { kind: 'swipe'; from: Point; to: Point; durationMs: number }
  | { kind: 'long press'; at: Point; durationMs: number }
  | { kind: 'text'; text: string };

/** A key: its everyday name where it has one (what `screen/inputs` takes), and the JS bridge's constant. */
export interface Key {
  name: KeyName | undefined;
  constant: string;
}

/** The keys `screen/inputs` takes by name (`code=…`), each with the JS bridge's constant for it. */
export const KEY_CONSTANTS = {
  home: 'KEY_HOME',
  back: 'KEY_BACK',
  menu: 'KEY_MENU',
  space: 'KEY_SPACE',
  backspace: 'KEY_BACK_SPACE',
  enter: 'KEY_ENTER',
  up: 'KEY_UP',
  down: 'KEY_DOWN',
  left: 'KEY_LEFT',
  right: 'KEY_RIGHT',
  power: 'KEY_POWER',
  recentapp: 'KEY_RECENTAPP',
} as const;

export type KeyName = keyof typeof KEY_CONSTANTS;

/** Every key name, in the order above. */
export const KEY_NAMES = Object.keys(KEY_CONSTANTS) as KeyName[];
/** Longest gesture taken, in ms: a minute is far past any swipe or hold an app waits for. */
export const MAX_GESTURE_MS = 60_000;
/** Longest text typed in one act, in characters; a longer text is typed in parts. */
export const MAX_TEXT = 1_000;

const RAW_KEY = /^KEY_[A-Z0-9_]{1,40}$/;
/** An Android package name: two or more dot-separated parts, each a letter then letters, digits or `_`. */
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const BY_CONSTANT = new Map(KEY_NAMES.map((name) => [KEY_CONSTANTS[name] as string, name]));

/** The act's name in messages and steps. */
export function actName(act: Act): string {
  return act.kind === 'key' ? 'press' : act.kind === 'text' ? 'type' : act.kind;
}

/** The points an act touches. */
export function actPoints(act: Act): Point[] {
  if (act.kind === 'tap' || act.kind === 'long press') return [act.at];
  return act.kind === 'swipe' ? [act.from, act.to] : [];
}

/**
 * Checks an act given by a user, before anything is sent: whole pixels, a duration from 1 ms to a minute, a
 * text of 1 to {@link MAX_TEXT} characters.
 */
export function checkAct(act: Act): void {
  for (const p of actPoints(act)) {
    checkCoordinate('x', p?.x);
    checkCoordinate('y', p?.y);
  }
  if (act.kind === 'swipe' || act.kind === 'long press') checkGestureMs(act.durationMs);
  if (act.kind === 'text') checkText(act.text);
}

/**
 * The form body of an act through `screen/inputs` (or, for text, `screen/texts`), the token with its
 * arguments, as the public clients send them: `x`, `y`, `state=press` for a tap; `code`, `state=press` for a
 * key; a point list `coord=[[x,y,ms],…]` for a swipe or a hold (the first point presses, the last releases,
 * each point's ms the time taken to reach it); `text` for text. Undefined for a key that has no name there.
 * @param token the token, already URL-encoded
 */
export function inputsForm(act: Act, token: string): string | undefined {
  let fields: string;
  if (act.kind === 'tap') fields = `x=${act.at.x}&y=${act.at.y}&state=press`;
  else if (act.kind === 'key') {
    if (act.key.name === undefined) return undefined;
    fields = `code=${act.key.name}&state=press`;
  } else if (act.kind === 'text') fields = `text=${encodeURIComponent(act.text)}`;
  else fields = `coord=${encodeURIComponent(pointList(act))}`;
  return `${fields}&token=${token}`;
}

/** The JS bridge's query for an act: `cmd=<function>&param=<argument written as JavaScript>`. */
export function bridgeQuery(act: Act): string {
  if (act.kind === 'tap') return `cmd=click&param=[${act.at.x},${act.at.y}]`;
  if (act.kind === 'key') return `cmd=send&param=sigmaConst.${act.key.constant}`;
  if (act.kind === 'text') return `cmd=inputText&param=${encodeURIComponent(JSON.stringify(act.text))}`;
  return `cmd=swipe&param=${pointList(act)}`;
}

/**
 * Reads a key given by a user: one of {@link KEY_NAMES} (any case), or a JS bridge constant (`KEY_VOLUME_UP`),
 * which goes through the bridge only unless it is one of the named keys'.
 */
export function checkKey(key: string): Key {
  const lower = String(key).toLowerCase() as KeyName;
  if (Object.hasOwn(KEY_CONSTANTS, lower)) return { name: lower, constant: KEY_CONSTANTS[lower] };
  if (typeof key === 'string' && RAW_KEY.test(key)) return { name: BY_CONSTANT.get(key), constant: key };
  throw new UsageError(`invalid key ${JSON.stringify(String(key).slice(0, 40))}: expected ${KEY_NAMES.join(', ')}, or a constant of the vendor's scripting library such as KEY_VOLUME_UP`);
}

/** Checks a gesture's duration given by a user: whole milliseconds from 1 to {@link MAX_GESTURE_MS}. */
export function checkGestureMs(durationMs: number): void {
  if (!Number.isInteger(durationMs) || durationMs < 1 || durationMs > MAX_GESTURE_MS) {
    throw new UsageError(`invalid duration ${String(durationMs)}: expected a whole number of milliseconds from 1 to ${MAX_GESTURE_MS}`);
  }
}

/** Checks a text to type given by a user: 1 to {@link MAX_TEXT} characters. */
export function checkText(text: string): void {
  if (typeof text !== 'string' || text.length < 1 || text.length > MAX_TEXT) {
    const got = typeof text === 'string' ? `${text.length} characters` : typeof text;
    throw new UsageError(`invalid text to type (${got}): expected 1 to ${MAX_TEXT} characters`, typeof text === 'string' && text.length > MAX_TEXT ? { hint: 'type a longer text in parts, one act each' } : {});
  }
}

/** Checks an app's package name given by a user. */
export function checkPackage(pkg: string): void {
  if (typeof pkg !== 'string' || pkg.length > 255 || !PACKAGE.test(pkg)) {
    throw new UsageError(`invalid package name ${JSON.stringify(String(pkg).slice(0, 80))}: expected an Android package such as com.example.chat`);
  }
}

/**
 * A gesture's point list, `[[x1,y1,0],[x2,y2,ms]]`: the finger goes down at the first point and is lifted at the
 * last, `ms` later. The same point twice is a hold in place, a long press, in one request, so that a failed act
 * can never leave the finger down.
 */
function pointList(act: Extract<Act, { kind: 'swipe' | 'long press' }>): string {
  const [from, to] = act.kind === 'swipe' ? [act.from, act.to] : [act.at, act.at];
  return `[[${from.x},${from.y},0],[${to.x},${to.y},${act.durationMs}]]`;
}
