// The files of an inline project (inline.ts): its Playwright config (the device matrix of the package's
// fixtures, reports under reports/), a spec that imports the fixtures, a small phone for a test's simulator.
import path from 'node:path';
import { ROOT } from './spawn.js';

/** Where inline projects are made: inside the repository, so `@playwright/test` resolves to its one copy. */
export const INLINE_ROOT = path.join(ROOT, 'test-results', 'inline');
/** An inline project's config file, as far as imports go: every project is one folder under {@link INLINE_ROOT}. */
const INLINE_CONFIG = path.join(INLINE_ROOT, 'project', 'playwright.config.ts');
/** What specs import; rewritten to the package's build of it by relative path ({@link PACKAGE}). */
export const FIXTURES_SPECIFIER = 'phonewright/fixtures';
/**
 * phonewright as the inline projects have it: the package installed under {@link INLINE_ROOT}'s node_modules by the
 * suite's global set-up (fresh-bundle.ts), the bundle of `npm run build` (dist/pkg/) with what `npm pack` ships
 * beside it, as an installed phonewright's users have it. Under node_modules Playwright compiles nothing: imported
 * from dist/ in the repository, the bundle went through Playwright's Babel, and every worker parsed the 250 KB source
 * map it made to place its steps' stacks (0.5–1 s of CPU a worker).
 */
export const INSTALLED_PACKAGE = path.join(INLINE_ROOT, 'node_modules', 'phonewright');
/** The package's entry points the inline projects import, as paths from the repository's root. */
const PKG = path.relative(ROOT, path.join(INSTALLED_PACKAGE, 'dist', 'pkg')).split(path.sep).join('/');
export const PACKAGE = { fixtures: `${PKG}/fixtures.js`, summaryReporter: `${PKG}/summary-reporter.js`, historyReporter: `${PKG}/history-reporter.js` };

/**
 * The checks' timeout of a run whose checks must all pass (as `expectTimeout`): the 1 s default keeps a run of
 * failing checks short, and a loaded machine once failed a passing check on it, its one read still unanswered. A
 * passing check ends at its first matching read, whatever its timeout.
 */
export const MUST_PASS = 10_000;

/** What the generated Playwright configs of device-matrix projects differ in. */
export interface MatrixConfigOptions {
  /** Where the config file goes: the repo's files are imported relative to it. @default an inline project's ({@link INLINE_CONFIG}) */
  file?: string;
  /** The reporter entries, as code; `r(name)` is a path under `reports/`, `repo(file)` imports a repo file. */
  reporters: (repo: (file: string) => string) => string;
  /** More imports, as code. */
  imports?: (repo: (file: string) => string) => string;
  /** @default 20_000 */
  timeout?: number;
  /** @default 1_000 */
  expectTimeout?: number;
  /** The matrix's testDir (deviceMatrix's default: 'specs'). */
  testDir?: string;
  /** The projects, as an expression over `matrix`. @default 'matrix.projects' */
  projects?: string;
  /** Object members spliced into `defineConfig({...})`, e.g. `"use: { trace: 'on' },"`. */
  extra?: string;
}

/** A Playwright config of a temp project: the device matrix of the repo's fixtures, reports under `reports/`. */
export function matrixConfig(o: MatrixConfigOptions): string {
  const repo = (repoFile: string) => importPath(o.file ?? INLINE_CONFIG, repoFile);
  return `
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { deviceMatrix } from '${repo(PACKAGE.fixtures)}';
${o.imports?.(repo) ?? ''}
const here = path.dirname(fileURLToPath(import.meta.url));
const r = (f: string) => path.join(here, 'reports', f);
const matrix = deviceMatrix({ configDir: here${o.testDir ? `, testDir: '${o.testDir}'` : ''} });

export default defineConfig({
  projects: ${o.projects ?? 'matrix.projects'},
  workers: matrix.workers,
  globalSetup: matrix.globalSetup,
  fullyParallel: false,
  retries: 0,
  timeout: ${o.timeout ?? 20_000},
  expect: { timeout: ${o.expectTimeout ?? 1_000} },
  outputDir: path.join(here, 'test-results'),
  reporter: [${o.reporters(repo)}],
  ${o.extra ?? ''}
});
`;
}

/**
 * A Playwright config for the temp project of {@link InlineProject}: the JSON report is what
 * {@link InlineProject.run} reads.
 * @param extra object members spliced into `defineConfig({...})`, e.g. `"use: { trace: 'on' },"`
 * @param reporters `'all'` adds the html and junit reports beside the json one
 * @param projects the projects, as an expression over `matrix`
 * @param expectTimeout the checks' timeout in ms: 1 s keeps a run of failing checks short; a run whose checks
 * must all pass takes more, so that a loaded machine cannot fail them
 */
export function config(extra = '', reporters: 'json' | 'all' = 'json', projects = 'matrix.projects', expectTimeout?: number): string {
  const more = reporters === 'all' ? `['html', { outputFolder: r('html'), open: 'never' }], ['junit', { outputFile: r('junit.xml') }],` : '';
  return matrixConfig({
    // The summary reporter, as the project's own config has it: it prints the closing line and fails a run that could not test a phone.
    reporters: (repo) => `['list'], ['json', { outputFile: r('results.json') }], ['${repo('tests/helpers/steps-reporter.ts')}', { outputFile: r('steps.json') }], ['${repo(PACKAGE.summaryReporter)}'], ${more}`,
    projects,
    extra,
    expectTimeout,
  });
}

/**
 * The config files of a project whose phones are `devices` of one server: {@link config} and phonewright.config.json.
 * @param expectTimeout the checks' timeout in ms, as {@link config} takes it
 */
export function oneServer(server: { url: string }, devices: readonly { id: string; name?: string }[], expectTimeout?: number): Record<string, string> {
  return { 'playwright.config.ts': config('', 'json', 'matrix.projects', expectTimeout), 'phonewright.config.json': JSON.stringify({ url: server.url, devices }) };
}

/** A spec file: the import of `test` and `expect` from the repo's fixtures, then `body`. */
export function spec(body: string): string {
  return `import { test, expect, SimulatorAdmin } from '${FIXTURES_SPECIFIER}';\n\n${body}\n`;
}

/** A phone scenario for a test-started simulator: small screens (pixel reads are one call each). */
export function smallPhone(id: string, name: string, fill: string, rects: { x: number; y: number; width: number; height: number; color: string }[] = []) {
  return { id, name, screen: { width: 64, height: 48, fill, rects } };
}

/** How a file at `from` imports `repoFile` of the repository: a relative path, `./` first when it needs one. */
export function importPath(from: string, repoFile: string): string {
  const rel = path.relative(path.dirname(from), path.join(ROOT, repoFile)).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
