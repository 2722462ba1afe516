import type { CommandModule, PositionalOptions } from 'yargs';
import { checkPackage, keyConstant, type AppState, type DeviceClient } from '../../client/index.js';
import type { DeviceId } from '../../core/device-id.js';
import { resolvePoint, type Coordinate, type ResolvedPoint } from '../../core/fraction.js';
import { checkPointOnScreen } from '../../core/screen.js';
import { coordinate, DEVICE_POSITIONAL, deviceArg, POINT_POSITIONALS } from '../args.js';
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
  examples: [string, string][];
  /**
   * Reads the typed arguments (before any network work) and returns the call, what it did in words, and
   * the point it acts on, if any: checked against the phone's screen before the act is sent.
   */
  prepare: (args: ActArgs) => { call: (client: DeviceClient, id: DeviceId, signal: AbortSignal, at?: ResolvedPoint) => Promise<void>; did: string; point?: { x: Coordinate; y: Coordinate } };
}

const EPILOGUE =
  'A route of the vendor\'s server beyond the device-control interface: a server without it fails with one line that says so, exit 1. ' +
  'An act is sent once: it is not retried once the server may have done it. ' +
  'A point off the phone\'s screen (its size from the phone\'s properties) is refused before anything is sent, exit 2; a server without the properties gets the act unchecked.';

const ACTS: ActSpec[] = [
  {
    command: 'tap <device> <x> <y>',
    describe: 'Tap the screen of a phone at one point',
    positionals: { device: DEVICE_POSITIONAL, ...POINT_POSITIONALS },
    examples: [['$0 tap device@1116106541 540 1200 --json', 'prints {"ok":true}']],
    prepare: (args) => {
      const x = coordinate('x', args.x);
      const y = coordinate('y', args.y);
      return { call: (client, id, signal, at) => client.tap(id, at!.x, at!.y, { signal }), did: `tapped (${x}, ${y})`, point: { x, y } };
    },
  },
  {
    command: 'press <device> <key>',
    describe: 'Press a key of a phone: back, home, menu, or a vendor constant such as KEY_VOLUME_UP',
    positionals: { device: DEVICE_POSITIONAL, key: { type: 'string', demandOption: true, describe: 'back, home, menu, or KEY_…' } },
    examples: [['$0 press main back', 'the back key of the server\'s main device']],
    prepare: (args) => {
      const key = String(args.key);
      keyConstant(key);
      return { call: (client, id, signal) => client.press(id, key, { signal }), did: `pressed ${key}` };
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
      return { call: (client, id, signal) => client.setAppState(id, pkg, state, { signal }), did: `${verb} ${pkg}` };
    },
  };
}

/** `tap`, `press`, `launch` and `close-app`: acts on a phone through the vendor's routes beyond the interface. */
export const actCommands: ((output: Output, host: Host) => CommandModule<GlobalOptions, ActArgs>)[] = ACTS.map((spec) => (output, host) =>
  defineCommand<ActArgs>({
    command: spec.command,
    describe: spec.describe,
    positionals: spec.positionals,
    examples: spec.examples,
    epilogue: EPILOGUE,
    handler: (args) => {
      // Everything the user typed is checked before any network work.
      const device = deviceArg(args.device);
      const { call, did, point } = spec.prepare(args);
      return withClient(args, output, host, async (ctx) => {
        const id = await resolveDevice(device, ctx);
        let at: ResolvedPoint | undefined;
        if (point) {
          // Percentages resolve against the screen the point is then checked against: one read of its size.
          const phone = { screen: await screenOf(id, ctx), toString: () => phoneLabel(device, id) };
          at = resolvePoint(phone, point.x, point.y);
          checkPointOnScreen(phone, at.x, at.y);
        }
        await call(ctx.client, id, ctx.signal, at);
        if (args.json) output.json({ ok: true });
        else output.line(`${id}: ${at && at.label !== `(${at.x}, ${at.y})` ? `tapped ${at.label}` : did}`);
      });
    },
  }),
);
