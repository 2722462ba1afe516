// The tools that run and mend: `run_specs` runs `phonewright test` (Playwright through phonewright, the folder's
// config or phonewright's own) on named phones with a grep, and answers each test's verdict per phone with the
// failure's message and screen; `accept` takes a failed golden of that run as `phonewright review` accepts it,
// writing through the run's files (src/report/run-files.ts): never outside the run's goldens and specs.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ENV } from '../config/resolve.js';
import { CheckFailedError, UsageError } from '../core/errors.js';
import { decodePng, encodePng } from '../image/index.js';
import { attachmentBody, readReport } from '../report/approvals.js';
import { reportTests } from '../report/json-report.js';
import { PHONE_SCREEN } from '../report/phone-screen.js';
import { readVisualRun } from '../report/visual-failures.js';
import { batchWrites, planOf, shownFrom } from '../web/review/plan.js';
import { object, PHONE, text, whole } from './args.js';
import { fitImage } from './scale.js';
import { json, png, type Content, type Tool } from './tool.js';

/** Where phonewright's matrix config writes the run's JSON report, in the working folder. */
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
      const started = Date.now();
      const { code, tail } = await runCli(argv, lab.options, deadline.signal);
      const report = path.resolve(lab.options.cwd, REPORT);
      if ((statSync(report, { throwIfNoEntry: false })?.mtimeMs ?? 0) < started - 1_000) {
        throw new CheckFailedError(`the run wrote no report (exit code ${code}): ${lab.options.clean(tail).slice(-600)}`, { hint: 'check the spec compiles and the phones exist' });
      }
      return verdicts(report, lab.options.clean, code);
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
      const run = readVisualRun(path.resolve(cwd, REPORT), cwd);
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

/** Each test's verdict per phone from the run's JSON report, with the failures' messages and screens. */
function verdicts(file: string, clean: (text: string) => string, code: number): Content[] {
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
  return [json({ ok: code === 0 && failed === 0, passed: tests.filter((t) => t.verdict === 'passed').length, failed, tests, report: REPORT }), ...images];
}

/** Runs phonewright's CLI in the working folder, its output kept (never on this server's stdout), stopped at the deadline. */
function runCli(argv: string[], o: { cwd: string; env: Readonly<Record<string, string | undefined>>; connectionArgs: Record<string, string | undefined> }, signal: AbortSignal | undefined): Promise<{ code: number; tail: string }> {
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('phonewright/package.json')), 'bin', 'phonewright.js');
  const env: Record<string, string | undefined> = { ...o.env };
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
