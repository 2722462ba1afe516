// `npm run soak`: the two-minute soak, its figures printed; exit 1 when a figure is out of bounds.
// `npm run soak -- --seconds 30` for a shorter one.
import { describe, problems, runSoak } from './soak.js';

const seconds = Number(flag('--seconds') ?? 120);
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds takes a positive number');
// A warm-up of an eighth of the run (3 to 15 s): sockets, pools and the JIT settle before the first measure.
const figures = await runSoak({ durationMs: seconds * 1000, warmupMs: Math.min(15_000, Math.max(3_000, seconds * 125)) });
process.stdout.write(`${describe(figures)}\n`);
const bad = problems(figures);
for (const line of bad) process.stderr.write(`soak: ${line}\n`);
process.exitCode = bad.length ? 1 : 0;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}
