// jsonReportFile: where a config's json reporter writes, as Playwright resolves it (its resolveOutputFile): the
// environment's file first (from the working folder), then the reporter's outputFile (from the config's folder),
// then a folder and a name; none when it prints to stdout or there is no json reporter.
import path from 'node:path';
import { jsonReportFile } from '../../src/report/run-results.js';
import { expect, test } from '../helpers/test.js';

const CONFIG_DIR = path.resolve('/team/app');
const CWD = path.resolve('/team/app/sub');

const CASES: [string, [string, unknown?][], Record<string, string>, string | undefined][] = [
  ["init's config", [['list'], ['json', { outputFile: 'reports/results.json' }]], {}, '/team/app/reports/results.json'],
  ['an outputFile of its own, from the config\'s folder', [['json', { outputFile: '../out/run.json' }]], {}, '/team/out/run.json'],
  ['PLAYWRIGHT_JSON_OUTPUT_FILE over the outputFile, from the working folder', [['json', { outputFile: 'reports/results.json' }]], { PLAYWRIGHT_JSON_OUTPUT_FILE: 'r.json' }, '/team/app/sub/r.json'],
  ['a folder and a name from the environment', [['json']], { PLAYWRIGHT_JSON_OUTPUT_DIR: 'out', PLAYWRIGHT_JSON_OUTPUT_NAME: 'r.json' }, '/team/app/sub/out/r.json'],
  ['a name alone: the config\'s folder', [['json']], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'r.json' }, '/team/app/r.json'],
  ['to stdout', [['json']], {}, undefined],
  ['no json reporter', [['list'], ['html', { outputFolder: 'reports/html' }]], { PLAYWRIGHT_JSON_OUTPUT_FILE: 'r.json' }, undefined],
];
for (const [name, reporters, env, file] of CASES) {
  test(`the JSON report of ${name}`, () => {
    expect(jsonReportFile(reporters, CONFIG_DIR, env, CWD)).toBe(file === undefined ? undefined : path.resolve(file));
  });
}
