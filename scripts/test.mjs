// `npm test`: the build first (the CLI the tests run is dist/'s), then the suite with the type check and the lint
// beside it. The checks are mostly one core's work for 10–20 s, the suite's first minutes leave a core half idle:
// side by side they cost the run no wall time. Each check's output is shown once it ends; a failed check stops the
// suite. Arguments go to `playwright test` (`npm test -- tests/core`). Exits with the suite's code, or 1.
// `npm run test:unit` (`--unit`): the fast loop, the compiled build only and the tests that start no Playwright
// run, browser or Redis (the others skip themselves: tests/helpers/test.ts, startsHeavy), no checks beside.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli');
const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPTS = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
const UNIT = process.argv[2] === '--unit';
const CHECKS = UNIT ? [] : ['typecheck', 'lint'];
const BUILD = UNIT ? 'tsc -b tsconfig.build.json' : SCRIPTS.build;

// Ctrl-C reaches every child of the terminal's process group: wait for them to end rather than leave them.
process.on('SIGINT', () => {});

const build = await runScript('build', BUILD);
if (build.code !== 0) stop(['build'], 'the suite did not run');

const env = UNIT ? { ...process.env, PHONEWRIGHT_TEST_UNIT: '1' } : process.env;
const suite = spawn(process.execPath, [PLAYWRIGHT, 'test', '-c', 'tests', ...process.argv.slice(UNIT ? 3 : 2)], { stdio: 'inherit', env });
const suiteCode = new Promise((resolve) => {
  suite.on('close', (code) => resolve(code ?? 1));
  suite.on('error', (e) => (process.stderr.write(`npm test: could not start playwright: ${e.message}\n`), resolve(1)));
});
const checks = await Promise.all(
  CHECKS.map((name) =>
    runScript(name).then((r) => {
      // A failed check decides the run: the suite is stopped rather than left to finish for nothing.
      if (r.code !== 0 && suite.exitCode === null) suite.kill('SIGINT');
      return r;
    }),
  ),
);
const code = await suiteCode;
const failed = checks.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length) stop(failed, 'the suite was stopped');
process.exitCode = code;

/**
 * Runs the package's script `name` as `npm run` would (its command in a shell, node_modules/.bin first on the
 * PATH) without npm's own start-up, its output kept and shown (when there is any) once it ends.
 */
function runScript(name, command = SCRIPTS[name]) {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
    const child = spawn(command, { shell: true, cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (output.trim()) process.stderr.write(`npm run ${name}:\n${output}`);
      resolve({ name, code: code ?? 1 });
    });
    child.on('error', (e) => (process.stderr.write(`npm run ${name}: ${e.message}\n`), resolve({ name, code: 1 })));
  });
}

/** Ends `npm test` with exit code 1, naming the checks that failed. */
function stop(names, what) {
  process.stderr.write(`npm test: ${names.map((n) => `npm run ${n}`).join(', ')} failed; ${what}\n`);
  process.exit(1);
}
