import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ENV } from '../config/resolve.js';
import { CheckFailedError, UsageError } from '../core/errors.js';
import { planShards, type PlannedShard, type PlanProject } from './shard-plan.js';
import { historyWeights } from './shard-weights.js';

/** `--shard i/n`, read. */
export interface ShardArg {
  index: number;
  total: number;
}

/** The run of one shard: Playwright's arguments and the variables the matrix reads. */
export interface ShardRun {
  args: string[];
  env: Record<string, string>;
  /** Removes the shard's temp files. */
  cleanup(): Promise<void>;
}

/** Where `phonewright nightly` keeps its history, whose durations balance the shards. */
const HISTORY_DIR = 'reports/history';
/** A test list (`--test-list`) splits its lines on this; a title holding it cannot be listed alone. */
const SEPARATOR = '›';

/**
 * Takes `--shard i/n` (or `--shard=i/n`) out of Playwright's arguments: phonewright shards by phone.
 * @param args the arguments for `playwright test`
 * @returns the shard, undefined when none was asked for, and the other arguments
 * @throws UsageError for a shard that is not `i/n` with 1 ≤ i ≤ n
 */
export function takeShardArg(args: string[]): { shard: ShardArg | undefined; rest: string[] } {
  const at = args.findIndex((a) => a === '--shard' || a.startsWith('--shard='));
  if (at < 0) return { shard: undefined, rest: args };
  const value = args[at] === '--shard' ? args[at + 1] : args[at]!.slice('--shard='.length);
  const m = /^(\d+)\/(\d+)$/.exec(value ?? '');
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || index < 1 || index > total) throw new UsageError(`--shard ${value ?? ''}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3`);
  const rest = args.filter((_, i) => i !== at && !(args[at] === '--shard' && i === at + 1));
  // A second one would reach Playwright and split this shard's phones again, leaving tests to no shard.
  if (rest.some((a) => a === '--shard' || a.startsWith('--shard='))) throw new UsageError('--shard given twice: give one --shard i/n');
  return { shard: { index, total }, rest };
}

/**
 * Plans the shards of a run by phone and returns this shard's run: whole phones (Playwright projects), each on
 * exactly one shard, balanced by the nightly history's durations (or test counts). The run's own tests are
 * listed first (`playwright test --list`), with the user's filters, so every shard plans the same listing.
 * @param shard this shard
 * @param args the arguments for `playwright test`, without the shard
 * @param env the run's environment
 * @param print where the plan is printed, one line per shard
 * @throws UsageError when no phone falls to this shard (more shards than phones)
 */
export async function shardRun(shard: ShardArg, args: string[], env: Record<string, string | undefined>, print: (line: string) => void): Promise<ShardRun> {
  const listed = await listRun(args.filter((a) => a !== '--list'), env);
  const weights = historyWeights(path.resolve(HISTORY_DIR), listed.map((p) => ({ name: p.name, tests: p.tests.map((t) => t.history) })));
  const projects: PlanProject[] = listed.map((p) => ({
    name: p.name,
    pool: p.pool,
    tests: p.tests.map((t, i) => ({ key: t.line, weight: weights.byProject.get(p.name)![i]! })),
    splittable: p.tests.every((t) => t.splittable),
  }));
  const plan = planShards(projects, shard.total);
  const phones = listed.reduce((n, p) => n + Math.max(1, p.pool.length), 0);
  print(`phonewright: shards by phone, balanced by ${weights.basis}:`);
  for (const s of plan) print(`${s.index === shard.index ? '→' : ' '} shard ${s.index}/${shard.total}: ${describe(s, weights.basis.startsWith('test count'))}`);
  const mine = plan[shard.index - 1]!;
  if (mine.projects.length === 0) {
    throw new UsageError(`--shard ${shard.index}/${shard.total}: no phone falls to this shard, the run has ${phones} phone${phones === 1 ? '' : 's'}`, { hint: `run at most ${phones} shards` });
  }
  const temp = await mkdtemp(path.join(tmpdir(), 'phonewright-shard-'));
  const run: string[] = [...withoutProjects(args), ...mine.projects.flatMap((p) => ['--project', p.project])];
  // A pool split across shards runs its share of the tests: a test list names them (and every other test here).
  if (mine.projects.some((p) => p.tests)) {
    const list = path.join(temp, 'tests.txt');
    const lines = mine.projects.flatMap((p) => p.tests ?? listed.find((l) => l.name === p.project)!.tests.map((t) => t.line));
    await writeFile(list, `${lines.join('\n')}\n`);
    run.push('--test-list', list);
  }
  const width = String(shard.total).length;
  return {
    args: run,
    env: {
      [ENV.shardPhones]: mine.projects.flatMap((p) => p.phones).join(','),
      // The blob is named as Playwright names a shard's, so the parts' blobs never collide in a merge.
      PLAYWRIGHT_BLOB_OUTPUT_NAME: `report-${String(shard.index).padStart(width, '0')}.zip`,
    },
    cleanup: () => rm(temp, { recursive: true, force: true }),
  };
}

