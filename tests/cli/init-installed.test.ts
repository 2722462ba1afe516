// The adopter's path, as a QA engineer takes it in her team's repository: phonewright installed (what `npm pack`
// ships, in node_modules), `phonewright init --yes` in the otherwise empty folder, then `npx playwright test`
// green on the embedded simulator's four phones, its JSON report and JUnit naming specs/example.spec.ts from the
// folder (an installed config once made that ../../../../specs/…), `--list` leaving those reports as they were,
// and a second init that keeps every file.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installPackage } from '../helpers/installed.js';
import { expect, startsHeavy, test } from '../helpers/test.js';
import { cliEnv, ROOT, runNode, spawnCli } from '../helpers/spawn.js';

const FILES = ['playwright.config.ts', 'phonewright.config.json', 'specs/example.spec.ts', '.gitignore', '.github/workflows/phonewright-nightly.yml'];
/** The example spec's two tests on each of the embedded simulator's four phones. */
const TESTS = 2 * 4;

test('init in an empty folder with phonewright installed: the example passes on every phone, named from the folder; a second init keeps every file', async () => {
  // Two CLI runs and one Playwright run of four phones, on a machine others share.
  test.setTimeout(150_000);
  startsHeavy('a Playwright run');
  // Outside the repository, as a team's folder is: nothing resolves from the checkout but what node_modules links.
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-team-'));
  try {
    // What `npm i -D phonewright @playwright/test` leaves: a package.json, and the packages in node_modules.
    await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'team-app', devDependencies: { phonewright: '^0.1.0', '@playwright/test': '^1.65.1' } }, null, 2)}\n`);
    const bin = await installPackage(ROOT, dir);

    const init = await spawnCli(['init', '--yes', '--json'], { cwd: dir, bin });
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toEqual({ written: FILES, kept: [], next: ['npx playwright test', 'npx playwright show-report reports/html'] });
    const read = (file: string) => readFile(path.join(dir, file), 'utf8');
    expect(await read('specs/example.spec.ts')).toMatch(/^import \{ test, expect \} from 'phonewright\/fixtures';\n/);
    const config = await read('playwright.config.ts');
    for (const reporter of ["['html'", "['json'", "['junit'", "['phonewright/reporters/summary']", "['phonewright/reporters/history'"]) expect(config).toContain(reporter);
    expect(JSON.parse(await read('phonewright.config.json'))).toEqual({ $schema: './node_modules/phonewright/config.schema.json' });
    expect(existsSync(path.join(dir, 'node_modules/phonewright/config.schema.json')), 'the $schema it names').toBe(true);
    expect(await read('.gitignore')).toContain('\nnode_modules/\nreports/\ntest-results/\n.phonewright/\n');
    const workflow = await read('.github/workflows/phonewright-nightly.yml');
    for (const step of ['- run: npm ci', 'run: npx phonewright nightly', 'uses: actions/upload-artifact@v4']) expect(workflow).toContain(step);

    // `npx playwright test`: Playwright's own CLI, as the folder's node_modules has it, in the folder.
    const run = await runNode(path.join(dir, 'node_modules', '@playwright', 'test', 'cli.js'), ['test'], { cwd: dir, env: cliEnv(), timeoutMs: 120_000 });
    expect(run.stdout, run.stderr).toContain(`${TESTS} passed, 0 failed`);
    expect(run.code).toBe(0);
    const report = JSON.parse(await read('reports/results.json')) as { suites: { file: string }[] };
    expect(report.suites.map((s) => s.file)).toEqual(['specs/example.spec.ts']);
    const junit = await read('reports/junit.xml');
    const classnames = [...junit.matchAll(/classname="([^"]*)"/g)].map((m) => m[1]);
    expect(classnames).toEqual(Array(TESTS).fill('specs/example.spec.ts'));
    // Each case names its phone: four phones' cases are not four identical lines in CI.
    const names = [...junit.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]!);
    expect(new Set(names).size, names.join('\n')).toBe(TESTS);
    for (const phone of ['galaxy-s9', 'pixel-7', 'galaxy-tab-s7', 'moto-g5']) expect(names.filter((n) => n.startsWith(`[${phone}] `))).toHaveLength(2);
    expect(junit).not.toContain('../');
    expect(existsSync(path.join(dir, 'reports/html/index.html')), 'the HTML report').toBe(true);

    // `--list` tests nothing: the last run's reports stay as they were, for a reviewer and `phonewright approve`.
    const reports = ['reports/results.json', 'reports/junit.xml', 'reports/html/index.html'];
    const last = await Promise.all(reports.map(read));
    const list = await runNode(path.join(dir, 'node_modules', '@playwright', 'test', 'cli.js'), ['test', '--list'], { cwd: dir, env: cliEnv(), timeoutMs: 60_000 });
    expect(list.stdout, list.stderr).toContain(`Total: ${TESTS} tests in 1 file`);
    expect(list.stdout, 'no closing line: nothing ran').not.toMatch(/passed, \d+ failed/);
    expect(await Promise.all(reports.map(read))).toEqual(last);

    // Again: every file is there, and kept as it is (the run's reports beside them change nothing).
    const before = await Promise.all(FILES.map(read));
    const again = await spawnCli(['init', '--yes'], { cwd: dir, bin });
    expect(again.code, again.stderr).toBe(0);
    for (const file of FILES) expect(again.stdout).toMatch(new RegExp(`^kept {3}${file.replace(/[.]/g, '\\.')} `, 'm'));
    expect(again.stdout).not.toMatch(/^wrote/m);
    // Its own config has the matrix: no advice to add it.
    expect(again.stdout).toMatch(/^kept {3}playwright\.config\.ts +there already, left as it is$/m);
    expect(await Promise.all(FILES.map(read))).toEqual(before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
