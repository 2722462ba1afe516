import type { CommandModule, Options } from 'yargs';
import { DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USER } from '../../core/defaults.js';
import { UsageError } from '../../core/errors.js';
import { BEHAVIOUR_SPECS, DEFAULT_BEHAVIOUR, DEFAULT_HOST, DEFAULT_SCENARIO, startSimulator, type Behaviour, type BehaviourKey, type SimulatorHandle, type SimulatorOptions } from '../../simulator/index.js';
import { ACTS_OFFERED, ADMIN_KEY_HEADER, ADMIN_PREFIX, MAX_CLOCK_OFFSET_MS, MISSING_ROUTE_FORMS, type ActsOffered, type LabOptions } from '../../simulator/index.js';
import { list, wholeNumber } from '../args.js';
import { hostPath, processHost, stopSignal, type Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import { processOutput, type Output } from '../output.js';

/** `phonewright sim`'s own flags (the behaviour flags are read from the table, by their flag names). */
export interface SimArgs extends GlobalOptions {
  port?: string | number;
  host?: string;
  scenario?: string;
  storage?: string;
  allowAbsoluteUploads?: boolean;
  maxUploadBytes?: string | number;
  adminKey?: string;
  printScenario?: boolean;
  lab?: boolean;
  clockOffset?: string | string[];
  capabilities?: 'all' | 'seed';
  acts?: ActsOffered;
  elements?: boolean;
  ocr?: boolean;
  [flag: string]: unknown;
}

type Env = Readonly<Record<string, string | undefined>>;

const SIM_OPTIONS = {
  port: { type: 'string', describe: `Port to listen on; 0 picks a free one [default ${DEFAULT_PORT}]` },
  host: { type: 'string', describe: `Interface to listen on; 0.0.0.0 lets other machines in [default ${DEFAULT_HOST}]` },
  scenario: { type: 'string', describe: 'Scenario JSON file: phones, screens, notifications, behaviour [default: four built-in phones]' },
  storage: { type: 'string', describe: 'Installation root uploads are stored under [default: a new folder in the OS temp folder, removed on stop]' },
  'allow-absolute-uploads': { type: 'boolean', default: false, describe: 'Let the upload target local/<absolute path>/ write anywhere on this machine' },
  'max-upload-bytes': { type: 'string', describe: 'Largest upload accepted, in bytes [default 2 GiB]' },
  'admin-key': { type: 'string', describe: `Key of the admin API (header ${ADMIN_KEY_HEADER}) [default: random, printed]` },
  'print-scenario': { type: 'boolean', default: false, describe: 'Print the built-in scenario as JSON (to start one of your own) and exit' },
  // No default: without the flag the scenario's "lab" decides; --no-lab turns it off.
  lab: { type: 'boolean', describe: 'Behave like a phone lab: latency per operation, one phone\'s screen reads at a time, phone clocks minutes off' },
  'clock-offset': { type: 'string', array: true, describe: 'A phone\'s clock offset, <phone id or name>=<ms> (repeatable), e.g. pixel-7=-180000' },
  capabilities: { type: 'string', choices: ['all', 'seed'], default: 'all', describe: 'seed: only the interface\'s six operations, as a server without the vendor\'s routes beyond it (device list and properties, screen capture, taps and keys, apps)' },
  acts: { type: 'string', choices: ACTS_OFFERED, default: 'both', describe: 'Which routes acts come through: inputs (screen/inputs and screen/texts, what public clients use), scripts (the JS bridge, server release 6.9.0 on) or both' },
  elements: { type: 'boolean', default: true, describe: 'Serve the vendor\'s UI-element engine (sendAai) over the drawn screens\' elements; --no-elements answers it as a missing route' },
  ocr: { type: 'boolean', default: true, describe: 'Read the drawn texts for the OCR form of screen/texts (rect=…); --no-ocr answers it as a missing route' },
  'missing-route': { type: 'string', choices: MISSING_ROUTE_FORMS, default: '404', describe: 'How a vendor route the simulator lacks answers (all beyond the interface with --capabilities seed, the act routes --acts leaves out): HTTP 404, 405 or 501, or envelope (HTTP 200, {"status": null, "value": "no such route: …"})' },
} as const satisfies Record<string, Options>;

/** `phonewright sim`: the embedded device-control simulator, serving until Ctrl-C. */
export function simCommand(output: Output = processOutput(), host: Host = processHost()): CommandModule<GlobalOptions, SimArgs> {
  return {
    command: 'sim',
    describe: 'Run the device-control simulator: virtual phones, notifications, uploads, fault injection',
    builder: (y) => {
      let parser = y.options(SIM_OPTIONS);
      for (const [key, spec] of Object.entries(BEHAVIOUR_SPECS)) {
        const fallback = DEFAULT_BEHAVIOUR[key as BehaviourKey];
        parser = parser.option(spec.flag, { type: 'string', group: 'Behaviour (the answers where servers differ):', describe: `${spec.describe} [default ${fallback}]`, ...(spec.choices ? { choices: spec.choices } : {}) });
      }
      return parser
        .example('$0 sim', 'serves on http://127.0.0.1:8090 with sigma / 3D391497, so the vendor\'s curl examples work')
        .example('$0 sim --port 0 --json', 'any free port; prints {"url", "user", "adminKey", "phones", …}')
        .example('$0 sim --scenario lab.json --token-failure http401 --token-lifetime 60', 'your phones, and a stricter server')
        .example('$0 sim --lab --time-unit s', 'a server that behaves like a phone lab, whose messages carry time in seconds')
        .example('$0 sim --clock-offset pixel-7=-180000 --clock-offset moto-g5=47000', 'phone clocks 3 minutes behind and 47 seconds ahead')
        .example('$0 sim --capabilities seed', 'a server with the interface\'s six operations only')
        .example('$0 sim --acts scripts --missing-route envelope', 'a server whose acts go through the JS bridge only, answering screen/inputs with the failure envelope')
        .epilogue(
          `--lab: a pixel read waits for a 3-7 ms frame grab, one at a time per phone, then takes 20-80 ms more (overlapping other reads); settings 20-60 ms; notifications 20-80 ms; login and uploads 50-150 ms; screen captures 80-200 ms; taps and keys 30-120 ms; starting or closing an app 200-600 ms; phone clocks +5 min, -3 min, +47 s, -90 s, +10 min, -10 min off in turn; text typed as taps are, a phone's app list 20-80 ms (a scenario's "lab" key sets other figures). ` +
            `The admin API under ${ADMIN_PREFIX} (header ${ADMIN_KEY_HEADER}) sets screens, posts notifications, takes phones offline, freezes them, sets their clocks and injects faults. The password is printed only when it is the vendor's public default.`,
        );
    },
    handler: (args) => {
      const paths = { scenario: args.scenario && hostPath(host, args.scenario), storage: args.storage && hostPath(host, args.storage) };
      return runSim({ ...args, ...paths }, output, host.signal, host.env);
    },
  };
}

/**
 * Starts the simulator, prints where it is, serves until `signal` aborts (or, without one, until SIGINT or
 * SIGTERM), then closes it. Resolves once the server has closed; never exits the process.
 * @param args the parsed flags
 * @param output where to print
 * @param signal stops the simulator when aborted
 * @param env the environment, for PHONEWRIGHT_USER, PHONEWRIGHT_PASSWORD, PHONEWRIGHT_API_ROOT
 * @default env process.env
 */
export async function runSim(args: SimArgs, output: Output, signal?: AbortSignal, env: Env = process.env): Promise<void> {
  if (args.printScenario) {
    output.line(JSON.stringify(DEFAULT_SCENARIO, null, 2));
    return;
  }
  const user = args.user ?? env.PHONEWRIGHT_USER ?? DEFAULT_USER;
  const password = args.password ?? env.PHONEWRIGHT_PASSWORD ?? DEFAULT_PASSWORD;
  const passwordSource = args.password !== undefined ? '--password' : env.PHONEWRIGHT_PASSWORD !== undefined ? 'PHONEWRIGHT_PASSWORD' : undefined;
  // A password of the user's own never reaches the screen; the vendor's public example may.
  if (password !== DEFAULT_PASSWORD) output.addSecrets(password);
  const options: SimulatorOptions = {
    port: args.port === undefined ? DEFAULT_PORT : wholeNumber('--port', args.port, 0, 65_535, 'phonewright sim --port 8090'),
    host: args.host ?? DEFAULT_HOST,
    apiRoot: args.apiRoot ?? env.PHONEWRIGHT_API_ROOT,
    user,
    password,
    scenario: args.scenario,
    storage: args.storage,
    allowAbsoluteUploads: Boolean(args.allowAbsoluteUploads),
    maxUploadBytes: args.maxUploadBytes === undefined ? undefined : wholeNumber('--max-upload-bytes', args.maxUploadBytes, 1, Number.MAX_SAFE_INTEGER),
    adminKey: args.adminKey,
    behaviour: behaviourFlags(args),
    ...(args.lab === undefined ? {} : { lab: args.lab }),
    ...clockOffsetFlags(args.clockOffset),
    capabilities: args.capabilities,
    acts: args.acts,
    elements: args.elements,
    ocr: args.ocr,
    missingRoutes: args.missingRoute === 'envelope' ? 'envelope' : (Number(args.missingRoute ?? 404) as 404 | 405 | 501),
    verbose: args.verbose ? (line: string) => output.note(line) : undefined,
  };
  const sim = await startSimulator(options);
  const watch = stopSignal(signal);
  try {
    printStarted(sim, output, Boolean(args.json), password === DEFAULT_PASSWORD ? undefined : passwordSource ?? 'the options');
    const stop = watch.signal;
    if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  } finally {
    watch.dispose();
    await sim.close();
    if (!args.json) output.note('phonewright sim: stopped');
  }
}

function behaviourFlags(args: SimArgs): Partial<Behaviour> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(BEHAVIOUR_SPECS)) {
    const raw = args[spec.flag];
    if (raw === undefined) continue;
    out[key] = spec.integer ? wholeNumber(`--${spec.flag}`, raw, spec.integer.min, spec.integer.max) : String(raw);
  }
  return out as Partial<Behaviour>;
}

