/**
 * The suite's global set-up: the inline projects run the package's bundle (dist/pkg/), installed under
 * test-results/inline/node_modules (inline-config.ts), so it must be the code under test. `npm test` builds first; a
 * run of `npx playwright test -c tests` after an edit would test the last build: the bundle is made again here
 * whenever a file it is made from is newer, and installed again at every run (about a second).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { INLINE_ROOT } from './inline-config.js';
import { installPackage } from './installed.js';
import { ROOT } from './spawn.js';
import { UNIT_ENV } from './test.js';

const BUNDLE = path.join(ROOT, 'dist', 'pkg', 'fixtures.js');
const SOURCES = ['src', 'fixtures', 'playwright.config.ts', 'scripts/bundle.mjs', 'package.json'];

export default async function freshBundle(): Promise<void> {
  // The fast loop starts no inline run: the bundle is theirs.
  if (process.env[UNIT_ENV] === '1') return;
  const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (!SOURCES.every((s) => newest(path.join(ROOT, s)) < built)) {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`the package's bundle is older than its sources, and bundling it again failed (node scripts/bundle.mjs):\n${r.stderr}`);
  }
  // A fresh copy, so that no file of an older build is left beside the new one.
  await rm(path.join(INLINE_ROOT, 'node_modules'), { recursive: true, force: true });
  await installPackage(ROOT, INLINE_ROOT);
  // The inline projects' own package scope: without it they are in the repository's, and a spec's import of
  // 'phonewright/fixtures' resolves to the repository itself (a package imports itself by its name) while the
  // config's import is the installed copy's: two copies of the fixtures in one worker.
  await writeFile(path.join(INLINE_ROOT, 'package.json'), `${JSON.stringify({ name: 'phonewright-inline-projects', private: true, type: 'module' }, null, 2)}\n`);
}

/** The latest modification time of a file, or of any file under a folder. */
function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(path.join(e.parentPath, e.name)).mtimeMs));
}
