import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLeases } from '../config/leases.js';
import { loadConfigFile } from '../config/load.js';
import { ENV, resolveServers, type Connection } from '../config/resolve.js';
import type { ConfigFile } from '../config/schema.js';
import { CheckFailedError, ConfigError, UsageError } from '../core/errors.js';
import { RUN_NAME_ENV } from '../lease/holder.js';
import { NIGHTLY_ENV } from '../report/nightly-env.js';
import { runSecrets } from '../report/redact.js';
import { loadRoster } from '../simulator/roster.js';
import { DEFAULT_SCENARIO } from '../simulator/scenarios/default.js';
import type { GlobalOptions } from './options.js';
import type { Output } from './output.js';
import { shardRun, takeShardArg } from './shard.js';

/** Options `phonewright test` and `nightly` take besides Playwright's own. */
export interface RunArgs extends GlobalOptions {
  /** The command, for the run's name in lease messages. */
  command: 'test' | 'nightly';
  devices?: string;
  /** Everything else, passed to `playwright test` as it is. */
  playwright: string[];
}

/**
 * phonewright's own config, the example suites on the device matrix, used when the folder has none:
 * playwright.config.ts in the repository, run from src/; run from dist/ (an installed package), the bundle's
 * (scripts/bundle.mjs): Playwright compiles no TypeScript under node_modules, and the package's .ts config failed
 * there with "Unknown file extension".
 */
const SELF = fileURLToPath(import.meta.url);
const OWN_CONFIG = SELF.endsWith('.ts') ? path.resolve(path.dirname(SELF), '../../playwright.config.ts') : path.resolve(path.dirname(SELF), '../../pkg/playwright.config.js');

/**
 * Runs `playwright test` on the device matrix: the folder's playwright.config.ts (or phonewright's own),
 * phonewright's flags handed over as environment variables (a password never on a command line).
 * @param args the parsed flags and the pass-through arguments
 * @param output where phonewright writes (Playwright writes to the terminal itself)
 * @param extraEnv variables for the run (nightly adds its own)
 * @returns Playwright's exit code
 */
export async function runPlaywright(args: RunArgs, output: Output, extraEnv: Record<string, string> = {}): Promise<number> {
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  const set = (name: string, value: string | undefined) => value !== undefined && (env[name] = value);
  set(ENV.url, args.url);
  set(ENV.user, args.user);
  set(ENV.password, args.password);
  set(ENV.apiRoot, args.apiRoot);
  set(ENV.server, args.server);
  set(ENV.devices, args.devices);
  // phonewright shards by phone (src/cli/shard.ts): --shard is not Playwright's here.
  const { shard, rest } = takeShardArg(args.playwright);
  let pass = [...rest];
  // A shard is a part of a run: the config adds the blob reporter, for `phonewright merge` (docs/ci-nightly.yml).
  if (shard) env[NIGHTLY_ENV.blob] = '1';
  env[RUN_NAME_ENV] ||= `phonewright ${args.command}${shard ? ` --shard ${shard.index}/${shard.total}` : ''}`;
  // When the user names the config, there is nothing to add or check here.
  if (!pass.some((a) => a === '-c' || a === '--config' || a.startsWith('--config='))) {
    // The matrix reads phonewright.config.json and PHONEWRIGHT_* from this folder: a mistake in them is one
    // line and exit 2 before anything runs, not a config error amid Playwright's output and a "failed" run.
    const file = loadConfigFile(process.cwd(), env);
    const selectedBy = args.devices !== undefined ? '--devices' : env[ENV.devices] !== undefined ? ENV.devices : undefined;
    checkSimulatorPhones(resolveServers(env, file, selectedBy), file, selectedBy);
    resolveLeases(env, file);
    if (!existsSync(path.resolve('playwright.config.ts')) && !existsSync(path.resolve('playwright.config.js'))) {
      if (!existsSync(OWN_CONFIG)) throw new UsageError('no playwright.config.ts in this folder', { hint: 'run from your project folder, or pass -c <config>' });
      pass.unshift('-c', OWN_CONFIG);
    }
  }
  // The lease store's password (in PHONEWRIGHT_LEASES) too: the shard's lines quote Playwright's stderr.
  output.addSecrets(args.password, ...runSecrets(env, []));
  const part = shard && (await shardRun(shard, pass, env, (line) => (args.json ? output.note(line) : output.line(line))));
  if (part) {
    pass = part.args;
    Object.assign(env, part.env);
  }
  try {
    return await spawnPlaywright(['test', ...pass], env, args.json);
  } finally {
    await part?.cleanup();
  }
}

