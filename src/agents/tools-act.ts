// The tools that act on a phone: tap, long press, swipe, type, press a key, launch and close an app. Each is the
// phone layer's act (its input checked first, the vendor's probed route, the call's deadline, never sent twice),
// holding the phone's lease where phones are leased, and answers with the screen after unless told not to.
import { UsageError } from '../core/errors.js';
import type { Phone } from '../phone/index.js';
import { COORD, LOCATOR, object, PHONE, text, TIMEOUT, whole, type ArgSchema } from './args.js';
import { locatorOf, type LocatorArg } from './locators.js';
import { onScreen, screenAnswer } from './tools-see.js';
import { json, type Content, type Tool, type ToolCall } from './tool.js';

const SCREEN_AFTER: ArgSchema = { type: 'boolean', description: 'Answer with the screen after the act (default true); false answers sooner' };
const DURATION: ArgSchema = whole('How long the finger is on the screen, in ms', 1, 60_000);
const KEYS = ['home', 'back', 'menu', 'recentapp', 'space', 'backspace', 'enter', 'up', 'down', 'left', 'right', 'power'];

/** The tools that act. */
export const ACT_TOOLS: Tool[] = [
  {
    name: 'tap',
    description: 'Taps a point (x, y in phone pixels) or the centre of what a locator finds (waiting for it up to the timeout; one match needed). Prefer a locator. Answers with the screen after.',
    input: object({ phone: PHONE, x: COORD('x'), y: COORD('y'), locator: LOCATOR, screen: SCREEN_AFTER, timeout: TIMEOUT }),
    run: (args: { phone?: string; x?: number; y?: number; locator?: LocatorArg; screen?: boolean }, call) =>
      acting(call, args, 'tap', (phone, o) => {
        if (args.locator) {
          if (args.x !== undefined || args.y !== undefined) throw new UsageError('invalid argument locator of tap: give a locator or x and y, not both');
          return locatorOf(phone, args.locator).tap({ timeout: Math.max(0, o.deadline.remaining() - 200) });
        }
        const [x, y] = point(phone, args, 'tap');
        return phone.tap(x, y, o);
      }),
  },
  {
    name: 'long_press',
    description: 'Holds a finger on a point (x, y in phone pixels) or on what a locator finds, for durationMs (default 1000).',
    input: object({ phone: PHONE, x: COORD('x'), y: COORD('y'), locator: LOCATOR, durationMs: DURATION, screen: SCREEN_AFTER, timeout: TIMEOUT }),
    run: (args: { phone?: string; x?: number; y?: number; locator?: LocatorArg; durationMs?: number; screen?: boolean }, call) =>
      acting(call, args, 'long_press', (phone, o) => {
        const ms = args.durationMs === undefined ? {} : { durationMs: args.durationMs };
        if (args.locator) return locatorOf(phone, args.locator).longPress({ timeout: Math.max(0, o.deadline.remaining() - 200), ...ms });
        const [x, y] = point(phone, args, 'long_press');
        return phone.longPress({ x, y }, { ...o, ...ms });
      }),
  },
  {
    name: 'swipe',
    description: 'Swipes from (x1, y1) to (x2, y2), phone pixels, in durationMs (default 300): scrolls a list when it goes against it.',
    input: object({ phone: PHONE, x1: COORD('x'), y1: COORD('y'), x2: COORD('x'), y2: COORD('y'), durationMs: DURATION, screen: SCREEN_AFTER, timeout: TIMEOUT }, ['x1', 'y1', 'x2', 'y2']),
    run: (args: { phone?: string; x1: number; y1: number; x2: number; y2: number; durationMs?: number; screen?: boolean }, call) =>
      acting(call, args, 'swipe', (phone, o) => {
        onScreen(phone, args.x1, args.y1);
        onScreen(phone, args.x2, args.y2);
        return phone.swipe({ x: args.x1, y: args.y1 }, { x: args.x2, y: args.y2 }, { ...o, ...(args.durationMs === undefined ? {} : { durationMs: args.durationMs }) });
      }),
  },
  {
    name: 'type',
    description: 'Types text into the focused field (tap the field first). The text is never logged.',
    input: object({ phone: PHONE, text: text('The text to type', 2_000), screen: SCREEN_AFTER, timeout: TIMEOUT }, ['text']),
    run: (args: { phone?: string; text: string; screen?: boolean }, call) => acting(call, args, 'type', (phone, o) => phone.type(args.text, o)),
  },
  {
    name: 'press',
    description: `Presses a key: ${KEYS.join(', ')}, or a constant of the vendor's scripting library such as KEY_VOLUME_UP.`,
    input: object({ phone: PHONE, key: text('The key', 60), screen: SCREEN_AFTER, timeout: TIMEOUT }, ['key']),
    run: (args: { phone?: string; key: string; screen?: boolean }, call) => acting(call, args, 'press', (phone, o) => phone.press(args.key, o)),
  },
  {
    name: 'launch',
    description: 'Starts an app by its package name (com.example.app), bringing it to the front.',
    input: object({ phone: PHONE, app: text('The app\'s package', 200), screen: SCREEN_AFTER, timeout: TIMEOUT }, ['app']),
    run: (args: { phone?: string; app: string; screen?: boolean }, call) => acting(call, args, 'launch', (phone, o) => phone.launch(args.app, o)),
  },
  {
    name: 'close',
    description: 'Closes an app by its package name.',
    input: object({ phone: PHONE, app: text('The app\'s package', 200), screen: SCREEN_AFTER, timeout: TIMEOUT }, ['app']),
    run: (args: { phone?: string; app: string; screen?: boolean }, call) => acting(call, args, 'close', (phone, o) => phone.closeApp(args.app, o)),
  },
];

/** One act on the phone the arguments name, holding its lease, then its answer: what was done, and the screen after. */
async function acting(call: ToolCall, args: { phone?: string; screen?: boolean }, what: string, act: (phone: Phone, o: { deadline: ToolCall['deadline'] }) => Promise<void>): Promise<Content[]> {
  const { phone } = await call.lab.phone(args.phone, { deadline: call.deadline });
  await call.lab.leases.holding(phone.id, String(phone), call.deadline, () => act(phone, { deadline: call.deadline }));
  const done = json({ ok: true, phone: phone.id, did: what });
  if (args.screen === false) return [done];
  return [done, ...(await screenAnswer(phone, call, {}))];
}

/** x and y of a point act, both given and on the phone's known screen. */
function point(phone: Phone, args: { x?: number; y?: number }, tool: string): [number, number] {
  if (args.x === undefined || args.y === undefined) throw new UsageError(`missing argument ${args.x === undefined ? 'x' : 'y'} of ${tool}: give x and y, or a locator`);
  onScreen(phone, args.x, args.y);
  return [args.x, args.y];
}
