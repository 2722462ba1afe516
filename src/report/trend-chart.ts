import type { NamedRecord } from './compare.js';
import { countByPhone, phonesOf } from './compare.js';
import { escapeHtml } from './html.js';
import { percent, runLabel } from './nightly-md.js';

/** One bar of a phone's chart: a run that had the phone. */
export interface TrendPoint {
  run: string;
  /** (passed + flaky) / (passed + flaky + failed); null when every test was skipped. */
  rate: number | null;
  passed: number;
  ran: number;
}

// Geometry, in SVG user units (pixels at 100%): a slot per run, bars narrower than their slot.
const PLOT_HEIGHT = 120;
const TOP = 16;
const LEFT = 40;
const SLOT = 44;
const BAR = 26;
const BOTTOM = 34;
/** A 0% bar still shows, as a red sliver on the baseline. */
const MIN_BAR = 3;

/** Bar colours: all passed, most passed (80% or more), less. Colour-blind safe against the white page. */
export const BAR_COLOURS = { pass: '#2e7d32', warn: '#f9a825', fail: '#c62828', none: '#9e9e9e' } as const;

/**
 * The pass rate of one phone over the runs, one point per run that had the phone (oldest first).
 * @param runs the recent runs, oldest first
 * @param phone the phone (project)
 */
export function trendOf(runs: NamedRecord[], phone: string): TrendPoint[] {
  return runs
    .filter((r) => phonesOf(r.record).includes(phone))
    .map((r) => {
      const c = countByPhone(r.record)[phone]!;
      return { run: r.name, rate: c.passRate, passed: c.passed + c.flaky, ran: c.passed + c.flaky + c.failed };
    });
}

/**
 * An inline SVG bar chart of a phone's pass rate: one slot per run of `runs` (so every phone's chart lines up
 * run for run), a bar where the phone ran, its height the pass rate, its colour the verdict, its label the
 * percentage, its tooltip the run and the counts. No script, no external resource.
 * @param runs the recent runs, oldest first
 * @param phone the phone (project)
 */
export function renderTrendChart(runs: NamedRecord[], phone: string): string {
  const points = new Map(trendOf(runs, phone).map((p) => [p.run, p]));
  const width = LEFT + runs.length * SLOT + 8;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const base = TOP + PLOT_HEIGHT;
  const parts: string[] = [];
  for (const tick of [0, 0.5, 1]) {
    const y = base - tick * PLOT_HEIGHT;
    parts.push(`<line class="grid" x1="${LEFT}" y1="${y}" x2="${width - 4}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text class="tick" x="${LEFT - 6}" y="${y + 4}" text-anchor="end" font-size="10" fill="#555">${tick * 100}%</text>`);
  }
  runs.forEach((r, i) => {
    const x = LEFT + i * SLOT + (SLOT - BAR) / 2;
    const cx = x + BAR / 2;
    const label = runLabel(r.name);
    parts.push(`<text class="run" x="${cx}" y="${base + 13}" text-anchor="middle" font-size="9" fill="#555">${label.slice(5, 10)}</text>`);
    parts.push(`<text class="run" x="${cx}" y="${base + 25}" text-anchor="middle" font-size="9" fill="#555">${label.slice(11, 16)}</text>`);
    const p = points.get(r.name);
    if (!p) return;
    const kind = p.rate === null ? 'none' : p.rate === 1 ? 'pass' : p.rate >= 0.8 ? 'warn' : 'fail';
    const h = p.rate === null ? MIN_BAR : Math.max(MIN_BAR, Math.round(p.rate * PLOT_HEIGHT));
    const tip = `${label}: ${percent(p.rate)} (${p.passed} of ${p.ran} passed)`;
    parts.push(
      `<rect class="bar ${kind}" data-run="${escapeHtml(r.name)}" data-rate="${p.rate ?? ''}" x="${x}" y="${base - h}" width="${BAR}" height="${h}" fill="${BAR_COLOURS[kind]}"><title>${escapeHtml(tip)}</title></rect>`,
    );
    parts.push(`<text class="rate" x="${cx}" y="${base - h - 4}" text-anchor="middle" font-size="10" fill="#222">${percent(p.rate)}</text>`);
  });
  const label = `pass rate of ${phone} over the last ${runs.length} run${runs.length === 1 ? '' : 's'}`;
  return [
    `<svg class="chart" role="img" aria-label="${escapeHtml(label)}" data-phone="${escapeHtml(phone)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeHtml(label)}</title>`,
    `<line class="axis" x1="${LEFT}" y1="${base}" x2="${width - 4}" y2="${base}" stroke="#888"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
}
