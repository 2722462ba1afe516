/**
 * The example suites (specs/) as a temp project of the inline runner (tests/helpers/inline.ts): specs/ copied
 * with its assets and goldens (they import `phonewright/fixtures`, which resolves to the package installed under
 * the inline projects, as from a team's repository with phonewright installed), and a Playwright config like
 * the repository's. It runs against a simulator the test started: the run takes it for its embedded
 * simulator (PHONEWRIGHT_SIM_URL and its admin key, as the matrix's global setup would set them), so the
 * phones keep their names, goldens and models, and the notification specs can post through its admin API.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { importPath, matrixConfig, PACKAGE, REPO, type InlineProject, type InlineRun } from './inline.js';

/**
 * The example suites: 16 tests on each of the default scenario's four phones. On a server of the interface only,
 * the chat app's image and the {@link SIGN_IN_TESTS} tests of the sign-in form skip (neither capture nor UI elements).
 */
export const EXAMPLE_PHONES = ['galaxy-s9', 'pixel-7', 'galaxy-tab-s7', 'moto-g5'] as const;
export const TESTS_PER_PHONE = 16;
/** The tests of specs/sign-in.spec.ts, which find text through the UI elements or the screen's capture. */
export const SIGN_IN_TESTS = 3;

/** The run's config: the repository's (one project per phone, expect timeout 5 s), the JSON report and the summary line. */

/**
 * Writes the example suites into a new temp project.
 * @param make the inline fixture's `project`
 */
export async function exampleProject(make: (files: Record<string, string>) => Promise<InlineProject>): Promise<InlineProject> {
  const project = await make({});
  const config = matrixConfig({
    file: project.path('playwright.config.ts'),
    testDir: 'specs',
    timeout: 30_000,
    expectTimeout: 5_000,
    reporters: (repo) => `['list'], ['json', { outputFile: r('results.json') }], ['${repo(PACKAGE.summaryReporter)}']`,
  });
  await project.write({ 'playwright.config.ts': config });
  // The suites as committed: a spec another engineer is writing in the checkout right now is not an example yet.
  for (const file of exampleFiles()) {
    await mkdir(path.dirname(project.path(file)), { recursive: true });
    await copyFile(path.join(REPO, file), project.path(file));
  }
  return project;
}

/** The files of specs/ that git knows (a read-only query), paths relative to the repository. */
function exampleFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', 'specs'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/**
 * The example suites with the repository's own playwright.config.ts (every reporter: html, json, junit,
 * summary, nightly history), its imports pointed back at the repository: `phonewright test` in this folder
 * is `npm start`, writing only here.
 */
export async function repoConfigProject(make: (files: Record<string, string>) => Promise<InlineProject>): Promise<InlineProject> {
  const project = await exampleProject(make);
  const repo = path.relative(project.dir, REPO).split(path.sep).join('/');
  const config = (await readFile(path.join(REPO, 'playwright.config.ts'), 'utf8')).replace(/(['"`])\.\/(fixtures|src)\//g, `$1${repo}/$2/`);
  await project.write({ 'playwright.config.ts': config });
  // The specs' 'phonewright/fixtures' as in the repository, where a package imports itself by its name: the
  // repository's bundle, whose reporters are the config's (the installed copy knows its own only).
  for (const file of exampleFiles().filter((f) => f.endsWith('.ts'))) {
    const source = await readFile(project.path(file), 'utf8');
    await writeFile(project.path(file), source.replaceAll("'phonewright/fixtures'", `'${importPath(project.path(file), 'dist/pkg/fixtures.js')}'`));
  }
  return project;
}

/**
 * Runs the example suites on `sim`, as the run's embedded simulator, logging in with its credentials.
 * @param env more variables for the run
 */
export function runOn(project: InlineProject, sim: SimulatorHandle, env: Record<string, string> = {}): Promise<InlineRun> {
  return project.run({
    env: {
      PHONEWRIGHT_SIM_URL: sim.url,
      PHONEWRIGHT_SIM_ADMIN_KEY: sim.adminKey,
      PHONEWRIGHT_USER: sim.user,
      PHONEWRIGHT_PASSWORD: sim.password,
      ...env,
    },
  });
}

/** The closing line the summary reporter printed, e.g. `48 passed, 0 failed`. */
export function summaryLine(run: InlineRun): string | undefined {
  return /^\d+ passed, \d+ failed(?:, \d+ skipped)?$/m.exec(run.stdout)?.[0];
}
