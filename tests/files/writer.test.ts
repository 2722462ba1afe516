// The one writer of a user's files: it writes inside its folder only (by name and with links followed), never
// through a link at the target, atomically, and one write of a file at a time, each planning from the text it replaces.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileExists, FolderWriter, WriteRefused } from '../../src/files/writer.js';
import { failure } from '../helpers/failure.js';
import { expect, test } from '../helpers/test.js';

let base: string;
let repo: string;
let outside: string;

test.beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'pw-writer-'));
  repo = path.join(base, 'repo');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(repo, 'specs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'keep me');
});
test.afterEach(() => rmSync(base, { recursive: true, force: true }));

const specs = () => new FolderWriter(path.join(repo, 'specs'), 'the specs folder (specs)');
const untouched = () => {
  expect(readdirSync(outside)).toEqual(['secret.txt']);
  expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
};

test('a file is written inside its folder, its folders made; a name outside it is refused by name', async () => {
  rmSync(path.join(repo, 'specs'), { recursive: true });
  const written = await specs().write('login/home.spec.ts', 'a');
  expect(readFileSync(written, 'utf8')).toBe('a');
  const refused = await failure(() => specs().write('../outside.ts', 'x'));
  expect(refused).toBeInstanceOf(WriteRefused);
  expect(refused.message).toMatch(/^refused to write .*outside\.ts: it is outside the specs folder \(specs\); nothing was written; try: /);
  // A name that begins with dots is a name, not a way up.
  expect(readFileSync(await specs().write('...odd.spec.ts', 'b'), 'utf8')).toBe('b');
});

test('a link at the target is never written through nor replaced, even one pointing inside', async () => {
  symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'specs', 'golden.png'));
  symlinkSync(path.join(repo, 'specs', 'gone.png'), path.join(repo, 'specs', 'dangling.png'));
  for (const name of ['golden.png', 'dangling.png']) {
    const refused = await failure(() => specs().write(name, Buffer.from('PNG')));
    expect(refused.message).toContain(`${name}: it is a symbolic link`);
  }
  untouched();
  expect(readdirSync(path.join(repo, 'specs')).sort()).toEqual(['dangling.png', 'golden.png']);
});

test('a folder on the way that links out of the folder is refused; one linking inside it is followed', async () => {
  symlinkSync(outside, path.join(repo, 'specs', 'shared'));
  const refused = await failure(() => specs().write('shared/new.spec.ts', 'x'));
  expect(refused.message).toMatch(/its folder .*specs\/shared is a symbolic link out of the specs folder \(specs\)/);
  const deeper = await failure(() => specs().write('shared/deep/er/x.png', 'x'));
  expect(deeper).toBeInstanceOf(WriteRefused);
  untouched();
  mkdirSync(path.join(repo, 'specs', 'real'));
  symlinkSync(path.join(repo, 'specs', 'real'), path.join(repo, 'specs', 'alias'));
  await specs().write('alias/x.spec.ts', 'inside');
  expect(readFileSync(path.join(repo, 'specs', 'real', 'x.spec.ts'), 'utf8')).toBe('inside');
});

test('a folder given through a link is the folder it leads to: writing inside it is not refused', async () => {
  symlinkSync(repo, path.join(base, 'repo-link'));
  const writer = new FolderWriter(path.join(base, 'repo-link', 'specs'), 'specs');
  await writer.write('a/b.spec.ts', 'ok');
  expect(readFileSync(path.join(repo, 'specs', 'a', 'b.spec.ts'), 'utf8')).toBe('ok');
});

test('a new file never replaces one there; writes of several files are all or none', async () => {
  await specs().write('a.spec.ts', 'first', { replace: false });
  const exists = await failure(() => specs().write('a.spec.ts', 'second', { replace: false, exists: 'choose another name' }));
  expect(exists).toBeInstanceOf(FileExists);
  expect(readFileSync(path.join(repo, 'specs', 'a.spec.ts'), 'utf8')).toBe('first');
  symlinkSync(outside, path.join(repo, 'specs', 'out'));
  await failure(() => specs().writeAll([{ file: 'b.spec.ts', content: 'b' }, { file: 'out/c.png', content: 'c' }]));
  expect(readdirSync(path.join(repo, 'specs')).sort()).toEqual(['a.spec.ts', 'out']);
  untouched();
});

test('twenty updates of one file at once each plan from the text the last one wrote', async () => {
  const file = path.join(repo, 'specs', 'colours.spec.ts');
  writeFileSync(file, Array.from({ length: 20 }, (_, i) => `line ${i}: 0x000000`).join('\n'));
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      specs().update(file, async (text) => {
        // A plan that awaits: without turns, every plan would read the text before any wrote.
        await new Promise((r) => setTimeout(r, 5));
        return text!.replace(`line ${i}: 0x000000`, `line ${i}: 0xffffff`);
      }),
    ),
  );
  expect(readFileSync(file, 'utf8').split('\n').filter((l) => l.endsWith('0xffffff'))).toHaveLength(20);
  expect(readdirSync(path.join(repo, 'specs'))).toEqual(['colours.spec.ts']);
});
