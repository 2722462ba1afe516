import type { ChangeEntry, Comparison, HistoryPhone, NamedRecord } from './history-types.js';
import { escapeHtml } from './html.js';
import { formatTime, headline, LISTS, percent, runLabel } from './nightly-md.js';
import { testLink } from './report-url.js';
import { renderTrendChart } from './trend-chart.js';
import { GRID_STYLE, renderTestsByPhones } from './trend-grid.js';
import { FLAKY_WINDOW, flakyPhones, whereItFails } from './triage.js';

// Plain CSS only: the page must read the same from a CI artifact, offline, with scripts blocked.
const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 0 0 8px; } h3 { font-size: 14px; margin: 12px 0 4px; }
.summary { margin: 0 0 16px; } table { border-collapse: collapse; margin: 0 0 20px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; } td.n { text-align: right; }
.phones { display: flex; flex-wrap: wrap; gap: 16px; }
section.phone { border: 1px solid #ddd; border-radius: 6px; padding: 12px 16px; min-width: 320px; }
.meta { color: #666; font-weight: normal; font-size: 12px; }
ul { margin: 0; padding-left: 18px; } li { margin: 2px 0; } .err { color: #8a1c1c; font-family: ui-monospace, monospace; font-size: 12px; }
.none { color: #888; } .new { color: #c62828; } .fixed { color: #2e7d32; }${GRID_STYLE}`;

/**
 * The trend page, `reports/trend.html`: a static page with the triage of the latest run (each failing test
 * once: every phone, or which), the "Tests × phones" grid over the runs shown, the tests flaky most often,
 * and per phone the pass-rate chart (inline SVG) and the four lists of the latest run, each failure linked to
 * its page in the HTML report when its URL is known. No script, no stylesheet or font from the network: it
 * opens from a file, an artifact store or a mail attachment.
 * @param runs the recent runs, oldest first, the latest last
 * @param comparison the latest run against the runs before it
 * @param reportUrl where CI publishes the HTML report
 * @param reviewUrl where the review page of the latest run's visual failures is, when there is one
 */
export function renderTrendPage(runs: NamedRecord[], comparison: Comparison, reportUrl?: string, reviewUrl?: string): string {
  const latest = runs.at(-1)!.record;
  const phones = Object.keys(comparison.counts);
  const rows = phones.map((phone) => {
    const c = comparison.counts[phone]!;
    const base = comparison.baselines[phone];
    return `<tr><td><a href="#phone-${escapeHtml(phone)}">${escapeHtml(phone)}</a></td><td>${escapeHtml(latest.phones[phone]?.server ?? '')}</td><td class="n">${c.passed}</td><td class="n">${c.failed}</td><td class="n">${c.flaky}</td><td class="n">${c.skipped}</td><td class="n">${percent(c.passRate)}</td><td>${base ? runLabel(base) : 'no earlier run'}</td></tr>`;
  });
  const errors = comparison.runErrors.length
    ? `<h2>Errors outside the tests</h2><ul>${comparison.runErrors.map((e) => `<li class="err">${escapeHtml(e)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nightly trend — ${escapeHtml(formatTime(latest.startedAt))}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Nightly trend</h1>
<p class="summary">Latest run ${escapeHtml(formatTime(latest.startedAt))}: ${escapeHtml(headline(latest, comparison).replace(/\*\*/g, ''))}</p>
${reviewUrl ? `<p class="review">Visual failures, side by side, to accept or reject: <a href="${escapeHtml(reviewUrl)}">the review page</a></p>\n` : ''}${errors}
${triageSection(comparison)}
<h2 id="grid">Tests × phones</h2>
${renderTestsByPhones(runs)}
${flakySection(comparison)}
<h2>Phones</h2>
<table class="phone-table">
<thead><tr><th>phone</th><th>server</th><th>passed</th><th>failed</th><th>flaky</th><th>skipped</th><th>pass rate</th><th>compared with</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<div class="phones">
${phones.map((phone) => phoneSection(runs, comparison, phone, latest.phones[phone], reportUrl)).join('\n')}
</div>
</body>
</html>
`;
}

function triageSection(comparison: Comparison): string {
  if (!comparison.triage.length) return '';
  const rows = comparison.triage.map(
    (t) =>
      `<tr data-test="${escapeHtml(t.test)}" data-scope="${t.scope}"><td>${escapeHtml(t.test)}</td><td>${escapeHtml(whereItFails(t))}</td><td class="${t.status === 'new' ? 'new' : ''}">${t.status === 'new' ? 'new' : 'still failing'}</td><td class="n">${t.flaky}</td></tr>`,
  );
  return `<h2 id="triage">Triage: the app or the phone?</h2>
<table class="triage"><thead><tr><th>test</th><th>fails</th><th>since</th><th>flaky (last runs)</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

function flakySection(comparison: Comparison): string {
  if (!comparison.flakiest.length) return '';
  const rows = comparison.flakiest.map((f) => {
    const phones = flakyPhones(f);
    return `<tr data-test="${escapeHtml(f.test)}"><td>${escapeHtml(f.test)}</td><td class="n">${f.count}</td><td>${escapeHtml(phones)}</td></tr>`;
  });
  return `<h2 id="flaky">Flakiest tests (last ${FLAKY_WINDOW} runs)</h2>
<table class="flaky"><thead><tr><th>test</th><th>flaky</th><th>per phone</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

function phoneSection(runs: NamedRecord[], comparison: Comparison, phone: string, meta: HistoryPhone | undefined, reportUrl: string | undefined): string {
  const about = [meta?.server && `server ${meta.server}`, meta?.deviceId, meta?.pool && `pool of ${meta.pool.join(', ')}`].filter(Boolean).join(' · ');
  const lists = LISTS.map(({ key, heading }) => {
    const entries = comparison[key].filter((e) => e.phone === phone);
    const cls = key === 'newFailures' ? 'new' : key === 'fixed' ? 'fixed' : '';
    const items = entries.length ? entries.map((e) => item(e, reportUrl)).join('') : '<li class="none">none</li>';
    return `<h3 class="${cls}" data-list="${key}">${heading} (${entries.length})</h3><ul data-list="${key}">${items}</ul>`;
  });
  return `<section class="phone" id="phone-${escapeHtml(phone)}" data-phone="${escapeHtml(phone)}">
<h2>${escapeHtml(phone)} <span class="meta">${escapeHtml(about)}</span></h2>
${renderTrendChart(runs, phone)}
${lists.join('\n')}
</section>`;
}

function item(e: ChangeEntry, reportUrl: string | undefined): string {
  const on = e.ranOn ? ` <span class="meta">on ${escapeHtml(e.ranOn)}</span>` : '';
  const retries = e.retries ? ` <span class="meta">(${e.retries} ${e.retries === 1 ? 'retry' : 'retries'})</span>` : '';
  const error = e.error ? `<br><span class="err">${escapeHtml(e.error)}</span>` : '';
  const link = testLink(reportUrl, e.id);
  const test = link ? `<a href="${escapeHtml(link)}">${escapeHtml(e.test)}</a>` : escapeHtml(e.test);
  return `<li data-test="${escapeHtml(e.test)}">${test}${on}${retries}${error}</li>`;
}
