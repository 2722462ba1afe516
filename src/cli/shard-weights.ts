import path from 'node:path';
import { listRecords, readRecord } from '../report/history-store.js';
import type { HistoryRecord } from '../report/history-types.js';

/** A project's tests by their history names (`file › describe › title`). */
export interface ListedProject {
  name: string;
  tests: string[];
}

/** Each project's test weights, in the order given, and what they come from. */
export interface Weights {
  /** Per project, a weight per test. */
  byProject: Map<string, number[]>;
  /** For the plan's first line: `the nightly history (…)`, or `test count (no nightly history)`. */
  basis: string;
}

/** The records read at most, newest first: a phone not run in the last 20 nightlies weighs by the others. */
const RECENT = 20;

/**
 * Weighs the run's tests by how long each took on its phone in the nightly history: the newest record that ran
 * the phone (a pool: the pool's project) gives its tests' durations, retries included; a test it did not run
 * weighs the phone's average there; a phone no record ran weighs its count times the average test of the
 * records used. Without any history, every test weighs 1: phones balance by test count.
 * @param historyDir the nightly history folder, e.g. `reports/history`
 * @param projects the run's phone projects and their tests
 */
export function historyWeights(historyDir: string, projects: ListedProject[]): Weights {
  const records = listRecords(historyDir).slice(-RECENT).reverse();
  const loaded = new Map<string, HistoryRecord | undefined>();
  const load = (name: string) => {
    if (!loaded.has(name)) loaded.set(name, safeRead(path.join(historyDir, name)));
    return loaded.get(name);
  };
  const known = new Map<string, number[] | undefined>();
  const used = new Set<string>();
  for (const project of projects) {
    const name = records.find((r) => load(r)?.tests.some((t) => t.phone === project.name));
    if (!name) continue;
    used.add(name);
    const durations = new Map(load(name)!.tests.filter((t) => t.phone === project.name).map((t) => [t.test, Math.max(1, t.durationMs)]));
    const mean = average([...durations.values()]);
    known.set(project.name, project.tests.map((t) => durations.get(t) ?? mean));
  }
  const all = [...known.values()].flatMap((w) => w ?? []);
  if (all.length === 0) return { byProject: new Map(projects.map((p) => [p.name, p.tests.map(() => 1)])), basis: 'test count (no nightly history)' };
  const mean = average(all);
  const newest = [...used].sort().at(-1)!;
  return {
    byProject: new Map(projects.map((p) => [p.name, known.get(p.name) ?? p.tests.map(() => mean)])),
    basis: `the nightly history (${path.relative(process.cwd(), path.join(historyDir, newest)) || newest}${used.size > 1 ? ` and ${used.size - 1} earlier` : ''})`,
  };
}

/** A record, or undefined for a file that is not one: a broken file must not stop a shard from planning. */
function safeRead(file: string): HistoryRecord | undefined {
  try {
    return readRecord(file);
  } catch {
    return undefined;
  }
}

function average(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 1;
}
