// Reading phonewright.config.json from the working folder, or the file PHONEWRIGHT_CONFIG names.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from '@playwright/test';
import { CONFIG_FILE, loadConfigFile } from '../../src/config/load.js';
import { isPhonewrightError } from '../../src/core/errors.js';

const test = base.extend<{ dir: string }>({
  dir: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-config-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
});

function failure(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error('expected an error');
}

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
  const missing = failure(() => loadConfigFile(dir, { PHONEWRIGHT_CONFIG: 'nope.json' }));
  expect(isPhonewrightError(missing, 'PW_CONFIG')).toBe(true);
  expect(missing.message).toBe(`${path.join(dir, 'nope.json')} does not exist; try: check PHONEWRIGHT_CONFIG`);
  await writeFile(path.join(dir, CONFIG_FILE), '{"url": ');
  const broken = failure(() => loadConfigFile(dir, {}));
  expect(isPhonewrightError(broken, 'PW_CONFIG')).toBe(true);
  expect(broken.message).toMatch(/phonewright\.config\.json is not valid JSON: .*; try: fix the syntax/);
});

test('a folder where the file should be cannot be read: a config error, not a crash', async ({ dir }) => {
  await mkdir(path.join(dir, CONFIG_FILE));
  const e = failure(() => loadConfigFile(dir, {}));
  expect(isPhonewrightError(e, 'PW_CONFIG')).toBe(true);
  expect(e.message).toMatch(/cannot be read \(EISDIR\)/);
});
