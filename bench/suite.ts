import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { installPackage } from '../tests/helpers/installed.js';

/** The repository: two folders up from dist/bench/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
/** Linux's USER_HZ: the unit of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS = 100;

/** One run of the Playwright runner. */
export interface RunResult {
  ms: number;
  /** CPU time of the runner and all its workers, user and system, in ms. */
  cpuMs: number;
  code: number | null;
  output: string;
}

/**
 * A throwaway project under the OS temp folder that sees the repository's `fixtures/`, `src/` and
 * `node_modules/` through symlinks, so a generated config and specs run exactly as users' do.
 * @param copy repository files or folders to copy in (e.g. `specs`, `playwright.config.ts`); of a folder,
 * only the files git tracks when git can tell (a file someone is writing right now is not the suite)
 */
export async function makeProject(copy: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-bench-'));
  // ESM like the repository, so Playwright loads the TypeScript the same way.
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  for (const link of ['node_modules', 'fixtures', 'src']) await symlink(path.join(ROOT, link), path.join(dir, link), 'dir');
  for (const item of copy) {
    const tracked = await trackedFiles(item);
    if (!tracked) {
      await cp(path.join(ROOT, item), path.join(dir, item), { recursive: true });
      continue;
    }
    for (const file of tracked) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await cp(path.join(ROOT, file), path.join(dir, file));
    }
  }
  return dir;
}

/**
 * A throwaway project with phonewright installed in its node_modules as a user's is (tests/helpers/installed.ts):
 * what a user's runner and workers load is the package's build, not the repository's TypeScript.
 * @param files relative path → content, written into it
 */
export async function installedProject(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-bench-'));
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await installPackage(ROOT, dir);
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
  return dir;
}

/** phonewright's own Playwright config in a project of {@link installedProject}, the one `phonewright test` runs for a folder without one. */
export const INSTALLED_CONFIG = 'node_modules/phonewright/dist/pkg/playwright.config.js';

/** The example suites as committed (specs/, the files git tracks): they import the installed package by name. */
export async function exampleSpecs(): Promise<Record<string, Buffer | string>> {
  const files = (await trackedFiles('specs')) ?? (await readdir(path.join(ROOT, 'specs'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
  const specs: Record<string, Buffer | string> = {};
  for (const file of files) specs[file] = await readFile(path.join(ROOT, file));
  return specs;
}

/** Removes a project made by {@link makeProject} or {@link installedProject} (the symlinks, not what they point at). */
export function removeProject(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/**
 * Runs `playwright test` in `dir` and times it, start of the process to its exit.
 * @param env added to an environment cleared of PHONEWRIGHT_* (the run must use the embedded simulator)
 */
export async function runPlaywright(dir: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PHONEWRIGHT_') && k !== 'CI'));
  const cpu0 = await childrenCpuMs();
  const run = await new Promise<Omit<RunResult, 'cpuMs'>>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [PLAYWRIGHT, 'test', ...args], { cwd: dir, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ ms: performance.now() - t0, code, output }));
  });
  return { ...run, cpuMs: (await childrenCpuMs()) - cpu0 };
}

/**
 * CPU time of this process's children that have exited, theirs and their own children's (cutime + cstime
 * of /proc/self/stat): after a run, the runner's and every worker's.
 */
async function childrenCpuMs(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces, hence the last ')'): cutime and cstime are 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/** The files git tracks under `item`, or undefined when git cannot tell (no git, not a checkout). */
async function trackedFiles(item: string): Promise<string[] | undefined> {
  try {
    const { stdout } = await promisify(execFile)('git', ['ls-files', '-z', '--', item], { cwd: ROOT });
    const files = stdout.split('\0').filter(Boolean);
    return files.length ? files : undefined;
  } catch {
    return undefined;
  }
}
