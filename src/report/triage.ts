// "Is it the app or the phone?": the failing tests of a run across its phones, and the tests flaky most often
// over the recent runs. Plain data in, plain data out: nightly.md, nightly.json and trend.html show it.
import type { Comparison, FlakyEntry, HistoryRecord, HistoryTest, NamedRecord, TriageEntry } from './history-types.js';

/** How many runs the flaky counts and the ranking look back over, this one included. */
export const FLAKY_WINDOW = 20;
/** How many tests the flaky ranking lists. */
export const FLAKIEST = 10;

/** The phone a test ran on: in a pool, the pool's phone that ran its last attempt. */
export function phoneOfTest(t: HistoryTest): string {
  return t.ranOn ?? t.phone;
}

/**
 * Each test failing in the run, once, with the phones it failed on among those it ran on; those failing
 * everywhere first, then by how many phones, then by name.
 * @param record the run
 * @param comparison the run against the runs before it (which failures are new)
 * @param recent the recent runs, for the flaky counts
 */
export function triage(record: HistoryRecord, comparison: Pick<Comparison, 'newFailures'>, recent: NamedRecord[]): TriageEntry[] {
  const byTest = new Map<string, HistoryTest[]>();
  for (const t of record.tests) byTest.set(t.test, [...(byTest.get(t.test) ?? []), t]);
  const isNew = new Set(comparison.newFailures.map((e) => `${e.phone}\n${e.test}`));
  const flaky = flakyCounts(recent);
  const out: TriageEntry[] = [];
  for (const [test, runs] of byTest) {
    const failing = runs.filter((t) => t.status === 'failed');
    if (!failing.length) continue;
    const failingOn = uniqueSorted(failing.map(phoneOfTest));
    const ranOn = uniqueSorted(runs.filter((t) => t.status !== 'skipped').map(phoneOfTest));
    out.push({
      test,
      failingOn,
      ranOn,
      scope: failingOn.length === ranOn.length ? 'every-phone' : 'some-phones',
      status: failing.some((t) => isNew.has(`${t.phone}\n${t.test}`)) ? 'new' : 'still-failing',
      flaky: flaky.get(test)?.count ?? 0,
    });
  }
  return out.sort((a, b) => rank(a) - rank(b) || b.failingOn.length - a.failingOn.length || a.test.localeCompare(b.test));
}

/** "on every phone (4/4)", "only on moto-g5 (1/4)", "on 2 of 4: galaxy-s9, pixel-7". */
export function whereItFails(e: TriageEntry): string {
  const n = e.failingOn.length;
  const of = e.ranOn.length;
  if (e.scope === 'every-phone') return `on every phone (${n}/${of})`;
  if (n === 1) return `only on ${e.failingOn[0]} (1/${of})`;
  return `on ${n} of ${of}: ${e.failingOn.join(', ')}`;
}

/**
 * The tests flaky most often over the runs given (runs × phones), with a count per phone.
 * @param recent the runs, e.g. the last 20
 * @param limit how many to list
 */
export function flakiest(recent: NamedRecord[], limit = FLAKIEST): FlakyEntry[] {
  return [...flakyCounts(recent).values()].sort((a, b) => b.count - a.count || a.test.localeCompare(b.test)).slice(0, limit);
}

/** A flaky test's phones, most flaky first: `pixel-7 20, moto-g5 3`. */
export function flakyPhones(f: FlakyEntry): string {
  return Object.entries(f.phones)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');
}

function flakyCounts(recent: NamedRecord[]): Map<string, FlakyEntry> {
  const out = new Map<string, FlakyEntry>();
  for (const { record } of recent) {
    for (const t of record.tests) {
      if (t.status !== 'flaky') continue;
      const e = out.get(t.test) ?? { test: t.test, count: 0, phones: {} };
      e.count++;
      const phone = phoneOfTest(t);
      e.phones[phone] = (e.phones[phone] ?? 0) + 1;
      out.set(t.test, e);
    }
  }
  return out;
}

function rank(e: TriageEntry): number {
  return e.scope === 'every-phone' ? 0 : 1;
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort();
}
