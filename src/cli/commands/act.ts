import type { CommandModule, Options, PositionalOptions } from 'yargs';
import { checkPackage, checkText, checkKey, KEY_NAMES, MAX_GESTURE_MS, type AppState, type DeviceClient } from '../../client/index.js';
import type { DeviceId } from '../../core/device-id.js';
import { resolvePoint, type Coordinate, type ResolvedPoint } from '../../core/fraction.js';
import { checkPointOnScreen } from '../../core/screen.js';
import { coordinate, DEVICE_POSITIONAL, deviceArg, POINT_POSITIONALS, wholeNumber } from '../args.js';
import { withClient, type Host } from '../context.js';
import { phoneLabel, resolveDevice, screenOf } from '../phones.js';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface ActArgs extends GlobalOptions {
  device: string;
  [arg: string]: unknown;
}

/** One act on a phone, as data: its usage, arguments, help and the client call it makes. */
interface ActSpec {
  command: string;
  describe: string;
  positionals: Record<string, PositionalOptions>;
  options?: Record<string, Options>;
  examples: [string, string][];
  /**
   * Reads the typed arguments (before any network work) and returns the call, what it did in words (given
   * the points resolved), and the points it acts on, if any: each checked against the phone's screen before
   * the act is sent.
   */
  prepare: (args: ActArgs) => { call: (client: DeviceClient, id: DeviceId, signal: AbortSignal, at: ResolvedPoint[]) => Promise<unknown>; did: (at: ResolvedPoint[]) => string; points?: { x: Coordinate; y: Coordinate }[] };
}

const EPILOGUE =
  'Acts go through the vendor\'s routes beyond the device-control interface: screen/inputs (text: screen/texts), as the vendor\'s public clients send them, or the JS bridge on a server without those; a server with neither fails with one line that says so, exit 1. ' +
  'An act is sent once: it is not retried once the server may have done it. ' +
  'A point off the phone\'s screen (its size from the phone\'s properties) is refused before anything is sent, exit 2; a server without the properties gets the act unchecked.';

/** The `--duration` of a gesture, in ms. */
function durationOption(fallback: number): Options {
  return { type: 'string', default: String(fallback), describe: `How long the finger is on the screen, in ms (1 to ${MAX_GESTURE_MS})` };
}

/** Reads `--duration`. */
function duration(raw: unknown): number {
  return wholeNumber('duration', raw, 1, MAX_GESTURE_MS, 'a duration in whole milliseconds, e.g. --duration 300');
}

