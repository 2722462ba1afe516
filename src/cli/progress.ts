import type { Output } from './output.js';

/** Files smaller than this upload in a moment on a lab network; a bar would only flicker. */
export const PROGRESS_MIN_BYTES = 8 * 1024 * 1024;
/** Redraws at most this often: a 1 MiB chunk on a fast link arrives every few milliseconds. */
const REDRAW_MS = 100;
const BAR_WIDTH = 24;
const MIB = 1024 * 1024;

/** A progress bar on stderr, drawn only on a terminal and only for large transfers. */
export interface Progress {
  update(sent: number, total: number): void;
  /** Ends the bar's line (when one was drawn). */
  done(): void;
}

/**
 * A progress bar for an upload: percent, bytes and MiB/s, redrawn in place on stderr. It draws nothing when
 * stderr is not a terminal (a CI log, a pipe) or when the file is under {@link PROGRESS_MIN_BYTES}.
 * @param output where to draw
 * @param label what is being sent, e.g. the file's name
 * @param now the clock, in milliseconds
 * @default now performance.now
 */
export function uploadProgress(output: Output, label: string, now: () => number = () => performance.now()): Progress {
  const started = now();
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(sent, total) {
      if (!output.stderrIsTTY || total < PROGRESS_MIN_BYTES) return;
      const t = now();
      if (sent < total && t - last < REDRAW_MS) return;
      last = t;
      drawn = true;
      output.progress(`${label} ${progressLine(sent, total, t - started)}`);
    },
    done() {
      if (drawn) output.progress(undefined);
      drawn = false;
    },
  };
}

/**
 * One frame of the bar: ` 42% [##########--------------] 35,232,768 / 83,886,080 bytes  11.8 MiB/s`.
 * @param sent bytes sent so far
 * @param total bytes to send
 * @param elapsedMs time since the start
 */
export function progressLine(sent: number, total: number, elapsedMs: number): string {
  const ratio = total > 0 ? Math.min(1, sent / total) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  const rate = elapsedMs > 0 ? sent / MIB / (elapsedMs / 1000) : 0;
  const bytes = `${sent.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} bytes`;
  return `${String(Math.floor(ratio * 100)).padStart(3)}% [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${bytes}  ${rate.toFixed(1)} MiB/s`;
}
