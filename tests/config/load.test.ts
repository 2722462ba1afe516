// Reading phonewright.config.json from the working folder, or the file PHONEWRIGHT_CONFIG names.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from '../helpers/test.js';
import { findJsonSyntaxError } from '../../src/config/json-syntax.js';
import { CONFIG_FILE, loadConfigFile } from '../../src/config/load.js';
import { embeddedSimulatorSettings } from '../../src/config/simulator.js';
import { isPhonewrightError } from '../../src/core/errors.js';
import { failure } from '../helpers/failure.js';

const test = base.extend<{ dir: string }>({
  dir: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-config-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
});


test('no file and none named: undefined', ({ dir }) => {
  expect(loadConfigFile(dir, {})).toBeUndefined();
});

test('the file in the folder, with where it came from and the folder paths are relative to', async ({ dir }) => {
  await writeFile(path.join(dir, CONFIG_FILE), '{"url": "http://10.0.0.5:8090"}');
  expect(loadConfigFile(dir, {})).toMatchObject({ servers: [{ name: 'default', url: 'http://10.0.0.5:8090' }], source: path.join(dir, CONFIG_FILE), dir });
});

test('PHONEWRIGHT_CONFIG names another file, relative to the folder; its own folder is the base', async ({ dir }) => {
  await writeFile(path.join(dir, CONFIG_FILE), '{"url": "http://ignored:1"}');
  const sub = await mkdtemp(path.join(dir, 'lab-'));
  await writeFile(path.join(sub, 'lab.json'), '{"simulator": {"scenario": "s.json"}}');
  const named = path.relative(dir, path.join(sub, 'lab.json'));
  expect(loadConfigFile(dir, { PHONEWRIGHT_CONFIG: named })).toMatchObject({ servers: [], simulator: { scenario: 's.json' }, dir: sub });
});

test('a named file that is missing is a config error; a file that is not JSON too', async ({ dir }) => {
  const missing = await failure(() => loadConfigFile(dir, { PHONEWRIGHT_CONFIG: 'nope.json' }));
  expect(isPhonewrightError(missing, 'PW_CONFIG')).toBe(true);
  expect(missing.message).toBe(`${path.join(dir, 'nope.json')} does not exist; try: check PHONEWRIGHT_CONFIG`);
  await writeFile(path.join(dir, CONFIG_FILE), '{"url": ');
  const broken = await failure(() => loadConfigFile(dir, {}));
  expect(isPhonewrightError(broken, 'PW_CONFIG')).toBe(true);
  expect(broken.message).toBe(`${path.join(dir, CONFIG_FILE)} is not valid JSON at line 1, column 9: the file ends where a value should be; try: fix the syntax; the README shows an example`);
});

/** Broken files as people write them: the text, and the line, column and problem the error names. */
const BROKEN: [string, string, number, number, string][] = [
  ['a comma too many, on line 3', '{\n  "url": "http://10.0.0.5:8090",\n  "user": "qa",,\n  "apiRoot": "/x"\n}', 3, 16, "expected a property name in double quotes, found ','"],
  ['a comma after the last property', '{\n  "url": "http://10.0.0.5:8090",\n}', 3, 1, "a comma before '}': JSON allows none after the last property"],
  ['a comma after the last element', '{"devices": [\n\t"device@1",\n\t"device@2",\n]}', 4, 1, "a comma before ']': JSON allows none after the last element"],
  ['a missing comma between properties', '{"url": "http://a:1"\n "user": "qa"}', 2, 2, 'expected \',\' or \'}\' after a property, found \'"\''],
  ['a bare word', '{\n  "simulator": {"lab": yes}\n}', 2, 24, 'unquoted text: a text value needs double quotes (only true, false and null go without)'],
  ['single quotes', "{'url': 'http://a:1'}", 1, 2, 'a single quote: JSON quotes names and text with double quotes only'],
  ['a comment', '{\n  // the lab\n  "url": "http://a:1"\n}', 2, 3, 'a comment: JSON has none'],
  ['a string left open', '{"url": "http://a:1}\n', 1, 21, 'a line break inside a text: close its quote on the same line, or write \\n'],
  ['a colon missing', '{"url" "http://a:1"}', 1, 8, "expected ':' after the property name, found '\"'"],
  ['cut short', '{"servers": [{"name": "a"', 1, 26, 'the file ends inside an object'],
  ['an empty file', '', 1, 1, 'the file is empty'],
  ['two documents', '{"url": "http://a:1"}\n{}', 2, 1, "more after the end of the JSON, found '{'"],
  ['columns count characters, not bytes', '{"user": "ünïcødé", "x": ,}', 1, 26, "expected a value, found ','"],
];

