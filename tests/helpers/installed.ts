/**
 * phonewright as a user has it: what `npm pack` ships (package.json and its `files`) copied into a project's
 * node_modules/phonewright, beside links to the repository's own dependencies (one copy of Playwright, found by
 * its real path). Under node_modules Playwright compiles nothing: the package runs as its build (the bundle of
 * dist/pkg/), its bin as `npx phonewright` runs it, where a checkout runs its TypeScript. Used by the tests and
 * by the benchmarks (`npm run bench`), so it takes the repository's folder rather than working it out.
 */
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';

/** Installs the package at `root` (built: `npm run build`) into `projectDir`; returns its CLI's entry point. */
export async function installPackage(root: string, projectDir: string): Promise<string> {
  const modules = path.join(projectDir, 'node_modules');
  const target = path.join(modules, 'phonewright');
  await mkdir(target, { recursive: true });
  const { files } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
  for (const entry of ['package.json', ...files]) await cp(path.join(root, entry), path.join(target, entry), { recursive: true });
  for (const dep of await readdir(path.join(root, 'node_modules'))) {
    if (!dep.startsWith('.')) await symlink(path.join(root, 'node_modules', dep), path.join(modules, dep), 'dir');
  }
  return path.join(target, 'bin', 'phonewright.js');
}
