// `npm test`'s checks before the suite: the build (the CLI runs from dist/), the type check and the lint, side
// by side (each is mostly one core's work), each one's output shown whole once it ends. Exits 1 if any failed.
import { spawn } from 'node:child_process';

const CHECKS = ['build', 'typecheck', 'lint'];

const results = await Promise.all(
  CHECKS.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('close', (code) => resolve({ name, code, output }));
        child.on('error', (e) => resolve({ name, code: 1, output: String(e) }));
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0);
for (const r of results) if (r.output.trim()) process.stderr.write(`npm run ${r.name}:\n${r.output}`);
if (failed.length) {
  process.stderr.write(`npm test: ${failed.map((r) => `npm run ${r.name}`).join(', ')} failed; the suite did not run\n`);
  process.exit(1);
}
