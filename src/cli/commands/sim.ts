import type { CommandModule, Options } from 'yargs';
import { DEFAULT_PASSWORD, DEFAULT_PORT, DEFAULT_USER } from '../../core/defaults.js';
import { BEHAVIOUR_SPECS, DEFAULT_BEHAVIOUR, DEFAULT_HOST, DEFAULT_SCENARIO, startSimulator, type Behaviour, type BehaviourKey, type SimulatorHandle, type SimulatorOptions } from '../../simulator/index.js';
import { ADMIN_KEY_HEADER, ADMIN_PREFIX } from '../../simulator/index.js';
import { wholeNumber } from '../args.js';
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
} as const satisfies Record<string, Options>;

/** `phonewright sim`: the embedded device-control simulator, serving until Ctrl-C. */
export function simCommand(output: Output = processOutput()): CommandModule<GlobalOptions, SimArgs> {
  return {
    command: 'sim',
    describe: 'Run the device-control simulator: virtual phones, notifications, uploads, fault injection',
    builder: (y) => {
      let parser = y.options(SIM_OPTIONS);
      for (const [key, spec] of Object.entries(BEHAVIOUR_SPECS)) {
        const fallback = DEFAULT_BEHAVIOUR[key as BehaviourKey];
        parser = parser.option(spec.flag, { type: 'string', group: 'Behaviour (the field notes\' switchable answers):', describe: `${spec.describe} [default ${fallback}]`, ...(spec.choices ? { choices: spec.choices } : {}) }) as never;
      }
      return parser
        .example('$0 sim', 'serves on http://127.0.0.1:8090 with sigma / 3D391497, so the vendor\'s curl examples work')
        .example('$0 sim --port 0 --json', 'any free port; prints {"url", "user", "adminKey", "phones", …}')
        .example('$0 sim --scenario lab.json --token-failure http401 --token-lifetime 60', 'your phones, and a stricter server')
        .epilogue(`The admin API under ${ADMIN_PREFIX} (header ${ADMIN_KEY_HEADER}) sets screens, posts notifications, takes phones offline and injects faults. The password is printed only when it is the vendor's public default.`) as never;
    },
    handler: (args) => runSim(args, output),
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
    verbose: args.verbose ? (line: string) => output.note(line) : undefined,
  };
  const sim = await startSimulator(options);
  const watch = signal ? { signal, dispose: () => undefined } : processSignal();
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

function printStarted(sim: SimulatorHandle, output: Output, json: boolean, passwordSource: string | undefined): void {
  const shownPassword = passwordSource === undefined ? sim.password : `(as given ${passwordSource === '--password' ? 'with --password' : `in ${passwordSource}`})`;
  if (json) {
    output.json({
      url: sim.url,
      apiRoot: sim.apiRoot,
      port: sim.port,
      user: sim.user,
      ...(passwordSource === undefined ? { password: sim.password } : { passwordFrom: passwordSource }),
      adminKey: sim.adminKey,
      storage: sim.storageRoot,
      mainDevice: sim.mainDevice,
      phones: sim.phones,
    });
    return;
  }
  output.line(`phonewright simulator on ${sim.url} (API root ${sim.apiRoot})`);
  output.line(`  user:      ${sim.user}`);
  output.line(`  password:  ${shownPassword}`);
  output.line(`  admin key: ${sim.adminKey}  (header ${ADMIN_KEY_HEADER}, routes under ${ADMIN_PREFIX})`);
  output.line(`  storage:   ${sim.storageRoot}`);
  output.line('  phones:');
  const width = Math.max(...sim.phones.map((p) => p.id.length));
  for (const p of sim.phones) {
    output.line(`    ${p.id.padEnd(width)}  ${p.name.padEnd(14)} ${`${p.width}x${p.height}`.padEnd(10)} ${p.orientation}${p.main ? '  (main)' : ''}`);
  }
  if (passwordSource === undefined && sim.user === DEFAULT_USER) {
    const auth = Buffer.from(`${sim.user}:${sim.password}`).toString('base64');
    output.line(`  try:       curl -H "Authorization: ${auth}" ${sim.url}${sim.apiRoot}/login`);
  }
  output.note('Serving until Ctrl-C.');
}

/** A signal aborted by the first SIGINT or SIGTERM; `dispose` lets go of both handlers. */
function processSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
