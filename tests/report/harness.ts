/**
 * The nightly tests' harness: a temp project under `test-results/nightly/` (inside the repository, so
 * `@playwright/test` resolves to the one copy in node_modules) with a Playwright config like the repo's, run
 * by the real CLI (`node bin/phonewright.js nightly …`, built by `npm run build`); and what a run leaves
 * behind, read back: history records, nightly.md, nightly.json, trend.html, the JSON report.
 */
import { randomBytes } from 'node:crypto';
import { cp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import type { Comparison, HistoryRecord } from '../../src/report/history-types.js';
import { reportTests } from '../../src/report/json-report.js';
import { InlineProject, inheritedEnv, matrixConfig, PACKAGE, test as inline } from '../helpers/inline.js';
import { BIN, ROOT as REPOSITORY, runNode } from '../helpers/spawn.js';

export { smallPhone as phone } from '../helpers/inline.js';

/** The repository, where the nightly projects' imports point. */
export const REPO = REPOSITORY;
const ROOT = path.join(REPO, 'test-results', 'nightly');
/** A CLI run longer than this is stuck. */
const RUN_TIMEOUT = 120_000;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for failure messages. */
  output: string;
}

/** Counts per final outcome, as the JSON report calls them. */
export type Counts = Record<'expected' | 'unexpected' | 'flaky' | 'skipped', number>;

/** An inline project (tests/helpers/inline.ts) that the CLI runs: what a nightly wrote, read back. */
export class Project extends InlineProject {
  /** Runs `phonewright <args>` in the project, with a clean environment plus `env`. */
  async cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    const childEnv = { ...inheritedEnv(), NO_COLOR: '1', PW_TEST_HTML_REPORT_OPEN: 'never', ...env };
    const { code, stdout, stderr } = await runNode(BIN, args, { cwd: this.dir, env: childEnv, timeoutMs: RUN_TIMEOUT });
    return { code, stdout, stderr, output: `$ phonewright ${args.join(' ')} → exit ${code}\n${stdout}\n${stderr}` };
  }

  /** The history records, oldest first. */
  async records(reports = 'reports'): Promise<HistoryRecord[]> {
    const dir = this.path(reports, 'history');
    const names = existsSync(dir) ? (await readdir(dir)).filter((n) => n.endsWith('.json')).sort() : [];
    return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as HistoryRecord));
  }

  async summary(reports = 'reports'): Promise<string> {
    return readFile(this.path(reports, 'nightly.md'), 'utf8');
  }

  async comparison(reports = 'reports'): Promise<Comparison> {
    return JSON.parse(await readFile(this.path(reports, 'nightly.json'), 'utf8')) as Comparison;
  }

  async trend(reports = 'reports'): Promise<string> {
    return readFile(this.path(reports, 'trend.html'), 'utf8');
  }

  /** Per project, how many tests ended expected, unexpected, flaky or skipped, from a JSON report. */
  async counts(file = 'reports/results.json'): Promise<Record<string, Counts>> {
    const report = JSON.parse(await readFile(this.path(file), 'utf8')) as JSONReport;
    const out: Record<string, Counts> = {};
    for (const { test: t } of reportTests(report.suites)) (out[t.projectName] ??= { expected: 0, unexpected: 0, flaky: 0, skipped: 0 })[t.status]++;
    return out;
  }

  /** Removes the project's folder. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Copies a folder of the project elsewhere in it (a CI job's artifact upload). */
  async copy(from: string, to: string): Promise<void> {
    await cp(this.path(from), this.path(to), { recursive: true });
  }
}

/**
 * A Playwright config for the temp project, like the repo's playwright.config.ts: the device matrix of the
 * repo's fixtures, the same reporters (history and, in blob mode, blob included), short timeouts.
 * @param file where the config goes (for the relative imports)
 */
export function config(file: string): string {
  return matrixConfig({
    file,
    imports: (repo) => `import { isOn, NIGHTLY_ENV } from '${repo('src/report/nightly-env.js')}';`,
    reporters: (repo) => `
    ['list'],
    ['html', { outputFolder: 'reports/html', open: 'never' }],
    ['json', { outputFile: 'reports/results.json' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['${repo(PACKAGE.summaryReporter)}'],
    ['${repo(PACKAGE.historyReporter)}'],
    ...(isOn(process.env[NIGHTLY_ENV.blob]) ? [['blob', { outputDir: 'reports/blob' }] as const] : []),
  `,
  });
}

/** The nightly tests' fixtures: the inline tests' (`startSim`), and temp projects with the config above. */
export const test = inline.extend<{
  /** Creates a temp project with the config above and `files`; removed after the test unless it failed. */
  project: (files: Record<string, string>) => Promise<Project>;
}>({
  project: async ({}, use, testInfo) => {
    const made: Project[] = [];
    await use(async (files) => {
      const p = await newProject(testInfo.title, files);
      made.push(p);
      return p;
    });
    if (testInfo.status === testInfo.expectedStatus) for (const p of made) await p.remove();
  },
});

/**
 * A temp project with the config above and `files`, outside a test's fixtures: for a run that a file's tests
 * share (a worker-scoped fixture), which removes it with `remove()`.
 * @param title names its folder under `test-results/nightly/`
 */
export async function newProject(title: string, files: Record<string, string>): Promise<Project> {
  const slug = title.replace(/[^\w-]+/g, '-').slice(0, 50);
  const p = new Project(path.join(ROOT, `${slug}-${randomBytes(4).toString('hex')}`));
  await p.write({ 'playwright.config.ts': config(p.path('playwright.config.ts')), ...files });
  return p;
}

export { expect } from '../helpers/test.js';

/**
 * The rows of one list of nightly.md (`## New failures (n)` …) as `phone › test`, in order: a test's link into
 * the HTML report, its test id and its retries left out (links() reads the links).
 * @param markdown nightly.md
 * @param heading the list's heading without its count, e.g. `New failures`
 */
export function listed(markdown: string, heading: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith(`${heading} (`));
  if (!section) throw new Error(`no "## ${heading}" in nightly.md:\n${markdown}`);
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| phone |'))
    .map((l) => {
      const [phone, test] = l.split(' | ').map((c) => c.replace(/^\| /, ''));
      const title = test!.replace(/ \[\d+ retr(y|ies)\]$/, '').replace(/^\[(.*)\]\([^)]*\)$/, '$1').replace(/ \(test id `[^`]*`\)$/, '');
      return `${phone!.replace(/\\(.)/g, '$1')} › ${title.replace(/\\(.)/g, '$1')}`;
    });
}

/** The links of nightly.md into the HTML report, as `text → url`, in order. */
export function links(markdown: string): string[] {
  return [...markdown.matchAll(/\[((?:\\.|[^\]])*)\]\(([^)]*)\)/g)].map((m) => `${m[1]!.replace(/\\(.)/g, '$1')} → ${m[2]}`);
}

