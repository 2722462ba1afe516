/**
 * The suite's global set-up: the inline projects run the package's bundle (dist/pkg/, inline-config.ts), so it
 * must be the code under test. `npm test` builds first; a run of `npx playwright test -c tests` after an edit
 * would test the last build: the bundle is made again here whenever a file it is made from is newer.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './spawn.js';
import { UNIT_ENV } from './test.js';

const BUNDLE = path.join(ROOT, 'dist', 'pkg', 'fixtures.js');
const SOURCES = ['src', 'fixtures', 'playwright.config.ts', 'scripts/bundle.mjs', 'package.json'];

export default function freshBundle(): void {
  // The fast loop starts no inline run: the bundle is theirs.
  if (process.env[UNIT_ENV] === '1') return;
  const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (SOURCES.every((s) => newest(path.join(ROOT, s)) < built)) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the package's bundle is older than its sources, and bundling it again failed (node scripts/bundle.mjs):\n${r.stderr}`);
}

/** The latest modification time of a file, or of any file under a folder. */
function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(path.join(e.parentPath, e.name)).mtimeMs));
}
