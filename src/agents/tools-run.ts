// The tools that run and mend: `run_specs` runs `phonewright test` (Playwright through phonewright, the folder's
// config or phonewright's own) on named phones with a grep, and answers each test's verdict per phone with the
// failure's message and screen; `accept` takes a failed golden of that run as `phonewright review` accepts it,
// writing through the run's files (src/report/run-files.ts): never outside the run's goldens and specs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ENV } from '../config/resolve.js';
import { CheckFailedError, ConfigError, UsageError } from '../core/errors.js';
import { decodePng, encodePng } from '../image/index.js';
import { attachmentBody, readReport } from '../report/approvals.js';
import { reportTests } from '../report/json-report.js';
import { PHONE_SCREEN } from '../report/phone-screen.js';
import { readRunResults, RUN_RESULTS_ENV } from '../report/run-results.js';
import { readVisualRun } from '../report/visual-failures.js';
import { batchWrites, planOf, shownFrom } from '../web/review/plan.js';
import { object, PHONE, text, whole } from './args.js';
import type { LabOptions } from './lab.js';
import { fitImage } from './scale.js';
import { json, png, type Content, type Tool } from './tool.js';

/**
 * Where phonewright's matrix config (and the one init writes) has the run's JSON report, in the working folder: read
 * when the run does not say where its report went (a config without phonewright's summary reporter), and by accept
 * before any run of this server.
 */
