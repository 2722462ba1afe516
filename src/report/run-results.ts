// Where a run's JSON report went, told by the run itself. A config names its JSON report as it likes (init's writes
// reports/results.json; a team's may write elsewhere, or Playwright's PLAYWRIGHT_JSON_OUTPUT_FILE may move it), so a
// program that starts a run and reads its results (phonewright mcp's run_specs) names a file in RUN_RESULTS_ENV, and
// the summary reporter, which every phonewright config lists, writes there where the config's json reporter wrote and
// whether the run tested anything: as `phonewright nightly` learns its outcome from the history reporter.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file the summary reporter writes the run's {@link RunResults} to, when set. */
export const RUN_RESULTS_ENV = 'PHONEWRIGHT_RUN_RESULTS';

/** What a run says of its results. */
export interface RunResults {
  /** The JSON report's absolute path; null when the config has no json reporter writing a file. */
  json: string | null;
  /** False for a run that tested nothing (a grep that matched no test, a spec that did not load): its reports are the last run's (kept-reports.ts). */
  tested: boolean;
}

/** A reporter entry of Playwright's config: its name, and its options. */
type ReporterEntry = readonly [string, unknown?];

/**
 * The file the config's json reporter writes, as Playwright resolves it (its `resolveOutputFile`):
 * PLAYWRIGHT_JSON_OUTPUT_FILE (from the working folder) first, then the reporter's `outputFile` (from the config's
 * folder), then PLAYWRIGHT_JSON_OUTPUT_DIR with PLAYWRIGHT_JSON_OUTPUT_NAME; undefined when it prints to stdout or
 * the config has no json reporter.
 * @param configDir the config's folder
 * @param env the run's environment
 * @param cwd the run's working folder
 */
export function jsonReportFile(reporters: readonly ReporterEntry[], configDir: string, env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const entry = reporters.find(([name]) => name === 'json');
  if (!entry) return undefined;
  const options = (entry[1] ?? {}) as { outputFile?: unknown; outputDir?: unknown; fileName?: unknown };
  const fromEnv = (name: string) => (env[name] ? path.resolve(cwd, env[name]) : undefined);
  const file = fromEnv('PLAYWRIGHT_JSON_OUTPUT_FILE') ?? (typeof options.outputFile === 'string' ? path.resolve(configDir, options.outputFile) : undefined);
  if (file) return file;
  const name = env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? (typeof options.fileName === 'string' ? options.fileName : undefined);
  if (!name) return undefined;
  const dir = fromEnv('PLAYWRIGHT_JSON_OUTPUT_DIR') ?? (typeof options.outputDir === 'string' ? path.resolve(configDir, options.outputDir) : configDir);
  return path.resolve(dir, name);
}

/** Writes what the run says of its results to the file `RUN_RESULTS_ENV` names. */
export function writeRunResults(file: string, results: RunResults): void {
  writeFileSync(file, JSON.stringify(results));
}

/** What the run wrote to `file`; undefined when it wrote nothing (a config without phonewright's summary reporter, a run that never ended). */
export function readRunResults(file: string): RunResults | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as RunResults;
}