for (const [name, text, line, column, problem] of BROKEN) {
  test(`not JSON, by line and column: ${name}`, async ({ dir }) => {
    await writeFile(path.join(dir, CONFIG_FILE), text);
    const e = await failure(() => loadConfigFile(dir, {}));
    expect(isPhonewrightError(e, 'PW_CONFIG')).toBe(true);
    expect(e.message).toBe(`${path.join(dir, CONFIG_FILE)} is not valid JSON at line ${line}, column ${column}: ${problem}; try: fix the syntax; the README shows an example`);
  });
}

test('what JSON.parse refuses, and only that, is found broken: every one-character cut of a config', () => {
  const text = JSON.stringify({ servers: [{ name: 'lab-a', url: 'http://10.0.0.5:8090', devices: ['device@1', { id: 'device@-2', name: 'moto' }] }], simulator: { lab: true, scenario: 'a\\b.json' }, n: [-1.5e3, 0, null, false] }, null, 2);
  let broken = 0;
  for (let i = 0; i < text.length; i++) {
    const cut = text.slice(0, i) + text.slice(i + 1);
    let valid = true;
    try {
      JSON.parse(cut);
    } catch {
      valid = false;
    }
    if (!valid) broken++;
    expect(findJsonSyntaxError(cut) === undefined, JSON.stringify(cut)).toBe(valid);
  }
  // Most cuts of an indented file take a space out; dozens break it.
  expect(broken).toBeGreaterThan(50);
});

test('a byte order mark before the JSON is not an error', async ({ dir }) => {
  await writeFile(path.join(dir, CONFIG_FILE), '\uFEFF{"url": "http://10.0.0.5:8090"}');
  expect(loadConfigFile(dir, {})).toMatchObject({ servers: [{ url: 'http://10.0.0.5:8090' }] });
});

test('a broken file\'s text is not quoted in the error (it may hold what should not be shown)', async ({ dir }) => {
  await writeFile(path.join(dir, CONFIG_FILE), '{"url": "http://a:1", "token": Sekr3t-T0ken}');
  const e = await failure(() => loadConfigFile(dir, {}));
  expect(e.message).toContain('line 1, column 32');
  expect(e.message).not.toContain('Sekr3t');
});

test('a folder where the file should be cannot be read: a config error, not a crash', async ({ dir }) => {
  await mkdir(path.join(dir, CONFIG_FILE));
  const e = await failure(() => loadConfigFile(dir, {}));
  expect(isPhonewrightError(e, 'PW_CONFIG')).toBe(true);
  expect(e.message).toMatch(/cannot be read \(EISDIR\)/);
});

test('the simulator\'s keys reach the embedded simulator: the scenario from the file\'s folder, lab, capabilities, acts', async ({ dir }) => {
  await writeFile(path.join(dir, CONFIG_FILE), JSON.stringify({ simulator: { scenario: 'sim/lab.json', lab: true, capabilities: 'all', acts: 'inputs' } }));
  expect(embeddedSimulatorSettings(loadConfigFile(dir, {}))).toEqual({ scenario: path.join(dir, 'sim', 'lab.json'), lab: true, capabilities: 'all', acts: 'inputs' });
  await writeFile(path.join(dir, CONFIG_FILE), JSON.stringify({ simulator: { acts: 'scripts' } }));
  expect(embeddedSimulatorSettings(loadConfigFile(dir, {}))).toEqual({ acts: 'scripts' });
});
