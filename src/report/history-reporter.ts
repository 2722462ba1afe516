import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import type { HistoryRecord, NightlyOutcome } from './history-types.js';
import { isOn, NIGHTLY_ENV } from './nightly-env.js';
import { DEFAULT_TREND_RUNS, writeNightly } from './nightly-files.js';
import { buildRecord } from './record.js';
import { firstLine, runSecrets } from './redact.js';
import { reportUrl, reviewLink } from './report-url.js';

export interface HistoryReporterOptions {
  /** The reports folder (`history/`, `nightly.md`, `trend.html` go in it), relative to the config's folder. @default 'reports' */
  outputDir?: string;
  /** `merge` when joining blob reports (`phonewright merge` sets it). @default 'run' */
  source?: HistoryRecord['source'];
  /** Write on every run, not only when PHONEWRIGHT_NIGHTLY is set. @default false */
  always?: boolean;
  /** How many runs the trend page charts. @default 20 */
  trendRuns?: number;
  /** Where the HTML report is published, when the projects' metadata does not say (`phonewright merge`). */
  reportUrl?: string;
  /** Variables holding passwords, beside those the projects' metadata names (`phonewright merge`). */
  passwordEnvs?: string[];
}

/** The password variable every run may use; the device matrix adds its servers' `passwordEnv`s. */
const PASSWORD_ENV = 'PHONEWRIGHT_PASSWORD';

/**
 * The nightly history, as a Playwright reporter (add `['./src/report/history-reporter.ts']` to the config's
 * reporters). Idle unless PHONEWRIGHT_NIGHTLY=1 (`phonewright nightly` and `merge` set it): then, when the run
 * ends, it writes one record per run under `reports/history/` (per test × phone: status, duration, retries,
 * first line of the error, secrets redacted), `reports/nightly.md`, `reports/nightly.json` and
 * `reports/trend.html`. In blob mode (PHONEWRIGHT_BLOB=1: a shard, or one server's job) the run is a part of
 * a nightly and writes no history: `phonewright merge` writes it from the joined blobs.
 */
export default class HistoryReporter implements Reporter {
  #options: HistoryReporterOptions;
  #config: FullConfig | undefined;
  #suite: Suite | undefined;
  #errors: string[] = [];
  #secrets: string[] = [];

  constructor(options: HistoryReporterOptions = {}) {
    this.#options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#config = config;
    this.#suite = suite;
    this.#secrets = runSecrets(process.env, [PASSWORD_ENV, ...(this.#options.passwordEnvs ?? []), ...this.#fromProjects('passwordEnvs').flat()]);
  }

  onError(error: TestError): void {
    this.#errors.push(firstLine(error.message ?? error.value ?? 'error', this.#secrets));
  }

  async onEnd(result: FullResult): Promise<void> {
    if (!this.#options.always && !isOn(process.env[NIGHTLY_ENV.nightly])) return;
    const source = this.#options.source ?? 'run';
    const partial = source === 'run' && isOn(process.env[NIGHTLY_ENV.blob]);
    const record = this.#config && this.#suite ? buildRecord(this.#config, this.#suite, result, { source, runErrors: this.#errors, secrets: this.#secrets }) : undefined;
    const runErrors = record?.runErrors ?? (this.#errors.length ? this.#errors : [`the run ended before it began (${result.status})`]);
    // A run that did not get through its tests says nothing about them: the CLI fails it, whatever the lists say.
    // A shard may be empty when there are more shards than test groups; a whole run with no test is broken.
    const broke = !record || result.status === 'interrupted' || result.status === 'timedout' || runErrors.length > 0 || (record.tests.length === 0 && !partial);
    let outcome: NightlyOutcome = { broke, status: result.status, runErrors, partial };
    if (record && !partial) {
      const url = reportUrl(process.env, this.#options.reportUrl ?? this.#fromProjects('reportUrl')[0]);
      const reviewUrl = reviewLink(process.env, this.#reportsDir(), url);
      const written = await writeNightly(this.#reportsDir(), record, { trendRuns: this.#options.trendRuns ?? DEFAULT_TREND_RUNS, reportUrl: url, reviewUrl });
      outcome = { ...outcome, record: written.record, comparison: written.comparison };
    }
    const outcomeFile = process.env[NIGHTLY_ENV.outcome];
    if (outcomeFile) {
      mkdirSync(path.dirname(outcomeFile), { recursive: true });
      writeFileSync(outcomeFile, JSON.stringify(outcome));
    }
  }

  /**
   * What the device matrix put in its projects' metadata for the reporters, which read no config file: each
   * project's `key`, where it is a string or a list of strings.
   */
  #fromProjects<K extends 'reportUrl' | 'passwordEnvs'>(key: K): (K extends 'reportUrl' ? string : string[])[] {
    const values = (this.#config?.projects ?? []).map((p) => (p.metadata as Record<string, unknown> | undefined)?.[key]);
    const valid = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.every((e) => typeof e === 'string'));
    return values.filter(valid) as (K extends 'reportUrl' ? string : string[])[];
  }

  #configDir(): string {
    const file = this.#config?.configFile;
    return file ? path.dirname(file) : (this.#config?.rootDir ?? process.cwd());
  }

  #reportsDir(): string {
    return path.resolve(this.#configDir(), this.#options.outputDir ?? 'reports');
  }
}
