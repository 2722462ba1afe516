// What `phonewright init` writes into a team's repository: a Playwright config of the team's own (the device
// matrix and every report), phonewright.config.json, an example spec, .gitignore lines and a nightly workflow.
// Pure: the texts only; src/cli/init-plan.ts decides which are written.

/** The package the written config imports (named here only: the CLI itself never loads it). */
const PLAYWRIGHT_TEST = '@playwright/test';

/** The server `init` writes into phonewright.config.json; none: the embedded simulator. */
export interface InitServer {
  name: string;
  url: string;
  user?: string;
  passwordEnv?: string;
  apiRoot?: string;
}

/** Where the files go, relative to the team's folder. */
export const INIT_FILES = {
  playwrightConfig: 'playwright.config.ts',
  phonewrightConfig: 'phonewright.config.json',
  exampleSpec: 'specs/example.spec.ts',
  gitignore: '.gitignore',
  workflow: '.github/workflows/phonewright-nightly.yml',
} as const;

/**
 * What the team's .gitignore gets: the installed packages (an empty folder's first `git add` would take them), the
 * runs' output, and the push cache (this machine's record of its uploads).
 */
export const GITIGNORE_LINES = ['node_modules/', 'reports/', 'test-results/', '.phonewright/'] as const;

/**
 * How a run of the device matrix goes, in phonewright's own Playwright config and in the one `init` writes: each
 * phone's tests one at a time in its worker, no retries (`nightly` gives `--retries 2`), a test's timeout and an
 * expect's.
 */
export const MATRIX_RUN = { fullyParallel: false, retries: 0, timeout: 30_000, expect: { timeout: 5_000 } } as const;

/**
 * The Playwright config: the device matrix (one project per phone, phones in parallel) and the reports a run
 * of phonewright's own config writes, under reports/.
 * @param esm the folder's package.json says `"type": "module"`: the config's folder is `import.meta.dirname`
 *   there, `__dirname` in a CommonJS package (Playwright loads the config as the package's type says, and
 *   neither name exists in the other kind)
 */
export function playwrightConfig(esm: boolean): string {
  const here = esm ? 'import.meta.dirname' : '__dirname';
  return `import { defineConfig } from '${PLAYWRIGHT_TEST}';
import { deviceMatrix, type DeviceWorkerOptions } from 'phonewright/fixtures';

// One Playwright project per phone, phones in parallel, each phone's tests one at a time: the phones of the
// servers in phonewright.config.json (read from this config's folder), or with no server the embedded
// simulator's, started for the run and stopped after it. PHONEWRIGHT_DEVICES and PHONEWRIGHT_SERVER choose
// among them. Every option: node_modules/phonewright/docs/configuration.md.
const matrix = deviceMatrix({ testDir: 'specs', configDir: ${here} });

export default defineConfig<object, DeviceWorkerOptions>({
  projects: matrix.projects,
  workers: matrix.workers,
  globalSetup: matrix.globalSetup,
${Object.entries(MATRIX_RUN).map(([key, value]) => `  ${key}: ${source(value)},\n`).join('')}  forbidOnly: !!process.env.CI,
  // A failed test carries a film of its phone's screen (phone-video), the nightly's first thing to look at; a passing
  // test keeps none. 'on', 'off', 'on-first-retry', or { mode, fps, size }: node_modules/phonewright/docs/video.md.
  use: { phoneVideo: 'retain-on-failure' },
  outputDir: 'test-results',
  reporter: [
    ['list'],
    ['html', { outputFolder: 'reports/html', open: 'never' }],
    ['json', { outputFile: 'reports/results.json' }],
    // Each test case named with its phone, [galaxy-s9] …: CI lists them by name.
    ['junit', { outputFile: 'reports/junit.xml', includeProjectInTestName: true }],
    // The closing "N passed, N failed" line; a phone the run could not reach fails the run once, named.
    ['phonewright/reporters/summary'],
    // Idle but under \`npx phonewright nightly\`: reports/history/, nightly.md, trend.html.
    ['phonewright/reporters/history', { outputDir: 'reports' }],
    // A part of a nightly (\`phonewright test --shard i/n\`, or PHONEWRIGHT_BLOB=1) leaves a blob for \`phonewright merge\`.
    ...(['', '0', 'false'].includes((process.env.PHONEWRIGHT_BLOB ?? '').toLowerCase()) ? [] : [['blob', { outputDir: 'reports/blob' }] as const]),
  ],
});
`;
}

/**
 * phonewright.config.json: its schema, for the editor's completion and checks, and the server given; with none,
 * the file names no server and the embedded simulator serves the phones.
 */
export function phonewrightConfig(server: InitServer | undefined): string {
  const file: Record<string, unknown> = { $schema: './node_modules/phonewright/config.schema.json' };
  if (server) file.servers = [Object.fromEntries(Object.entries(server).filter(([, v]) => v !== undefined))];
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * The example spec. Its checks hold on each of the embedded simulator's four phones (two phones upright, a tablet
 * on its side, a small phone): the settings agree with the screen on any phone, and the home screen's colours
 * are read at places every size has, the scenario's status bar at (5, 5) and its dock at the bottom-left corner.
 */