/** What this module reads of Playwright's JSON report of a listing (src/ other than report/ does not import Playwright). */
interface JSONReport {
  config: { projects: { name: string; metadata?: unknown }[] };
  suites?: JSONReportSuite[];
}
interface JSONReportSuite {
  title: string;
  file: string;
  specs: { title: string; tests: { projectName: string }[] }[];
  suites?: JSONReportSuite[];
}

/** A project of the listing: its phones and its tests. */
interface ListedProject {
  name: string;
  pool: string[];
  tests: { line: string; history: string; splittable: boolean }[];
}

/** Lists the run's tests with Playwright (nothing runs), and keeps the phone projects among them. */
async function listRun(args: string[], env: Record<string, string | undefined>): Promise<ListedProject[]> {
  const temp = await mkdtemp(path.join(tmpdir(), 'phonewright-list-'));
  try {
    const file = path.join(temp, 'list.json');
    const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
    const { code, stderr } = await run(process.execPath, [cli, 'test', ...args, '--list', '--reporter=json'], { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: file });
    const report = code === 0 ? (JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as JSONReport | null) : null;
    if (!report) throw new CheckFailedError(`the run's tests could not be listed to plan the shards (playwright exit code ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`, { hint: 'run the same command without --shard to see why' });
    return phoneProjects(report);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The projects that are phones (the matrix's: a phone's id or a pool in their metadata), each with its tests. */
function phoneProjects(report: JSONReport): ListedProject[] {
  const tests = new Map<string, ListedProject['tests']>();
  const walk = (suites: JSONReportSuite[] | undefined, titles: string[], file: string | undefined) => {
    for (const suite of suites ?? []) {
      const at = file === undefined ? [suite.title] : [...titles, suite.title];
      for (const spec of suite.specs) {
        const names = [...at, spec.title];
        for (const t of spec.tests) {
          const line = `[${t.projectName}] ${SEPARATOR} ${(file ?? suite.file)} ${SEPARATOR} ${names.slice(1).join(` ${SEPARATOR} `)}`;
          const list = tests.get(t.projectName) ?? tests.set(t.projectName, []).get(t.projectName)!;
          list.push({ line, history: names.join(' › '), splittable: names.slice(1).every((n) => !n.includes(SEPARATOR)) });
        }
      }
      walk(suite.suites, at, file ?? suite.file);
    }
  };
  walk(report.suites, [], undefined);
  const projects = report.config.projects.map((p) => ({ name: p.name, metadata: (p.metadata ?? {}) as { deviceId?: unknown; pool?: unknown } }));
  const phones = projects.filter((p) => typeof p.metadata.deviceId === 'string' || Array.isArray(p.metadata.pool));
  // A config not built by the device matrix: each project with tests is taken for a phone.
  return (phones.length ? phones : projects)
    .filter((p) => tests.has(p.name))
    .map((p) => ({ name: p.name, pool: Array.isArray(p.metadata.pool) ? p.metadata.pool.map((m) => String(m).replace(/ \([^()]*\)$/, '')) : [], tests: tests.get(p.name)! }));
}

/** `galaxy-s9 (12 tests, 41.2 s), pixels: p1, p2 (6 of 12 tests, 20.1 s)`. */
function describe(shard: PlannedShard, byCount: boolean): string {
  if (shard.projects.length === 0) return 'no phone';
  return shard.projects
    .map((p) => {
      const who = p.phones.length === 1 && p.phones[0] === p.project ? p.project : `${p.project}: ${p.phones.join(', ')}`;
      const count = `${p.tests ? 'a share of ' : ''}${p.count} test${p.count === 1 ? '' : 's'}`;
      return `${who} (${count}${byCount ? '' : `, ${(p.weight / 1000).toFixed(1)} s`})`;
    })
    .join(', ');
}

/** The arguments without `--project` (the listing applied it; the shard names its own projects). */
function withoutProjects(args: string[]): string[] {
  return args.filter((a, i) => !(a === '--project' || a.startsWith('--project=') || (args[i - 1] === '--project' && i > 0)));
}

/**
 * The longest the listing may take: it loads the config, which may ask a server for its phones. Past it the
 * listing is killed and the shard fails with its line rather than waiting for ever.
 */
const LIST_TIMEOUT_MS = 5 * 60_000;

/** Runs a process to its end (killed after {@link LIST_TIMEOUT_MS}), stdout dropped, stderr kept for the error line. */
function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: LIST_TIMEOUT_MS, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? 1, stderr: signal ? `${stderr}\nthe listing was stopped after ${LIST_TIMEOUT_MS / 60_000} min (${signal})` : stderr }));
  });
}
