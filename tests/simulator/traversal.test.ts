// Uploads that try to leave the installation root are refused, and nothing is written outside it.
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { T0, authed, expect, login, multipart, test, upload } from './harness.js';

/** A sandbox with the installation root and a folder beside it that must stay untouched. */
async function sandbox(dir: string): Promise<{ root: string; outside: string; sim: SimulatorHandle }> {
  const root = path.join(dir, 'root');
  const outside = path.join(dir, 'outside');
  await mkdir(root, { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'victim.txt'), 'untouched');
  const sim = await startSimulator({ port: 0, storage: root, now: () => T0 });
  return { root, outside, sim };
}
async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map((p) => p.split(path.sep).join('/')).sort();
}

test.describe('refused targets', () => {
  let box: Awaited<ReturnType<typeof sandbox>>;
  test.beforeEach(async ({}, testInfo) => {
    box = await sandbox(testInfo.outputPath('sandbox'));
    await symlink(box.outside, path.join(box.root, 'out'));
  });
  test.afterEach(async () => {
    await box.sim.close();
  });

  const TARGETS: [string, string, RegExp][] = [
    ['parent folders', 'local/../..', /no "\.\."/],
    ['a parent folder in the middle', 'local/a/../../outside', /no "\.\."/],
    ['a dot folder', 'local/./x', /no "\.\."/],
    ['percent-encoded parent folders', 'local/%2e%2e/outside', /encoded characters/],
    ['percent-encoded slashes', 'local/a%2f..%2f..', /encoded characters/],
    ['a backslash', 'local/..\\..\\outside', /character a path may not hold/],
    ['an absolute path (not enabled)', 'local//tmp/', /--allow-absolute-uploads/],
    ['a drive-letter path (not enabled)', 'local/C:/temp/', /--allow-absolute-uploads/],
    ['an absolute path without its trailing slash', 'local//tmp', /must end with "\/"/],
    ['a symlinked folder leading out', 'local/out', /symbolic link/],
    ['a folder under a symlink leading out', 'local/out/deeper/still', /symbolic link/],
  ];
  for (const [what, target, message] of TARGETS) {
    test(`${what}: ${target}`, async () => {
      const before = await listing(path.dirname(box.root));
      const answer = await upload(box.sim, await login(box.sim), target, 'payload', 'x.txt');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ status: null, value: expect.stringMatching(message) });
      expect(await listing(box.outside)).toEqual(['victim.txt']);
      expect(await readFile(path.join(box.outside, 'victim.txt'), 'utf8')).toBe('untouched');
      expect(await listing(path.dirname(box.root))).toEqual(before);
    });
  }

  test('a part name percent-encoded the RFC 2231 way (name*=) is decoded, then refused', async () => {
    const { body, type } = multipart([{ name: 'local/../outside', filename: 'x.txt', data: 'payload', nameStar: true }]);
    const answer = await authed(box.sim, await login(box.sim), '/storage', { method: 'POST', headers: { 'content-type': type }, body });
    expect(answer.json).toEqual({ status: null, value: expect.stringMatching(/no "\.\."/) });
    expect(await listing(box.outside)).toEqual(['victim.txt']);
  });

  test('a file name with a path in it is reduced to its extension', async () => {
    const answer = await upload(box.sim, await login(box.sim), 'local/in', 'payload', '../../outside/evil.txt');
    expect((answer.json as { file_url: string }).file_url).toBe(`${path.join(box.root, 'in', `${T0}.txt`).split(path.sep).join('/')}`);
    expect(await listing(box.outside)).toEqual(['victim.txt']);
  });

  test('a symlink planted at the next file name is not written through', async () => {
    await mkdir(path.join(box.root, 'storage', 'images'), { recursive: true });
    await symlink(path.join(box.outside, 'victim.txt'), path.join(box.root, 'storage', 'images', `${T0}.png`));
    const answer = await upload(box.sim, await login(box.sim), 'image', 'payload', 'a.png');
    expect((answer.json as { file_url: string }).file_url).toMatch(new RegExp(`/${T0 + 1}\\.png$`));
    expect(await readFile(path.join(box.outside, 'victim.txt'), 'utf8')).toBe('untouched');
  });

  test('a symlink inside the root that stays inside is followed', async () => {
    await mkdir(path.join(box.root, 'real'), { recursive: true });
    await symlink(path.join(box.root, 'real'), path.join(box.root, 'alias'));
    const answer = await upload(box.sim, await login(box.sim), 'local/alias/sub', 'payload', 'a.txt');
    expect(answer.json).toMatchObject({ status: true });
    expect(await readFile(path.join(box.root, 'real', 'sub', `${T0}.txt`), 'utf8')).toBe('payload');
  });
});