export const EXAMPLE_SPEC = `import { test, expect } from 'phonewright/fixtures';

// An example to start from: \`npx playwright test\` runs it on every phone of the device matrix, each phone its
// own Playwright project. On the embedded simulator both tests pass on its four phones of different sizes; on
// your own phones the first one does, and the second is skipped until it checks your app's screen.

test('the display settings agree with the screen', async ({ device }) => {
  const settings = await device.settings();
  const landscape = settings.display_resolution.w > settings.display_resolution.h;
  await expect(device).toHaveSettings({ orientation: landscape ? 'landscape' : 'portrait' });
});

test('the home screen shows its status bar and dock', async ({ device, simulator }) => {
  test.skip(!simulator, "these are the embedded simulator's colours: check your app's screen instead");
  // A place is in pixels from the top left, or in percent of the screen, which fits every size and orientation.
  await device.expectPixel(5, 5).toBe('0x101820');
  await device.expectPixel('0%', '100%', { tolerance: 6 }).toBe('#1c2b36');
});
`;

/**
 * A GitHub Actions workflow: the device matrix every night, its verdict the nightly's (exit 1 when a test newly
 * fails), the history kept in the Actions cache and the reports kept with the run.
 * @param server the server of phonewright.config.json: its password comes from the repository's secret of the
 *   same name; none, the embedded simulator, which runs on GitHub's own runners
 */
export function nightlyWorkflow(server: InitServer | undefined): string {
  const runner = server
    ? `    # A runner that reaches ${server.url}: a self-hosted one in the phone lab, say.
    runs-on: [self-hosted]`
    : `    # The embedded simulator's phones run anywhere; with a server of your own, a runner that reaches it.
    runs-on: ubuntu-latest`;
  const password = server?.passwordEnv
    ? `
        env:
          # The repository's secret of that name (Settings → Secrets and variables → Actions).
          ${server.passwordEnv}: \${{ secrets.${server.passwordEnv} }}`
    : '';
  return `# phonewright's nightly: the device matrix every night, with retries, and the history that says what newly
# broke on which phone. Written by \`npx phonewright init\`; yours to change. Many servers or shards, and the HTML
# report on GitHub Pages: node_modules/phonewright/docs/ci-nightly.yml, and nightly.md beside it.
name: phonewright nightly

on:
  schedule:
    - cron: '30 2 * * *'
  workflow_dispatch:

jobs:
  nightly:
${runner}
    timeout-minutes: 120
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      # The history lives in the Actions cache: each nightly restores the latest and saves it with its record.
      - name: the history so far
        uses: actions/cache/restore@v4
        with:
          path: reports/history
          key: phonewright-history-\${{ github.run_id }}
          restore-keys: phonewright-history-
      # Exit 1 when a test fails on a phone where it passed in that phone's previous nightly.
      - name: the device matrix
        run: npx phonewright nightly${password}
      - name: the summary on the run's page
        if: \${{ !cancelled() }}
        run: test -f reports/nightly.md && cat reports/nightly.md >> "$GITHUB_STEP_SUMMARY" || true
      - name: keep the history
        if: \${{ !cancelled() }}
        uses: actions/cache/save@v4
        with:
          path: reports/history
          key: phonewright-history-\${{ github.run_id }}
      # The HTML report (npx playwright show-report reports/html once downloaded), JUnit, the nightly's files.
      - name: the reports
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: phonewright-reports
          path: |
            reports/html
            reports/results.json
            reports/junit.xml
            reports/nightly.md
            reports/nightly.json
            reports/trend.html
`;
}

/** A setting's value as TypeScript source: `false`, `30_000`, `{ timeout: 5_000 }`. */
function source(value: unknown): string {
  if (typeof value === 'number') return String(value).replace(/\B(?=(\d{3})+$)/g, '_');
  if (value && typeof value === 'object') return `{ ${Object.entries(value).map(([k, v]) => `${k}: ${source(v)}`).join(', ')} }`;
  return String(value);
}

/** What `init --agents` writes for coding agents: the MCP server for VS Code, and how to write phonewright specs. */
export const AGENT_FILES = {
  vscodeMcp: '.vscode/mcp.json',
  agentsMd: 'AGENTS.md',
} as const;

/** `.vscode/mcp.json`: VS Code's agent mode starts `npx phonewright mcp` in the workspace folder. */
export const VSCODE_MCP = `${JSON.stringify({ servers: { phonewright: { type: 'stdio', command: 'npx', args: ['phonewright', 'mcp'] } } }, null, 2)}\n`;

/** The heading of AGENTS.md's phonewright section: a file that has it already is left as it is. */
export const AGENTS_HEADING = '## Writing phonewright specs';

/** AGENTS.md's section: how an agent writes specs for the lab's phones with the phonewright tools. */
export const AGENTS_SECTION = `${AGENTS_HEADING}

Specs under \`specs/\` test phones of a device-control lab with Playwright Test. The \`phonewright\` MCP server
(\`npx phonewright mcp\`) shows the phones and drafts the lines: call \`phones\`, look with \`screen\` and \`find\`,
draft with \`check_line\`, write with \`write_spec\`, run with \`run_specs\` on named phones; never guess coordinates or colours.

- Import from the fixtures: \`import { test, expect } from 'phonewright/fixtures';\` and take \`device\` in the test.
- Locators before coordinates: \`device.getByText('Sign in')\`, \`getByDescription\`, \`getById('.login')\`; then
  \`await expect(locator).toBeVisible()\`, \`await locator.tap()\`. A spec runs on every phone of the matrix, whose sizes differ.
- Where a point is needed, give it as a fraction of the screen (\`device.tap('50%', '80%')\`), not pixels of one phone.
- Checks wait up to the \`expect\` timeout (5 s unless the config says otherwise): no sleeps; give a slow screen
  \`{ timeout: 10_000 }\` on its check.
- Pixel colours and region goldens come from the phone (\`check_line\`); a changed golden is accepted with \`accept\`, not edited.
`;
