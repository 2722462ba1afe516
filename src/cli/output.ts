import { redact } from '../core/redact.js';

/** Where a command writes. Tests swap the streams; secrets registered here are redacted from every line. */
export interface Output {
  /**
   * One JSON document on stdout (for `--json`), on one line: follow mode prints one per line (NDJSON).
   * @param revealed fields added after the document is cleaned, as they are: `login --show-token`'s token, the
   * one secret printed on purpose
   */
  json(value: object, revealed?: Record<string, string>): void;
  /**
   * A line for people on stdout.
   * @param kept values left as they are where the line holds them: the simulator's public example credentials
   */
  line(text: string, kept?: readonly string[]): void;
  /** A line on stderr (progress, warnings, verbose call descriptions). */
  note(text: string): void;
  /**
   * Redraws a status line in place on stderr (a progress bar); `undefined` ends it with a newline.
   * Only call it when {@link stderrIsTTY}: on a pipe or a file, `\r` redraws are noise.
   */
  progress(text: string | undefined): void;
  /** True when stdout is a terminal (colours). */
  readonly isTTY: boolean;
  /** True when stderr is a terminal (progress bars). */
  readonly stderrIsTTY: boolean;
  /** Secrets to scrub from everything written from now on. */
  addSecrets(...secrets: (string | undefined)[]): void;
  /** Scrubs the registered secrets from a text. */
  clean(text: string): string;
}

/** Where an {@link Output} writes its text: a process's stdout or stderr, or anything that collects text. */
export interface Sink {
  write(text: string): unknown;
  /** True when the sink is a terminal. */
  readonly isTTY?: boolean;
}

/**
 * The output of a real process, or of any two sinks (tests collect what the CLI writes in-process).
 * @param stdout where JSON and lines for people go
 * @param stderr where notes, progress and errors go
 * @default stdout process.stdout
 * @default stderr process.stderr
 */
export function processOutput(stdout: Sink = process.stdout, stderr: Sink = process.stderr): Output {
  const secrets = new Set<string>();
  const clean = (text: string) => redact(text, secrets);
  return {
    json: (value, revealed) => stdout.write(`${withRevealed(clean(JSON.stringify(value)), revealed)}\n`),
    line: (text, kept) => stdout.write(`${keeping(text, kept, clean)}\n`),
    note: (text) => stderr.write(`${clean(text)}\n`),
    // "\x1b[K" clears what a longer previous line left to the right of the cursor.
    progress: (text) => stderr.write(text === undefined ? '\n' : `\r${clean(text)}\x1b[K`),
    isTTY: Boolean(stdout.isTTY),
    stderrIsTTY: Boolean(stderr.isTTY),
    addSecrets: (...more) => more.forEach((s) => s && secrets.add(s)),
    clean,
  };
}

/** A cleaned JSON object with fields added as they are. */
export function withRevealed(json: string, revealed: Record<string, string> | undefined): string {
  if (!revealed) return json;
  const more = Object.entries(revealed).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',');
  return json === '{}' ? `{${more}}` : `${json.slice(0, -1)},${more}}`;
}

/** Cleans a text but for the values `kept`, which stay where they stand: the text between them is cleaned piece by piece. */
export function keeping(text: string, kept: readonly string[] | undefined, clean: (text: string) => string): string {
  const values = (kept ?? []).filter(Boolean);
  if (!values.length) return clean(text);
  const pattern = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  let out = '';
  let from = 0;
  for (const m of text.matchAll(pattern)) {
    out += clean(text.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + clean(text.slice(from));
}
