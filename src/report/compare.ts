import type { ChangeEntry, Comparison, HistoryRecord, HistoryTest, NamedRecord, PhoneCounts } from './history-types.js';
import { FLAKY_WINDOW, flakiest, triage } from './triage.js';

export type { NamedRecord } from './history-types.js';

/**
 * Compares a run with the runs before it, phone by phone: each phone against the latest earlier run that had
 * it, so a nightly of one server compares with that server's last nightly even when runs of other servers
 * came in between. With no earlier run of a phone, every failure on it is new. The triage and the flaky
 * ranking look at the last {@link FLAKY_WINDOW} runs.
 * @param current the run
 * @param earlier the runs before it, oldest first
 */
export function compareRuns(current: NamedRecord, earlier: NamedRecord[]): Comparison {
  const phones = phonesOf(current.record);
  const baselines: Comparison['baselines'] = {};
  const previous = new Map<string, Map<string, HistoryTest>>();
  for (const phone of phones) {
    const base = [...earlier].reverse().find((r) => phonesOf(r.record).includes(phone));
    baselines[phone] = base?.name ?? null;
    previous.set(phone, new Map(base?.record.tests.filter((t) => t.phone === phone).map((t) => [t.test, t]) ?? []));
  }
  const out: Comparison = {
    run: current.name,
    startedAt: current.record.startedAt,
    baselines,
    newFailures: [],
    fixed: [],
    stillFailing: [],
    flaky: [],
    counts: countByPhone(current.record),
    runErrors: current.record.runErrors,
    triage: [],
    flakiest: [],
  };
  for (const t of sorted(current.record.tests)) {
    const before = previous.get(t.phone)?.get(t.test)?.status;
    if (t.status === 'failed') (before === 'failed' ? out.stillFailing : out.newFailures).push(entry(t));
    if (t.status === 'flaky') out.flaky.push(entry(t));
    if (before === 'failed' && (t.status === 'passed' || t.status === 'flaky')) out.fixed.push(entry({ ...t, error: undefined }));
  }
  const window = [...earlier, current].slice(-FLAKY_WINDOW);
  out.triage = triage(current.record, out, window);
  out.flakiest = flakiest(window);
  return out;
}

/**
 * Counts per phone of one run, and its pass rate: (passed + flaky) / (passed + flaky + failed); skipped tests
 * do not count either way, and a phone whose every test was skipped has no rate (null).
 * @param record the run
 */
export function countByPhone(record: HistoryRecord): Record<string, PhoneCounts> {
  const counts: Record<string, PhoneCounts> = {};
  for (const phone of phonesOf(record)) counts[phone] = { passed: 0, failed: 0, flaky: 0, skipped: 0, passRate: null };
  for (const t of record.tests) counts[t.phone]![t.status]++;
  for (const c of Object.values(counts)) {
    const ran = c.passed + c.flaky + c.failed;
    c.passRate = ran === 0 ? null : (c.passed + c.flaky) / ran;
  }
  return counts;
}

/**
 * The phones (projects) of a run, sorted: those of its metadata and those its tests ran on.
 * @param record the run
 */
export function phonesOf(record: HistoryRecord): string[] {
  return [...new Set([...Object.keys(record.phones), ...record.tests.map((t) => t.phone)])].sort();
}

function entry(t: HistoryTest): ChangeEntry {
  const e: ChangeEntry = { phone: t.phone, test: t.test };
  if (t.id) e.id = t.id;
  if (t.ranOn) e.ranOn = t.ranOn;
  if (t.retries) e.retries = t.retries;
  if (t.error) e.error = t.error;
  if (t.screen) e.screen = t.screen;
  if (t.film) e.film = t.film;
  return e;
}

function sorted(tests: HistoryTest[]): HistoryTest[] {
  return [...tests].sort((a, b) => a.phone.localeCompare(b.phone) || a.test.localeCompare(b.test));
}
