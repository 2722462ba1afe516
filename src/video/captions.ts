// A film's captions: the test's steps (acts and checks, their verdict and time) as WebVTT, the format a `<track>` of
// an HTML video reads, and read back (the review page lists them beside the film).

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

/** `hh:mm:ss.mmm` or `mm:ss.mmm`, WebVTT's time, in ms; undefined when it is not one. */
function timeMs(time: string): number | undefined {
  const m = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(time);
  if (!m) return undefined;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
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

/**
 * The steps of a film's captions, as {@link webVtt} wrote them, in the order of their cues: each step's title, its
 * start, its end (from the time its text says it took, which a short step's cue outlasts) and its verdict. A cue
 * this module did not write is read as a passed step of its own length.
 * @param vtt the captions' text
 */
export function readWebVtt(vtt: string): FilmStep[] {
  const steps: FilmStep[] = [];
  // Cues are blocks between blank lines: an optional id, the timing line, then the text.
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, to] = lines[at]!.split('-->').map((t) => timeMs(t.trim().split(/\s+/)[0] ?? ''));
    if (from === undefined || to === undefined) continue;
    const text = lines.slice(at + 1).join(' ').trim();
    const m = /^([✓✗]) (.*?)(?: \((\d+) ms\))?$/u.exec(text);
    const took = m?.[3] === undefined ? undefined : Number(m[3]);
    steps.push({ title: m ? m[2]! : text, start: from, end: took === undefined ? to : from + took, failed: m?.[1] === '✗' });
  }
  return steps;
}