const OFFSET_FLAG = /^(.+)=([+-]?\d{1,9})$/;

/** Reads `--clock-offset <phone>=<ms>` (repeatable); the phone names are checked by the simulator. */
function clockOffsetFlags(raw: unknown): Pick<SimulatorOptions, 'clockOffsetMs'> {
  const given = list(raw);
  if (given.length === 0) return {};
  const offsets: Record<string, number> = {};
  for (const text of given) {
    const m = OFFSET_FLAG.exec(text);
    if (!m || Math.abs(Number(m[2])) > MAX_CLOCK_OFFSET_MS) {
      throw new UsageError(`invalid --clock-offset ${JSON.stringify(text.slice(0, 60))}: expected <phone id or name>=<ms>, whole milliseconds from -${MAX_CLOCK_OFFSET_MS} to ${MAX_CLOCK_OFFSET_MS}`, {
        hint: 'phonewright sim --clock-offset pixel-7=-180000 (three minutes behind)',
      });
    }
    offsets[m[1]!] = Number(m[2]);
  }
  return { clockOffsetMs: offsets };
}

function printStarted(sim: SimulatorHandle, output: Output, json: boolean, passwordSource: string | undefined): void {
  const shownPassword = passwordSource === undefined ? sim.password : `(as given ${passwordSource === '--password' ? 'with --password' : `in ${passwordSource}`})`;
  if (json) {
    // The vendor's public example password is shown on purpose: added after the document is cleaned.
    output.json({
      url: sim.url,
      apiRoot: sim.apiRoot,
      port: sim.port,
      user: sim.user,
      ...(passwordSource === undefined ? {} : { passwordFrom: passwordSource }),
      adminKey: sim.adminKey,
      storage: sim.storageRoot,
      mainDevice: sim.mainDevice,
      phones: sim.phones,
      lab: sim.lab ?? false,
    }, passwordSource === undefined ? { password: sim.password } : undefined);
    return;
  }
  output.line(`phonewright simulator on ${sim.url} (API root ${sim.apiRoot})`);
  output.line(`  user:      ${sim.user}`);
  output.line(`  password:  ${shownPassword}`);
  output.line(`  admin key: ${sim.adminKey}  (header ${ADMIN_KEY_HEADER}, routes under ${ADMIN_PREFIX})`);
  output.line(`  storage:   ${sim.storageRoot}`);
  if (sim.lab) output.line(`  lab:       ${describeLab(sim.lab)}`);
  output.line('  phones:');
  const width = Math.max(...sim.phones.map((p) => p.id.length));
  for (const p of sim.phones) {
    const clock = p.clockOffsetMs === 0 ? '' : `  clock ${formatOffset(p.clockOffsetMs)}`;
    output.line(`    ${p.id.padEnd(width)}  ${p.name.padEnd(14)} ${`${p.width}x${p.height}`.padEnd(10)} ${p.orientation.padEnd(9)}${clock}${p.main ? '  (main)' : ''}`.trimEnd());
  }
  if (passwordSource === undefined && sim.user === DEFAULT_USER) {
    const auth = Buffer.from(`${sim.user}:${sim.password}`).toString('base64');
    output.line(`  try:       curl -H "Authorization: ${auth}" ${sim.url}${sim.apiRoot}/login`, [auth]);
  }
  output.note('Serving until Ctrl-C.');
}

/** One line on the lab: latency per operation, serial screen reads, the seed. */
function describeLab(lab: LabOptions): string {
  const ms = (l: number | readonly [number, number]) => `${typeof l === 'number' ? l : `${l[0]}-${l[1]}`} ms`;
  const latency = Object.entries(lab.latencyMs ?? {}).map(([op, l]) => `${op} ${ms(l)}`);
  const parts = [latency.length > 0 ? `latency ${latency.join(', ')}` : 'no latency'];
  if (lab.serialScreenReads) parts.push(lab.screenGrabMs === undefined ? 'one screen read at a time per phone' : `frame grabs of ${ms(lab.screenGrabMs)} one at a time per phone`);
  if (lab.seed !== undefined) parts.push(`seed ${lab.seed}`);
  return parts.join('; ');
}

/** A clock offset for people: +5m00s, -1m30s, +47s, +250ms. */
function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(ms);
  if (abs % 1000 !== 0) return `${sign}${abs}ms`;
  const s = abs / 1000;
  return s < 60 ? `${sign}${s}s` : `${sign}${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