const ACTS: ActSpec[] = [
  {
    command: 'tap <device> <x> <y>',
    describe: 'Tap the screen of a phone at one point',
    positionals: { device: DEVICE_POSITIONAL, ...POINT_POSITIONALS },
    examples: [['$0 tap device@1116106541 540 1200 --json', 'prints {"ok":true}']],
    prepare: (args) => {
      const point = { x: coordinate('x', args.x), y: coordinate('y', args.y) };
      return { call: (client, id, signal, [at]) => client.tap(id, at!.x, at!.y, { signal }), did: ([at]) => `tapped ${at!.label}`, points: [point] };
    },
  },
  {
    command: 'swipe <device> <x1> <y1> <x2> <y2>',
    describe: 'Swipe the screen of a phone from one point to another',
    positionals: {
      device: DEVICE_POSITIONAL,
      x1: { ...POINT_POSITIONALS.x, describe: 'Where the finger goes down: column, or a percentage of the width (50%)' },
      y1: { ...POINT_POSITIONALS.y, describe: 'Where the finger goes down: row, or a percentage of the height (80%)' },
      x2: { ...POINT_POSITIONALS.x, describe: 'Where it is lifted: column, or a percentage of the width' },
      y2: { ...POINT_POSITIONALS.y, describe: 'Where it is lifted: row, or a percentage of the height' },
    },
    options: { duration: durationOption(300) },
    examples: [['$0 swipe main 50% 80% 50% 20% --duration 400', 'scrolls a list up on the main device']],
    prepare: (args) => {
      const from = { x: coordinate('x', args.x1), y: coordinate('y', args.y1) };
      const to = { x: coordinate('x', args.x2), y: coordinate('y', args.y2) };
      const ms = duration(args.duration);
      return { call: (client, id, signal, [a, b]) => client.swipe(id, a!, b!, ms, { signal }), did: ([a, b]) => `swiped ${a!.label} to ${b!.label} in ${ms} ms`, points: [from, to] };
    },
  },
  {
    command: 'long-press <device> <x> <y>',
    describe: 'Hold a finger on one point of the screen of a phone',
    positionals: { device: DEVICE_POSITIONAL, ...POINT_POSITIONALS },
    options: { duration: durationOption(1000) },
    examples: [['$0 long-press main 540 1200 --duration 1500', 'holds for 1.5 s on the main device']],
    prepare: (args) => {
      const point = { x: coordinate('x', args.x), y: coordinate('y', args.y) };
      const ms = duration(args.duration);
      return { call: (client, id, signal, [at]) => client.longPress(id, at!, ms, { signal }), did: ([at]) => `long-pressed ${at!.label} for ${ms} ms`, points: [point] };
    },
  },
  {
    command: 'type <device> <text>',
    describe: 'Type text into the focused field of a phone',
    positionals: { device: DEVICE_POSITIONAL, text: { type: 'string', demandOption: true, describe: 'The text; quote it for spaces' } },
    examples: [['$0 type main "hello world"', 'types into the field in focus on the main device']],
    prepare: (args) => {
      const text = String(args.text);
      checkText(text);
      return { call: (client, id, signal) => client.type(id, text, { signal }), did: () => `typed ${text.length} character${text.length === 1 ? '' : 's'}` };
    },
  },
  {
    command: 'press <device> <key>',
    describe: `Press a key of a phone: ${KEY_NAMES.join(', ')}, or a JS bridge constant such as KEY_VOLUME_UP`,
    positionals: { device: DEVICE_POSITIONAL, key: { type: 'string', demandOption: true, describe: `${KEY_NAMES.join(', ')}, or KEY_… (through the JS bridge only)` } },
    examples: [['$0 press main back', 'the back key of the server\'s main device']],
    prepare: (args) => {
      const key = String(args.key);
      checkKey(key);
      return { call: (client, id, signal) => client.press(id, key, { signal }), did: () => `pressed ${key}` };
    },
  },
  appAct('launch', 'Start an app on a phone, bringing it to the front', 'active', 'launched', ['$0 launch main com.example.chat', 'starts the app on the main device']),
  appAct('close-app', 'Close an app on a phone', 'inactive', 'closed', ['$0 close-app main com.example.chat --json', 'prints {"ok":true}']),
];

/** An act on an app: `launch` or `close-app <device> <package>`. */
function appAct(name: string, describe: string, state: AppState, verb: string, example: [string, string]): ActSpec {
  return {
    command: `${name} <device> <package>`,
    describe,
    positionals: { device: DEVICE_POSITIONAL, package: { type: 'string', demandOption: true, describe: 'The app\'s package name, e.g. com.example.chat' } },
    examples: [example],
    prepare: (args) => {
      const pkg = String(args.package);
      checkPackage(pkg);
      return { call: (client, id, signal) => client.setAppState(id, pkg, state, { signal }), did: () => `${verb} ${pkg}` };
    },
  };
}

/** `tap`, `swipe`, `long-press`, `type`, `press`, `launch` and `close-app`: acts on a phone through the vendor's routes beyond the interface. */
export const actCommands: ((output: Output, host: Host) => CommandModule<GlobalOptions, ActArgs>)[] = ACTS.map((spec) => (output, host) =>
  defineCommand<ActArgs>({
    command: spec.command,
    describe: spec.describe,
    positionals: spec.positionals,
    options: spec.options,
    examples: spec.examples,
    epilogue: EPILOGUE,
    handler: (args) => {
      // Everything the user typed is checked before any network work.
      const device = deviceArg(args.device);
      const { call, did, points = [] } = spec.prepare(args);
      return withClient(args, output, host, async (ctx) => {
        const id = await resolveDevice(device, ctx);
        let at: ResolvedPoint[] = [];
        if (points.length) {
          // Percentages resolve against the screen the points are then checked against: one read of its size.
          const phone = { screen: await screenOf(id, ctx), toString: () => phoneLabel(device, id) };
          at = points.map((p) => resolvePoint(phone, p.x, p.y));
          for (const p of at) checkPointOnScreen(phone, p.x, p.y);
        }
        await call(ctx.client, id, ctx.signal, at);
        if (args.json) output.json({ ok: true });
        else output.line(`${id}: ${did(at)}`);
      });
    },
  }),
);
