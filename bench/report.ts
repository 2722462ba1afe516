import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What one benchmark hands the runner: its figures (the keys of bench.json) and a line of detail each. */
export interface BenchResult {
  figures: Record<string, number>;
  notes?: Record<string, string>;
}

/** A figure of the benchmark table, with its target where it has one. */
export interface Figure {
  key: string;
  unit: string;
  target?: { op: '<=' | '>=' | '<'; value: number };
}

/** Every key of `reports/bench.json`, in the table's order. */
export const FIGURES: readonly Figure[] = [
  { key: 'client_overhead_ratio', unit: '×', target: { op: '<=', value: 1.15 } },
  { key: 'sim_throughput_ratio', unit: '×', target: { op: '>=', value: 0.6 } },
  { key: 'sim_pixel_rps', unit: 'req/s' },
  { key: 'act_ms', unit: 'ms' },
  { key: 'region_speedup', unit: '×', target: { op: '>=', value: 8 } },
  { key: 'region_64_ms', unit: 'ms' },
  { key: 'region_compare_ms', unit: 'ms', target: { op: '<=', value: 150 } },
  { key: 'locate_ms', unit: 'ms', target: { op: '<=', value: 250 } },
  { key: 'text_locate_aai_ms', unit: 'ms', target: { op: '<=', value: 50 } },
  { key: 'text_locate_ocr_ms', unit: 'ms', target: { op: '<=', value: 1000 } },
  { key: 'ocr_found_ratio', unit: '', target: { op: '>=', value: 0.95 } },
  { key: 'real_text_found_ratio', unit: '', target: { op: '>=', value: 0.97 } },
  { key: 'real_text_false_finds', unit: '', target: { op: '<=', value: 0 } },
  { key: 'real_text_look_ms', unit: 'ms', target: { op: '<=', value: 800 } },
  { key: 'real_text_load_ms', unit: 'ms' },
  { key: 'real_text_rss_mib', unit: 'MiB' },
  { key: 'capture_region_speedup', unit: '×', target: { op: '>=', value: 50 } },
  { key: 'failure_capture_ms', unit: 'ms' },
  { key: 'notify_latency_p50_ms', unit: 'ms', target: { op: '<=', value: 150 } },
  { key: 'notify_requests_per_s', unit: 'req/s', target: { op: '<=', value: 10 } },
  // Playwright's per-worker start-up on 2 cores, measured beside its own floor: reported, not a target.
  { key: 'matrix_8_over_1', unit: '×' },
  // Sixteen phones on this machine: reported; a run that is not green fails the bench.
  { key: 'matrix_16_over_1', unit: '×' },
  // Reported: its floor, Playwright starting 8 workers on 2 cores, moves with the machine's load.
  { key: 'matrix_8_over_1_lab', unit: '×' },
  // The decision on the lab matrix: the 8-phone run over the 1-phone run, each less Playwright's own floor.
  { key: 'matrix_lab_share', unit: '×', target: { op: '<=', value: 1.15 } },
  { key: 'deadline_overshoot_ms', unit: 'ms', target: { op: '<=', value: 250 } },
  { key: 'fixture_overhead_ms', unit: 'ms' },
  // The phone's film (docs/video.md): the example suites filmed ('on') over not ('off') on the lab preset, same run.
  { key: 'video_overhead_ratio', unit: '×', target: { op: '<=', value: 1.1 } },
  { key: 'video_fps', unit: 'fps' },
  { key: 'video_kb_per_min', unit: 'KiB/min' },
  { key: 'video_retain_overhead_ratio', unit: '×' },
  // The review page with 200 failures, in Chromium: from its request to the frame that shows them.
  { key: 'review_load_ms', unit: 'ms', target: { op: '<=', value: 1000 } },
  // phonewright mcp over stdio against the library in-process: a screen tool call (to the image received), a tap on
  // the lab preset; reported, the tap without the lab and the MCP layer's own cost.
  { key: 'mcp_screen_ratio', unit: '×', target: { op: '<=', value: 1.3 } },
  { key: 'mcp_screen_ms', unit: 'ms' },
  { key: 'mcp_tap_ratio', unit: '×', target: { op: '<=', value: 1.3 } },
  { key: 'mcp_tap_ms', unit: 'ms' },
  { key: 'mcp_tap_bare_ratio', unit: '×' },
  { key: 'mcp_tap_layer_ms', unit: 'ms' },
  { key: 'worker_start_ratio', unit: '×', target: { op: '<=', value: 1.25 } },
  { key: 'worker_rss_ratio', unit: '×', target: { op: '<=', value: 1.3 } },
  { key: 'worker_rss_mib', unit: 'MiB' },
  { key: 'upload_mb_s', unit: 'MB/s', target: { op: '>=', value: 300 } },
  { key: 'upload_client_rss_mib', unit: 'MiB', target: { op: '<', value: 64 } },
  { key: 'upload_sim_rss_mib', unit: 'MiB', target: { op: '<', value: 64 } },
];

/** True when `value` meets the figure's target (or the figure has none). */
export function meets(figure: Figure, value: number): boolean {
  const t = figure.target;
  if (!t) return true;
  return t.op === '<=' ? value <= t.value : t.op === '>=' ? value >= t.value : value < t.value;
}

/** The table printed at the end of a run: figure, value, target, verdict, detail. */
export function formatTable(figures: Record<string, number>, notes: Record<string, string>): string {
  const rows = FIGURES.map((f) => {
    const value = figures[f.key];
    const shown = value === undefined ? '—' : `${value} ${f.unit}`;
    const target = f.target ? `${f.target.op} ${f.target.value}` : 'reported';
    const verdict = value === undefined ? 'not run' : !f.target ? '' : meets(f, value) ? 'ok' : 'MISSED';
    return [f.key, shown, target, verdict, notes[f.key] ?? ''];
  });
  const head = ['figure', 'value', 'target', '', 'detail'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * Writes the figures as one JSON object of numbers, in the table's order.
 * @param file e.g. `reports/bench.json`
 */
export async function writeFigures(file: string, figures: Record<string, number>): Promise<void> {
  const ordered = Object.fromEntries(FIGURES.filter((f) => figures[f.key] !== undefined).map((f) => [f.key, figures[f.key]]));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(ordered, null, 2)}\n`);
}