const REPORT = 'reports/results.json';
/** A run's default deadline: a few specs on a few phones. */
const RUN_MS = 600_000;
/** The long side of a failure's screen in an answer: several may come at once. */
const FAILURE_SIDE = 640;
const ANSI = /\u001b\[[0-9;]*m/g;

/** The tools that run specs and accept their changes. */
export const RUN_TOOLS: Tool[] = [
  {
    name: 'run_specs',
    description:
      'Runs specs (paths under specs/, default all) on phones (ids or names, default the whole matrix), optionally only tests whose title matches grep, ' +
      'through phonewright test. Answers per test and phone: passed, failed (with the failure\'s message and the phone\'s screen at the failure) or skipped.',
    timeoutMs: RUN_MS,
    input: object({
      specs: { type: 'array', items: text('A spec under specs/, e.g. specs/sign-in.spec.ts', 200), maxItems: 100, description: 'Spec files (default: all of specs/)' },
      phones: { type: 'array', items: PHONE, maxItems: 64, description: 'Phones to run on (default: every phone of the matrix)' },
      grep: text('Only tests whose title matches this regular expression', 500),
      timeout: whole('Longest time the run may take, in ms (default 600000)', 1_000, 3_600_000),
    }),
    async run(args: { specs?: string[]; phones?: string[]; grep?: string }, { lab, deadline }) {
      for (const [i, s] of (args.specs ?? []).entries()) {
        const file = path.resolve(lab.options.cwd, s);
        if (!file.startsWith(path.resolve(lab.options.cwd, 'specs') + path.sep)) throw new UsageError(`invalid argument specs[${i}]: ${s} is not under specs/`);
      }
      const projects = await Promise.all((args.phones ?? []).map(async (p) => (await lab.phone(p, { deadline })).facts.project));
      const argv = ['test', ...(args.specs ?? []), ...projects.flatMap((p) => ['--project', p]), ...(args.grep ? ['--grep', args.grep] : [])];
      const report = await runForResults(argv, lab.options, deadline.signal);
      lab.lastResults = report.file;
      return verdicts(report.file, lab.options, report.code);
    },
  },
  {
    name: 'accept',
    description:
      'Accepts a failed golden of the last run_specs as phonewright review does: a region check\'s sample becomes its golden, a pixel check\'s line takes the colour received. ' +
      'Name the test (a part of its title) and the phone; writes only the run\'s goldens and spec lines.',
    input: object({ test: text('A part of the failed test\'s title'), phone: PHONE, check: text('Which check, when a test failed several: e.g. "golden sign-in.png" or "pixel (5, 5)"', 200) }, ['test']),
    async run(args: { test: string; phone?: string; check?: string }, { lab, deadline }) {
      const cwd = lab.options.cwd;
      const run = readVisualRun(lab.lastResults ?? path.resolve(cwd, REPORT), cwd);
      const project = args.phone === undefined ? undefined : (await lab.phone(args.phone, { deadline })).facts.project;
      const failures = run.failures.filter((f) => f.test.includes(args.test) && (project === undefined || f.project === project) && (args.check === undefined || f.key.check === args.check));
      if (failures.length !== 1) {
        const all = run.failures.map((f) => `${f.test} [${f.project}] ${f.key.check}`);
        throw new UsageError(`invalid argument test: ${failures.length} failed checks of the last run match${all.length ? ` (there are: ${all.join('; ')})` : ': the run has no visual failure'}`, { hint: 'name one test, with phone and check' });
      }
      const f = failures[0]!;
      const sources = new Map<string, string>();
      const shown = shownFrom(cwd);
      const plan = planOf(f, run, shown, sources);
      if (!plan.ok) throw new UsageError(`cannot accept ${f.key.check} of ${f.test} on ${f.project}: ${plan.why}`);
      const writes = batchWrites([plan], sources, shown);
      await run.files.write(writes);
      return [json({ accepted: `${f.key.check} of ${f.test} on ${f.project}`, written: writes.map((w) => shown(w.file)) })];
    },
  },
];

/**
 * Runs phonewright's CLI and finds the run's JSON report where the run says it wrote it (the summary reporter, told
 * by RUN_RESULTS_ENV: the config's json reporter, wherever it writes); with no word from the run, where the matrix's
 * config writes it, written by this run.
 * @throws CheckFailedError when the run tested nothing (its reports are the last run's), ConfigError when its config
 *   writes no JSON report
 */
async function runForResults(argv: string[], o: LabOptions, signal: AbortSignal | undefined): Promise<{ file: string; code: number }> {
  const told = path.join(mkdtempSync(path.join(tmpdir(), 'phonewright-run-')), 'results.json');
  const started = Date.now();
  let run: { code: number; tail: string };
  let said: ReturnType<typeof readRunResults>;
  try {
    run = await runCli(argv, o, { [RUN_RESULTS_ENV]: told }, signal);
    said = readRunResults(told);
  } finally {
    rmSync(path.dirname(told), { recursive: true, force: true });
  }
  const { code, tail } = run;
  const output = () => o.clean(tail).slice(-600);
  if (said && !said.tested) throw new CheckFailedError(`the run tested nothing (exit code ${code}): ${output()}`, { hint: 'check the spec compiles, and that the phones and grep name tests' });
  if (said && said.json === null) throw new ConfigError('the run\'s Playwright config writes no JSON report, which run_specs reads', { hint: "add ['json', { outputFile: 'reports/results.json' }] to the reporters of playwright.config.ts" });
  const file = said?.json ?? (o.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? path.resolve(o.cwd, o.env.PLAYWRIGHT_JSON_OUTPUT_FILE) : path.resolve(o.cwd, REPORT));
  if ((statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < started - 1_000) {
    const hint = said ? 'check the spec compiles and the phones exist' : `list phonewright's summary reporter in playwright.config.ts (['phonewright/reporters/summary']) so a run says where its JSON report is; without it, run_specs reads ${REPORT}`;
    throw new CheckFailedError(`the run wrote no report to ${path.relative(o.cwd, file) || file} (exit code ${code}): ${output()}`, { hint });
  }
  return { file, code };
}

/** Each test's verdict per phone from the run's JSON report, with the failures' messages and screens. */
function verdicts(file: string, { clean, cwd }: LabOptions, code: number): Content[] {
  const report = readReport(file);
  const tests: Record<string, unknown>[] = [];
  const images: Content[] = [];
  for (const { spec, test } of reportTests(report.suites)) {
    const result = test.results.at(-1);
    const status = result?.status ?? 'skipped';
    const row: Record<string, unknown> = { spec: spec.file, test: spec.title, phone: test.projectName, verdict: status === 'passed' || status === 'skipped' ? status : 'failed' };
    if (result && row.verdict === 'failed') {
      row.message = clean((result.errors[0]?.message ?? result.error?.message ?? status).replace(ANSI, '')).slice(0, 2_000);
      const screen = result.attachments.find((a) => a.name === PHONE_SCREEN);
      const bytes = screen && attachmentBody(screen);
      if (bytes) {
        const { image, scale } = fitImage(decodePng(bytes, PHONE_SCREEN), FAILURE_SIDE);
        row.screen = { image: images.length / 2, scale };
        images.push(json({ screenOf: `${spec.title} [${test.projectName}]`, scale }), png(encodePng(image, {}, true)));
      }
    }
    tests.push(row);
  }
  const failed = tests.filter((t) => t.verdict === 'failed').length;
  return [json({ ok: code === 0 && failed === 0, passed: tests.filter((t) => t.verdict === 'passed').length, failed, tests, report: path.relative(cwd, file) || file }), ...images];
}

/** Runs phonewright's CLI in the working folder, its output kept (never on this server's stdout), stopped at the deadline. */
function runCli(argv: string[], o: LabOptions, extraEnv: Record<string, string>, signal: AbortSignal | undefined): Promise<{ code: number; tail: string }> {
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('phonewright/package.json')), 'bin', 'phonewright.js');
  const env: Record<string, string | undefined> = { ...o.env, ...extraEnv };
  const set = (name: string, value: string | undefined) => value !== undefined && (env[name] = value);
  set(ENV.url, o.connectionArgs.url);
  set(ENV.user, o.connectionArgs.user);
  set(ENV.password, o.connectionArgs.password);
  set(ENV.apiRoot, o.connectionArgs.apiRoot);
  set(ENV.server, o.connectionArgs.server);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-8_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const stop = () => child.kill('SIGINT');
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', reject);
    child.on('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      resolve({ code: code ?? 130, tail });
    });
  });
}
