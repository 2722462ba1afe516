// The "Tests × phones" grid of the trend page: a row per test that failed or was flaky in the runs shown, a
// column per phone, in each cell the test's result on that phone run by run (newest on the right). A spec
// broken by the app shows a red column of cells across the row; one phone's trouble, a red cell alone.
import type { HistoryStatus, NamedRecord } from './history-types.js';
import { escapeHtml } from './html.js';
import { phoneOfTest } from './triage.js';

/** A cell's marks: one per run, `none` where the test did not run on that phone. */
export type Mark = HistoryStatus | 'none';

/** The grid's CSS: plain, no script, like the rest of the page. */
export const GRID_STYLE = `
table.grid td.cell { white-space: nowrap; padding: 3px 6px; } table.grid th.phone { font-weight: normal; font-size: 12px; }
.m { display: inline-block; width: 7px; height: 14px; margin-right: 1px; vertical-align: middle; border-radius: 1px; }
.m.passed { background: #2e7d32; } .m.failed { background: #c62828; } .m.flaky { background: #f9a825; }
.m.skipped { background: #9e9e9e; } .m.none { background: #fff; outline: 1px solid #ccc; outline-offset: -1px; }
.legend .m { margin-left: 10px; }`;

/**
 * The grid, as an HTML table, or a line saying there is nothing to show.
 * @param runs the runs shown, oldest first
 */
export function renderTestsByPhones(runs: NamedRecord[]): string {
  const phones = [...new Set(runs.flatMap((r) => r.record.tests.map(phoneOfTest)))].sort();
  const marks = new Map<string, Map<string, Mark[]>>();
  runs.forEach(({ record }, n) => {
    for (const t of record.tests) {
      const row = marks.get(t.test) ?? new Map<string, Mark[]>();
      const cell = row.get(phoneOfTest(t)) ?? Array<Mark>(runs.length).fill('none');
      cell[n] = t.status;
      row.set(phoneOfTest(t), cell);
      marks.set(t.test, row);
    }
  });
  const rows = [...marks]
    .map(([test, row]) => {
      const cells = [...row.values()];
      const failingNow = cells.filter((c) => c.at(-1) === 'failed').length;
      const flaky = cells.reduce((sum, c) => sum + c.filter((m) => m === 'flaky').length, 0);
      const failed = cells.some((c) => c.includes('failed'));
      return { test, row, failingNow, flaky, shown: failed || flaky > 0 };
    })
    .filter((r) => r.shown)
    .sort((a, b) => b.failingNow - a.failingNow || b.flaky - a.flaky || a.test.localeCompare(b.test));
  if (!rows.length) return '<p class="none" data-grid="empty">No test failed or was flaky in these runs.</p>';
  const legend = (['passed', 'failed', 'flaky', 'skipped', 'none'] as const).map((m) => `<span class="m ${m}"></span> ${m === 'none' ? 'not run' : m}`).join(' ');
  const head = `<tr><th>test</th>${phones.map((p) => `<th class="phone">${escapeHtml(p)}</th>`).join('')}</tr>`;
  const body = rows.map(({ test, row, failingNow }) => {
    const cells = phones.map((p) => {
      const cell = row.get(p) ?? Array<Mark>(runs.length).fill('none');
      const title = `${p}: ${cell.map((m, i) => `${runs[i]!.record.startedAt.slice(0, 10)} ${m === 'none' ? 'not run' : m}`).join(', ')}`;
      return `<td class="cell" data-phone="${escapeHtml(p)}" data-marks="${cell.join(' ')}" title="${escapeHtml(title)}">${cell.map((m) => `<span class="m ${m}"></span>`).join('')}</td>`;
    });
    return `<tr data-test="${escapeHtml(test)}" data-failing-now="${failingNow}"><td>${escapeHtml(test)}</td>${cells.join('')}</tr>`;
  });
  return `<p class="legend meta">Each cell: the test on that phone, run by run, newest on the right.${legend}</p>
<table class="grid">
<thead>${head}</thead>
<tbody>
${body.join('\n')}
</tbody>
</table>`;
}
