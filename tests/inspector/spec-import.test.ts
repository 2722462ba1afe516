// The import the inspector's "Save spec" writes resolves from the folder the spec goes to: a team's repository
// with phonewright installed imports the package by name (the inspector once wrote '../fixtures' everywhere, which
// only the repository's clone has: "Cannot find module"), as the repository's own specs do; fixtures of the
// project's own beside specs/ are imported by path; with neither, the name the project will install.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixturesImportFor } from '../../src/inspector/files.js';
import { expect, test } from '../helpers/test.js';
import { ROOT } from '../helpers/spawn.js';

interface Case {
  name: string;
  /** The project's files, besides specs/. */
  files: Record<string, string>;
  spec: string;
  imports: string;
}

/** A package named phonewright in the project's node_modules, its fixtures exported as an installed one's are. */
const INSTALLED = {
  'node_modules/phonewright/package.json': JSON.stringify({ name: 'phonewright', type: 'module', exports: { './fixtures': { types: './f.d.ts', default: './f.js' } } }),
  'node_modules/phonewright/f.js': 'export {};\n',
};

const CASES: Case[] = [
  { name: 'phonewright installed', files: INSTALLED, spec: 'home.spec.ts', imports: 'phonewright/fixtures' },
  { name: 'phonewright installed, a spec in a folder of specs/', files: INSTALLED, spec: 'settings/dark.spec.ts', imports: 'phonewright/fixtures' },
  { name: 'installed and fixtures of its own: the package wins', files: { ...INSTALLED, 'fixtures/index.ts': 'export {};\n' }, spec: 'a.spec.ts', imports: 'phonewright/fixtures' },
  { name: 'fixtures of its own only', files: { 'fixtures/index.ts': "export * from 'somewhere';\n" }, spec: 'settings/dark.spec.ts', imports: '../../fixtures' },
  { name: 'neither: the name it will install', files: { 'package.json': '{"name":"team-app"}' }, spec: 'a.spec.ts', imports: 'phonewright/fixtures' },
];

for (const c of CASES) {
  test(`a drafted spec's import, ${c.name}: ${c.imports}`, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-import-'));
    try {
      for (const [file, content] of Object.entries(c.files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), content);
      }
      expect(fixturesImportFor(path.join(dir, 'specs'), c.spec)).toBe(c.imports);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

test('the repository\'s own specs import the package by its own name, which resolves there', () => {
  expect(fixturesImportFor(path.join(ROOT, 'specs'), 'drafted.spec.ts')).toBe('phonewright/fixtures');
});
