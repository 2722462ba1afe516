import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { playwrightConfig } from '../../src/cli/init-files.js';
import { PACKAGE } from '../helpers/inline-config.js';
import { ROOT } from '../helpers/spawn.js';
import { expect, startsHeavy, test } from '../helpers/test.js';
import { answerJson, answerText, startMcp, type McpSession } from './client.js';

// run_specs finds the run's results where the run says its JSON report went (phonewright's summary reporter, told
// by the server): a team's config may write it elsewhere than reports/results.json, and accept reads the same file.

let mcp: McpSession | undefined;
test.afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

test('a config that writes its JSON report elsewhere: run_specs reads that run\'s report, accept mends from it, a run of no test says so', async () => {
  startsHeavy('Playwright runs');
  test.setTimeout(240_000);
  const base = path.join(ROOT, 'test-results', 'agents');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, 'results-'));
  // The config init writes, its JSON report moved (and no film: the failure is the point, not its video); its
  // reporters are the package's, named by their files here (Playwright does not resolve the package's own name inside it).
  const config = playwrightConfig(true)
    .replace("['json', { outputFile: 'reports/results.json' }]", "['json', { outputFile: 'out/run.json' }]")
    .replace("phoneVideo: 'retain-on-failure'", "phoneVideo: 'off'")
    .replace("'phonewright/reporters/summary'", `'${path.join(ROOT, PACKAGE.summaryReporter)}'`)
    .replace("'phonewright/reporters/history'", `'${path.join(ROOT, PACKAGE.historyReporter)}'`);
  expect(config).toContain("outputFile: 'out/run.json'");
  writeFileSync(path.join(dir, 'playwright.config.ts'), config);
  mcp = await startMcp({}, [], dir);
  // The home screen is 0x25425c at (100, 100): the spec expects another colour.
  await mcp.call('write_spec', { name: 'home.spec.ts', title: 'the home colour', lines: ["await device.expectPixel(100, 100).toBe('0x000000');"] });

  const run = await mcp.call('run_specs', { phones: ['galaxy-s9'] });
  expect(run.isError, answerText(run)).toBeFalsy();
  const red = answerJson<{ ok: boolean; failed: number; report: string; tests: { message?: string }[] }>(run);
  expect(red).toMatchObject({ ok: false, failed: 1, report: 'out/run.json' });
  expect(red.tests[0]!.message).toMatch(/0x25425c/);
  expect(existsSync(path.join(dir, 'reports', 'results.json'))).toBe(false);
  const accepted = answerJson<{ written: string[] }>(await mcp.call('accept', { test: 'the home colour', phone: 'galaxy-s9' }));
  expect(accepted.written).toEqual(['specs/home.spec.ts']);
  expect(readFileSync(path.join(dir, 'specs', 'home.spec.ts'), 'utf8')).toContain("expectPixel(100, 100).toBe('0x25425c')");

  // A grep that names no test: the run's reports are the last run's, kept; the answer says nothing was tested.
  const none = await mcp.call('run_specs', { phones: ['galaxy-s9'], grep: 'no test has this title' });
  expect(none.isError).toBe(true);
  expect(answerText(none)).toMatch(/^phonewright: the run tested nothing \(exit code \d+\)/);
});
