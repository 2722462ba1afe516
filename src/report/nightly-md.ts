import type { ChangeEntry, Comparison, HistoryRecord } from './history-types.js';
import { testLink } from './report-url.js';
import { FLAKY_WINDOW, flakyPhones, whereItFails } from './triage.js';

/** The four lists of a nightly, in the order a release engineer reads them, with their headings. */
export const LISTS = [
  { key: 'newFailures', heading: 'New failures' },
  { key: 'fixed', heading: 'Fixed' },
  { key: 'stillFailing', heading: 'Still failing' },
  { key: 'flaky', heading: 'Flaky, passed on retry' },
] as const satisfies readonly { key: keyof Comparison; heading: string }[];

/**
 * The nightly summary, `reports/nightly.md`: one line that says whether anything newly broke; the triage (each
 * failing test once: on every phone, or on which); then per list (new failures, fixed, still failing, flaky)
 * a table of phone, test and first error line, each failure linked to its page in the HTML report (or given
 * its test id); the tests flaky most often; then the phones with their counts and the run each was compared with.
 * @param record the run
 * @param comparison the run against the runs before it
 * @param reportUrl where CI publishes the HTML report
 * @param reviewUrl where the review page of the run's visual failures is, when there is one
 */
export function renderNightlyMarkdown(record: HistoryRecord, comparison: Comparison, reportUrl?: string, reviewUrl?: string): string {
  const out: string[] = [`# Nightly run ${formatTime(record.startedAt)}`, '', headline(record, comparison), ''];
  if (reviewUrl) out.push(`Visual failures, side by side, to accept or reject: [the review page](${reviewUrl})`, '');
  if (comparison.triage.length) {
    out.push('## Triage: the app or the phone?', '', '| test | fails | since | flaky (last runs) |', '|---|---|---|---:|');
    for (const t of comparison.triage) out.push(`| ${cell(t.test)} | ${cell(whereItFails(t))} | ${t.status === 'new' ? '**new**' : 'still failing'} | ${t.flaky} |`);
    out.push('');
  }
  if (comparison.runErrors.length) {
    out.push('## Errors outside the tests', '', ...comparison.runErrors.map((e) => `- ${inline(e)}`), '');
  }
  const unreachable = unreachablePhones(record);
  if (unreachable.length) {
    out.push('## Phones not reachable', '', '| phone | tests skipped | why |', '|---|---:|---|', ...unreachable.map((u) => `| ${cell(u.phone)} | ${u.skipped} | ${cell(u.why)} |`), '');
  }
  for (const { key, heading } of LISTS) {
    const entries = comparison[key];
    out.push(`## ${heading} (${entries.length})`, '');
    if (entries.length === 0) out.push('_none_', '');
    else out.push('| phone | test | error |', '|---|---|---|', ...entries.map((e) => row(e, reportUrl)), '');
  }
  if (comparison.flakiest.length) {
    out.push(`## Flakiest tests (last ${FLAKY_WINDOW} runs)`, '', '| test | flaky | per phone |', '|---|---:|---|');
    for (const f of comparison.flakiest) out.push(`| ${cell(f.test)} | ${f.count} | ${cell(flakyPhones(f))} |`);
    out.push('');
  }
  out.push('## Phones', '', '| phone | server | passed | failed | flaky | skipped | pass rate | compared with |', '|---|---|---:|---:|---:|---:|---:|---|');
  for (const [phone, c] of Object.entries(comparison.counts)) {
    const server = record.phones[phone]?.server ?? '';
    const base = comparison.baselines[phone];
    out.push(`| ${cell(phone)} | ${cell(server)} | ${c.passed} | ${c.failed} | ${c.flaky} | ${c.skipped} | ${percent(c.passRate)} | ${base ? runLabel(base) : 'no earlier run'} |`);
  }
  out.push('');
  return out.join('\n');
}

/** The one line that answers "what broke last night": counts of each list and of the run. */
export function headline(record: HistoryRecord, comparison: Comparison): string {
  const n = comparison.newFailures.length;
  const totals = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const t of record.tests) totals[t.status]++;
  const lists = `${comparison.fixed.length} fixed · ${comparison.stillFailing.length} still failing · ${comparison.flaky.length} flaky`;
  const phones = Object.keys(comparison.counts).length;
  const unreachable = unreachablePhones(record).length;
  const broke = `${comparison.runErrors.length ? ` · ${comparison.runErrors.length} error(s) outside the tests` : ''}${unreachable ? ` · ${unreachable} phone(s) not reachable` : ''}`;
  return `**${n} new failure${n === 1 ? '' : 's'}** · ${lists}${broke} — ${totals.passed} passed, ${totals.failed} failed, ${totals.flaky} flaky, ${totals.skipped} skipped on ${phones} phone${phones === 1 ? '' : 's'} in ${duration(record.durationMs)} (${record.status}).`;
}

/** The phones whose tests were skipped because the phone could not be reached, with the first reason given. */
export function unreachablePhones(record: HistoryRecord): { phone: string; skipped: number; why: string }[] {
  const out = new Map<string, { phone: string; skipped: number; why: string }>();
  for (const t of record.tests) {
    if (!t.infra || t.status !== 'skipped') continue;
    const u = out.get(t.phone) ?? { phone: t.phone, skipped: 0, why: t.error ?? '' };
    u.skipped++;
    out.set(t.phone, u);
  }
  return [...out.values()].sort((a, b) => a.phone.localeCompare(b.phone));
}

/** `2025-11-22 02:30:00 UTC` from an ISO time. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** The run a record file name stands for, `2025-11-22 02:30:00 UTC`. */
export function runLabel(fileName: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})/.exec(fileName);
  return m ? `${m[1]} ${m[2]}:${m[3]}:${m[4]} UTC` : fileName;
}

/** `75%`, or `n/a` when nothing ran. */
export function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${Math.round(rate * 100)}%`;
}

/** A row of a list: a failure's test links to its page in the HTML report, or gives its id for `show-report`. */
function row(e: ChangeEntry, reportUrl: string | undefined): string {
  const on = e.ranOn ? ` (on ${e.ranOn})` : '';
  const retries = e.retries ? ` [${e.retries} ${e.retries === 1 ? 'retry' : 'retries'}]` : '';
  const link = testLink(reportUrl, e.id);
  const test = link ? `[${cell(e.test)}](${link})` : e.id && e.error !== undefined ? `${cell(e.test)} (test id \`${e.id}\`)` : cell(e.test);
  // The phone's screen at the failure, where the report is published.
  const screen = reportUrl && e.screen ? ` ([the screen](${reportUrl}/${e.screen}))` : '';
  // Its film (phoneVideo), where the report is published.
  const film = reportUrl && e.film ? ` ([the film](${reportUrl}/${e.film}))` : '';
  return `| ${cell(e.phone)}${cell(on)} | ${test}${retries} | ${cell(e.error ?? '')}${screen}${film} |`;
}

/** A table cell: pipes escaped, backticks kept literal. */
function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/([\\`*_[\]<>])/g, '\\$1');
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}
