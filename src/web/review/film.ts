// A failure's film on the review page: where the page plays it from, the steps of its captions in seconds, and where
// it starts: a few seconds before the step that failed, so the reviewer sees what led to the failure.
import { readFile } from 'node:fs/promises';
import type { RunFiles } from '../../report/run-files.js';
import type { Film } from '../../report/visual-failures.js';

/** How long before the failing step the film starts, in seconds: the screens that led to it, not the whole test. */
export const FILM_LEAD_S = 3;

/** A film as the page shows it. */
export interface FilmJson {
  url: string;
  /** Where the film starts, in seconds; absent without a failed step (the page starts {@link FILM_LEAD_S} before its end). */
  start?: number;
  /** The acts and checks, in the order they began: seconds into the film, how long each took, and its verdict. */
  steps: { title: string; at: number; ms: number; failed: boolean }[];
  /** The failing step's place in {@link steps}. */
  failing?: number;
}

/**
 * A film for the page.
 * @param url where the page finds its file
 */
export function filmJson(film: Film, url: string): FilmJson {
  const steps = film.steps.map((s) => ({ title: s.title, at: seconds(s.start), ms: Math.round(s.end - s.start), failed: s.failed }));
  const failing = film.failing === undefined ? undefined : steps[film.failing];
  return { url, ...(failing ? { start: Math.max(0, seconds((failing.at - FILM_LEAD_S) * 1000)), failing: film.failing } : {}), steps };
}

/**
 * The film's bytes, found again in the run's results as the report names it (a file moved, or a link put in its
 * place since the review began, is not read); undefined when it is not there.
 */
export async function readFilm(film: Film, files: RunFiles): Promise<Buffer | undefined> {
  const file = files.result(film.attached);
  if (!file) return undefined;
  try {
    return await readFile(file);
  } catch {
    return undefined;
  }
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
