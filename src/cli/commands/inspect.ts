import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { loadConfigFile } from '../../config/load.js';
import { declaredNames, type ScenarioNames } from '../../config/names.js';
import type { ConfigFile } from '../../config/schema.js';
import { ENV, parseDeviceList } from '../../config/resolve.js';
import type { DeviceId } from '../../core/device-id.js';
import { matrixDevices } from '../../inspector/naming.js';
import { wholeNumber, deviceArg } from '../args.js';
import { withClient, type CommandContext, type Host } from '../context.js';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { resolveDevice } from '../phones.js';
import { TIMEOUT_OPTION } from '../timeout.js';

interface InspectArgs extends GlobalOptions {
  timeout?: string;
  device?: string;
  port?: string;
}

/** `phonewright inspect [<device>] [--port N]`: the phone's live screen in a browser, and checks written from clicks. */
export function inspectCommand(output: Output, host: Host): CommandModule<GlobalOptions, InspectArgs> {
  return defineCommand<InspectArgs>({
    command: 'inspect [device]',
    describe: 'Write checks by clicking the phone\'s screen: a local page with the live screen, points, regions and taps',
    positionals: { device: { type: 'string', describe: 'Device id (device@1116106541), a phone\'s name (galaxy-s9), or "main" [default: main]' } },
    options: {
      port: { type: 'string', describe: 'The port to serve the page on, on 127.0.0.1 [default: a free one]' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 inspect', 'the main device; prints "Inspector: http://127.0.0.1:PORT/?token=…": open it in a browser'],
      ['$0 inspect moto-g5 --port 9400', 'a phone by name, on a port of your choice'],
    ],
    epilogue:
      'The page shows the phone\'s screen (the vendor\'s screen capture, refreshed every second while the page is visible); a click reads a point ' +
      '(the interface\'s pixel read) and writes its expectPixel line, a drag writes a toMatchRegion line and can write its golden, act mode taps the phone; ' +
      'the lines make a draft saved as a spec under specs/. It listens on 127.0.0.1 only, and every request needs the token of the printed URL; ' +
      'the page never sees the server\'s password or token. A server without screen capture offers point reads by coordinates. Runs until Ctrl-C.',
    handler: (args) => {
      // Everything the user typed is checked before any network work.
      const device = deviceArg(args.device ?? 'main');
      const port = args.port === undefined ? 0 : wholeNumber('--port', args.port, 0, 65_535, 'phonewright inspect --port 9400');
      return withClient(args, output, host, async (ctx) => {
        const { listPhones } = await import('../../inspector/phones.js');
        const { startInspector } = await import('../../inspector/server.js');
        const selected = await resolveDevice(device, ctx);
        const file = loadConfigFile(host.cwd, host.env);
        // Every call of the page's requests listens on this one signal: a point's neighbourhood alone is 81
        // reads on a server without capture, far more listeners than Node's warning counts on.
        const calls = new AbortController();
        setMaxListeners(0, calls.signal);
        const stop = () => calls.abort();
        ctx.signal.addEventListener('abort', stop, { once: true });
        if (ctx.signal.aborted) stop();
        const call = { signal: calls.signal };
        const phones = await listPhones({ client: ctx.client, selected, named: namedPhones(ctx), embedded: ctx.simulatorPhones !== undefined, server: await serverFacts(ctx, host, file), call });
        const server = ctx.simulatorPhones ? 'the embedded simulator' : ctx.client.url;
        const clean = (text: string) => output.clean(ctx.client.clean(text));
        const inspector = await startInspector(
          { client: ctx.client, phones, selected: phones.find((p) => p.id === selected)!, server, cwd: host.cwd, specsDir: path.resolve(host.cwd, 'specs'), call, clean },
          port,
        );
        try {
          // The page's own token is printed on purpose, where a server's would be masked.
          if (args.json) output.json({}, { url: inspector.url });
          else output.line(`Inspector: ${inspector.url}`, [inspector.url]);
          output.note(`inspecting ${phoneName(phones, selected)} on ${server} (${phones.length} phone${phones.length === 1 ? '' : 's'}); Ctrl-C to stop`);
          await stopped(ctx.signal);
        } finally {
          await inspector.close();
        }
      });
    },
  });
}

/** The phones known by name: the embedded simulator's scenario, or the config file's phones of this server. */
function namedPhones(ctx: CommandContext): { id: DeviceId | 'main'; name: string }[] {
  if (ctx.simulatorPhones) return [...ctx.simulatorPhones];
  const devices = ctx.connection.devices;
  return Array.isArray(devices) ? devices.flatMap((d) => (d.name === undefined ? [] : [{ id: d.id, name: d.name }])) : [];
}

/**
 * How a run of the matrix names this server's phones: its devices, and the names the file's other servers give
 * theirs (a phone named alike on two servers is `<server>-<name>` on each). Another server's `"devices": "all"`
 * names its phones only when a run lists them: those are not known here.
 */
async function serverFacts(ctx: CommandContext, host: Host, file: ConfigFile | undefined) {
  const fromFile = ctx.connection.name !== 'env' && ctx.connection.name !== 'simulator';
  let envList: ReturnType<typeof parseDeviceList>;
  try {
    envList = fromFile ? undefined : parseDeviceList(host.env[ENV.devices]);
  } catch {
    // A list the matrix would refuse names no project.
    envList = undefined;
  }
  const others = fromFile ? (file?.servers ?? []).filter((s) => s.name !== ctx.connection.name) : [];
  // Another server without a URL is the embedded simulator, named after the file's scenario: read only then.
  const scenario = file && others.some((s) => s.url === undefined) ? await fileScenario(file) : undefined;
  return { devices: matrixDevices(ctx.connection.devices, envList), name: ctx.connection.name, othersNames: new Set(others.flatMap((s) => declaredNames(s, () => scenario!))) };
}

/** The embedded simulator's phones as the file's scenario (or the built-in one) names them. */
async function fileScenario(file: ConfigFile): Promise<ScenarioNames> {
  const { loadRosterFacts } = await import('../../simulator/roster-facts.js');
  if (file.simulator.scenario) return loadRosterFacts(path.resolve(file.dir, file.simulator.scenario));
  const { DEFAULT_SCENARIO } = await import('../../simulator/scenarios/default.js');
  return loadRosterFacts(DEFAULT_SCENARIO, 'the built-in scenario');
}

function phoneName(phones: { id: DeviceId; name: string }[], id: DeviceId): string {
  const name = phones.find((p) => p.id === id)?.name;
  return name && name !== id ? `${name} (${id})` : id;
}

/** Resolves once the command is stopped (Ctrl-C, SIGTERM, or the host's signal). */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
