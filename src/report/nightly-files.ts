import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compareRuns } from './compare.js';
import { recentRecords, writeRecord } from './history-store.js';
import type { Comparison, HistoryRecord } from './history-types.js';
import { renderNightlyMarkdown } from './nightly-md.js';
import { renderTrendPage } from './trend-html.js';

/** The files of a nightly under the reports folder. */
export const NIGHTLY_FILES = { history: 'history', summary: 'nightly.md', comparison: 'nightly.json', trend: 'trend.html' } as const;

/** How many runs the trend page charts, and how far back a phone's previous run is looked for. @default 20 */
export const DEFAULT_TREND_RUNS = 20;

export interface NightlyOptions {
  /** How many runs the trend page shows. @default 20 */
  trendRuns?: number;
  /** Where CI publishes the HTML report: each failure links to `<reportUrl>/#?testId=<id>`. */
  reportUrl?: string | undefined;
  /** The review page's link (report-url.ts `reviewLink`), when there is one. */
  reviewUrl?: string | undefined;
}

/**
 * Files a finished run: its record into `history/`, then the summary (`nightly.md`), the comparison as JSON
 * (`nightly.json`, for CI scripts) and the trend page (`trend.html`), all made from the history folder.
 * @param reportsDir the reports folder, e.g. `reports`
 * @param record the run
 * @returns the record's path and the comparison
 */
export async function writeNightly(reportsDir: string, record: HistoryRecord, options: NightlyOptions = {}): Promise<{ record: string; comparison: Comparison }> {
  const { trendRuns = DEFAULT_TREND_RUNS, reportUrl, reviewUrl } = options;
  const historyDir = path.join(reportsDir, NIGHTLY_FILES.history);
  const file = await writeRecord(historyDir, record);
  const name = path.basename(file);
  // The baseline is looked for among more runs than the chart shows: a phone may skip a few nightlies.
  const recent = recentRecords(historyDir, name, Math.max(trendRuns, 50));
  const current = recent.at(-1)!;
  const comparison = compareRuns(current, recent.slice(0, -1));
  await writeAtomically(path.join(reportsDir, NIGHTLY_FILES.summary), renderNightlyMarkdown(record, comparison, reportUrl, reviewUrl));
  await writeAtomically(path.join(reportsDir, NIGHTLY_FILES.comparison), `${JSON.stringify(comparison, null, 2)}\n`);
  await writeAtomically(path.join(reportsDir, NIGHTLY_FILES.trend), renderTrendPage(recent.slice(-trendRuns), comparison, reportUrl, reviewUrl));
  return { record: file, comparison };
}

/** Writes beside and renames over: a page open in a browser or a CI upload never sees half a file. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}
