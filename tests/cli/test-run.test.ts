// `phonewright test` when Playwright's run fails: the way out it gives is the HTML report only when the run
// wrote one; a run that failed before any test (its config threw) wrote none, whatever an older run left.
// Each run is a real `phonewright test` process in a temp project (Playwright takes the process's folder).
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { installPackage } from '../helpers/installed.js';
import { expect, smallPhone, test } from '../helpers/inline.js';
import { ROOT, spawnCli } from '../helpers/spawn.js';
import { startsHeavy } from '../helpers/test.js';

// outputDir given: Playwright's default is the package's test-results/, which holds this suite's own output.
const HTML_CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: 'specs', outputDir: 'test-results', reporter: [['html', { outputFolder: 'reports/html', open: 'never' }]] });
`;

/** The last line on stderr: phonewright's own. */
function lastLine(stderr: string): string {
  return stderr.trimEnd().split('\n').at(-1)!;
}

test('a failing test: exit 1, and the report it wrote is the way out', async ({ inline }) => {
  const project = await inline.project({
    'playwright.config.ts': HTML_CONFIG,
    'specs/a.spec.ts': "import { test, expect } from '@playwright/test';\ntest('fails', () => expect(1).toBe(2));\n",
  });
  const r = await spawnCli(['test'], { cwd: project.dir });
  expect(r.code).toBe(1);
  expect(lastLine(r.stderr)).toBe('phonewright: the test run failed (playwright exit code 1); try: open the report: npx playwright show-report reports/html');
  expect((await stat(project.path('reports/html/index.html'))).isFile()).toBe(true);
});

test('a config that throws: exit 1, no report written, and an older report is not offered as this run\'s', async ({ inline }) => {
  const project = await inline.project({ 'playwright.config.ts': "throw new Error('the lab is not set up');\n" });
  await mkdir(project.path('reports/html'), { recursive: true });
  await writeFile(project.path('reports/html/index.html'), '<html>an older run</html>');
  const before = (await stat(project.path('reports/html/index.html'))).mtimeMs;
  const r = await spawnCli(['test'], { cwd: project.dir });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('the lab is not set up');
  expect(lastLine(r.stderr)).toBe('phonewright: the test run failed (playwright exit code 1); try: read what Playwright printed above (it wrote no report to reports/html)');
  expect((await stat(project.path('reports/html/index.html'))).mtimeMs).toBe(before);
});

// A folder with specs and phonewright.config.json but no playwright.config.ts, phonewright installed in it as users
// have it: `phonewright test` runs phonewright's own config for it. The package's config is its build's (Playwright
// compiles no TypeScript under node_modules: the .ts one failed with "Unknown file extension"), and the spec
// imports `phonewright/fixtures`. Its phones are the folder's lab's, from one file for the projects, the simulator
// and the workers (the workers once read the package's folder: no lab there, and every phone failed as "no server
// named lab"), and its reports, its upload cache and its spec's push paths are the folder's, not the package's
// (where the reports went, while the CLI said none was written).
test('a folder without a Playwright config, phonewright installed: its lab\'s phones tested, its reports in it', async ({ inline, startSim }) => {
  // Said before the package is installed for it (seconds of copying the fast loop would throw away).
  startsHeavy('a Playwright run');
  const sim = await startSim({ scenario: { phones: [smallPhone('device@71', 'phone', '0x2e7d32')] } });
  const project = await inline.project({
    'phonewright.config.json': JSON.stringify({ servers: [{ name: 'lab', url: sim.url, devices: [{ id: 'device@71', name: 'phone' }] }], push: { apk: 'app.apk' } }),
    'app.apk': 'the build under test',
    'login.js': 'the login script',
  });
  // Written as it is: inline projects point `phonewright/fixtures` at the repository's build, not at an installed copy.
  await mkdir(project.path('specs'));
  await writeFile(
    project.path('specs/a.spec.ts'),
    `import { test, expect } from 'phonewright/fixtures';

test.use({ push: { script: 'login.js' } });

test('reads the lab phone', async ({ device, pushed }) => {
  expect(pushed.apk).toHaveLength(1);
  expect(pushed.script).toHaveLength(1);
  await device.expectPixel(1, 1).toBe('0x2e7d32');
});
`,
  );
  const bin = await installPackage(ROOT, project.dir);
  const r = await spawnCli(['test'], { cwd: project.dir, bin });
  expect(r.stdout, r.stderr).toContain('2 passed, 0 failed');
  expect(r.code).toBe(0);
  // Each file went up once: the push project and the phone's worker keep one upload cache, in the folder. The
  // spec's own push starts from the folder too (it once started from the package's: login.js "does not exist").
  expect(sim.stats().operations.upload).toBe(2);
  for (const report of ['reports/html/index.html', 'reports/results.json', 'reports/junit.xml']) expect(existsSync(project.path(report)), report).toBe(true);
  // The spec is named from the folder: Playwright names files from the config's testDir, and the package's config,
  // under node_modules/phonewright/, once made that ../../../../specs/a.spec.ts in every report.
  const results = JSON.parse(await readFile(project.path('reports/results.json'), 'utf8')) as { suites: { file: string }[] };
  // (The push project's file is the package's own, named from the folder too.)
  expect(results.suites.map((s) => s.file)).toEqual(['node_modules/phonewright/dist/pkg/push.setup.js', 'specs/a.spec.ts']);
  expect([...(await readFile(project.path('reports/junit.xml'), 'utf8')).matchAll(/classname="([^"]*)"/g)].map((m) => m[1])).toEqual(['node_modules/phonewright/dist/pkg/push.setup.js', 'specs/a.spec.ts']);

  // A config of the user's own takes phonewright's reporters by the package's names: the closing line (which
  // fails a run for a phone it could not reach) and the history a nightly writes.
  await writeFile(
    project.path('playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';
import { deviceMatrix } from 'phonewright/fixtures';

const matrix = deviceMatrix();
export default defineConfig({
  projects: matrix.projects, workers: matrix.workers, globalSetup: matrix.globalSetup, outputDir: 'test-results',
  reporter: [['phonewright/reporters/summary'], ['phonewright/reporters/history', { outputDir: 'reports' }]],
});
`,
  );
  const nightly = await spawnCli(['nightly'], { cwd: project.dir, bin });
  expect(nightly.stdout, nightly.stderr).toContain('2 passed, 0 failed');
  expect(nightly.code, nightly.stderr).toBe(0);
  expect(existsSync(project.path('reports/nightly.md')), 'reports/nightly.md').toBe(true);
});
