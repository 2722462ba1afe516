import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** What a stashed report's path ends with while the run that may replace it goes on. */
const STASHED = '.previous';

/** A reporter entry of Playwright's config: its name, and its options. */
type ReporterEntry = readonly [string, unknown?];

/**
 * The last run's reports, set aside while a run goes on and put back if it tested nothing: `--list`, a `--grep`
 * that matched no test, a config that did not load. Such a run's HTML report, results.json and JUnit file are
 * empty, and would replace the last real run's (which `phonewright approve` and a reviewer read). Playwright's
 * reporters write their files at the run's end, in the config's order, so this works from a reporter listed
 * after them: the files are moved aside when the run is configured, and at its end either dropped (the run
 * tested something) or moved back over the empty ones.
 */
export class KeptReports {
  #paths: string[];

  /**
   * @param reporters the config's reporters: the files of `html` (its `outputFolder`), `json` and `junit` (their
   *   `outputFile`) are kept; one written to stdout is not a file
   * @param configDir the config's folder, which relative paths start from
   */
  constructor(reporters: readonly ReporterEntry[], configDir: string) {
    this.#paths = reporters.flatMap(([name, options]) => {
      const o = (options ?? {}) as { outputFolder?: unknown; outputFile?: unknown };
      const file = name === 'html' ? (o.outputFolder ?? 'playwright-report') : name === 'json' || name === 'junit' ? o.outputFile : undefined;
      return typeof file === 'string' ? [path.resolve(configDir, file)] : [];
    });
  }

  /** Sets the last run's reports aside; first puts back any a run that was killed left aside. */
  stash(): void {
    for (const file of this.#paths) {
      const aside = file + STASHED;
      if (existsSync(aside)) {
        if (existsSync(file)) rmSync(aside, { recursive: true, force: true });
        else renameSync(aside, file);
      }
      if (existsSync(file)) renameSync(file, aside);
    }
  }

  /**
   * The run is over: its reports stay when it tested something; otherwise the last run's come back.
   * @param tested whether any test ran
   */
  settle(tested: boolean): void {
    for (const file of this.#paths) {
      const aside = file + STASHED;
      if (tested) rmSync(aside, { recursive: true, force: true });
      else if (existsSync(aside)) {
        rmSync(file, { recursive: true, force: true });
        renameSync(aside, file);
      }
    }
  }
}
