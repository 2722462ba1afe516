// Runs one benchmark in this process and hands its figures to the runner: `node dist/bench/entry.js <name>`.
import type { BenchResult } from './report.js';

const name = process.argv[2];
const bench = (await import(`./${name}.js`)) as { run(): Promise<BenchResult> };
const result = await bench.run();
// Exit at once: a keep-alive socket of undici's global agent must not hold the runner up for seconds.
process.send!(result, () => process.exit(0));
