// `npm run bench [name…]`: runs each benchmark in its own process, prints the table, writes reports/bench.json.
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES, formatTable, meets, writeFigures, type BenchResult } from './report.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const OUT = path.join(ROOT, 'reports', 'bench.json');
/** In this order: the short loopback benches first, the long suite runs and the 1 GiB upload last. */
const BENCHES = ['client-overhead', 'sim-throughput', 'act', 'region', 'region-compare', 'locate', 'text', 'real-text', 'capture', 'failure-capture', 'notify', 'fixture-overhead', 'video', 'deadlines', 'review', 'mcp', 'worker-start', 'worker-rss', 'matrix', 'upload'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHES.includes(w));
if (unknown.length) {
  process.stderr.write(`bench: no benchmark ${unknown.join(', ')}; one of ${BENCHES.join(', ')}\n`);
  process.exit(2);
}
// A partial run keeps the other figures of the last run, so bench.json always holds every key it can.
const figures: Record<string, number> = wanted.length ? await previous() : {};
const notes: Record<string, string> = {};
const loadBefore = loadavg()[0]!;
const failed: string[] = [];
for (const name of wanted.length ? wanted : BENCHES) {
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const result = await runInChild(name);
    Object.assign(figures, result.figures);
    Object.assign(notes, result.notes);
    process.stderr.write(`bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(result.figures)}\n`);
  } catch (error) {
    // One broken bench does not cost the others' figures; the run still fails.
    failed.push(name);
    process.stderr.write(`bench: ${(error as Error).message}\n`);
  }
}
await writeFigures(OUT, figures);
// Wall-clock figures share the machine with whatever else runs on it: say how busy it was.
const machine = `${availableParallelism()} cores; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`;
process.stdout.write(`${formatTable(figures, notes)}\n\n${machine}\nwritten: ${path.relative(process.cwd(), OUT)}\n`);
const missed = FIGURES.filter((f) => figures[f.key] !== undefined && !meets(f, figures[f.key]!));
if (missed.length) process.stdout.write(`targets missed: ${missed.map((f) => f.key).join(', ')}\n`);
if (failed.length) process.stdout.write(`benchmarks failed: ${failed.join(', ')} (their errors are above)\n`);
if (missed.length || failed.length) process.exitCode = 1;

/** Runs one benchmark in a fresh process (no JIT state, heap or sockets carried over from another). */
function runInChild(name: string): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(HERE, 'entry.js'), [name], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: BenchResult | undefined;
    child.once('message', (m: BenchResult) => (result = m));
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`bench ${name} failed (exit code ${code})`))));
  });
}

async function previous(): Promise<Record<string, number>> {
  try {
    return JSON.parse(await readFile(OUT, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