/**
 * Runs Playwright's CLI to its end, Ctrl-C and SIGTERM handed on to it.
 * @param json keep stdout for phonewright's one JSON document: Playwright's own lines go to stderr
 * @returns Playwright's exit code (130 when a signal ended it)
 */
export async function spawnPlaywright(argv: string[], env: Record<string, string | undefined>, json = false): Promise<number> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, ...argv], { stdio: json ? ['inherit', 2, 'inherit'] : 'inherit', env });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
    });
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}

/** Where the matrix's config writes the HTML report. */
const HTML_REPORT = 'reports/html';

/**
 * Notes an HTML report folder as it is now; the function returned tells whether a run wrote the report since
 * (a run that failed before any test, e.g. on its config, writes none).
 * @param folder the report's folder, relative to the working folder
 * @default folder 'reports/html', where the matrix's config writes it
 */
export function watchReport(folder = HTML_REPORT): { folder: string; written: () => boolean } {
  const file = path.resolve(folder, 'index.html');
  const modified = () => statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  const before = modified();
  return {
    folder,
    written: () => {
      const now = modified();
      return now !== undefined && now !== before;
    },
  };
}

/**
 * Turns Playwright's exit code into phonewright's: a failed run is a failed check (exit 1).
 * @param report the HTML report, watched from before the run: the way out is to open it if the run wrote
 *   it, or else to read what Playwright printed
 */
export function checkRun(code: number, what: string, report: ReturnType<typeof watchReport>): void {
  if (code === 0) return;
  throw new CheckFailedError(`${what} failed (playwright exit code ${code})`, {
    hint: report.written() ? `open the report: npx playwright show-report ${report.folder}` : `read what Playwright printed above (it wrote no report to ${report.folder})`,
  });
}

/**
 * Refuses phones the embedded simulator's scenario does not have, before Playwright starts: the matrix would
 * refuse them too, but inside Playwright's config, as a run that failed with no report.
 * @param servers the run's servers, their phones selected
 * @param file the configuration file, whose `simulator.scenario` names the phones
 * @param selection how the phones were selected, for messages (`--devices`, PHONEWRIGHT_DEVICES); undefined:
 *   by the configuration file alone
 */
function checkSimulatorPhones(servers: Connection[], file: ConfigFile | undefined, selection: string | undefined): void {
  for (const server of servers) {
    if (server.url !== undefined || !Array.isArray(server.devices)) continue;
    const scenario = file?.simulator.scenario;
    const roster = scenario ? loadRoster(path.resolve(file!.dir, scenario)) : loadRoster(DEFAULT_SCENARIO, 'the built-in scenario');
    // A name given to --devices stands where an id would: the selection keeps it in `id` until the matrix looks it up.
    const unknown = server.devices.map((d) => d.id as string).filter((want) => want !== 'main' && !roster.phones.some((p) => p.id === want || p.name === want));
    if (unknown.length === 0) continue;
    const message = `${selection ?? file?.source ?? 'the configuration'} names ${unknown.join(', ')}, which the simulator's scenario (${roster.source}) does not have`;
    const hint = `one of ${roster.phones.map((p) => `${p.name} (${p.id})`).join(', ')}, or main`;
    throw selection === '--devices' ? new UsageError(message, { hint }) : new ConfigError(message, { hint });
  }
}
