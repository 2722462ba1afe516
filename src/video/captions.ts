// A film's captions: the test's steps (acts and checks, their verdict and time) as WebVTT, the format a `<track>` of
// an HTML video reads.

/** One step of a test, as its film's caption: ms from the film's start. */
export interface FilmStep {
  title: string;
  start: number;
  end: number;
  /** Whether the step failed (a check's wrong answer, an act the phone refused). */
  failed: boolean;
}

/** The shortest a caption shows: a read of a few ms would flash by unseen. */
const MIN_CUE_MS = 500;

/**
 * The steps as a WebVTT file: one cue per step, from its start for its length (at least {@link MIN_CUE_MS}), its
 * title, `✓` or `✗` and how long it took.
 */
export function webVtt(steps: readonly FilmStep[]): string {
  const cues = steps.map((s, i) => {
    const end = Math.max(s.end, s.start + MIN_CUE_MS);
    const text = `${s.failed ? '✗' : '✓'} ${s.title.replace(/-->/g, '→').replace(/\n+/g, ' ')} (${Math.round(s.end - s.start)} ms)`;
    return `${i + 1}\n${clock(s.start)} --> ${clock(end)}\n${text}`;
  });
  return ['WEBVTT', '', ...cues.map((c) => `${c}\n`)].join('\n');
}

/** `hh:mm:ss.mmm`, WebVTT's time. */
function clock(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(t % 1000, 3)}`;
}
