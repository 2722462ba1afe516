import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CheckFailedError, ConfigError } from '../core/errors.js';
import type { ChangeEntry, NightlyOutcome } from '../report/history-types.js';
import { NOT_TESTED_LINE } from '../report/untested.js';
import type { Output } from './output.js';

/** How many new failures the error line names before "and N more". */
const NAMED = 5;

/**
 * Reads what the history reporter left in the outcome file; undefined when the run never got that far.
 * @param file the PHONEWRIGHT_NIGHTLY_OUTCOME file
 */
export function readOutcome(file: string): NightlyOutcome | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as NightlyOutcome;
}

/**
 * The verdict of a nightly (a run, or a merge of blob reports), printed and thrown:
 * - a run that did not complete (interrupted, timed out, an error outside the tests, no tests) fails (exit 1);
 * - a whole run fails (exit 1) when it has new failures: a test failing on a phone where it did not fail in
 *   that phone's previous nightly. Tests still failing, and flaky ones, are in the summary but pass the job,
 *   so a known failure does not keep every nightly red;
 * - a part of a run (blob mode) passes once it completed: `phonewright merge` gives the verdict.
 * @param outcome what the history reporter wrote (undefined: it never ran)
 * @param code Playwright's exit code
 * @param output where to print
 * @param what the run's name in messages, e.g. "the nightly run"
 * @param json print the outcome as one JSON document on stdout (the lines go to stderr)
 */
export function nightlyVerdict(outcome: NightlyOutcome | undefined, code: number, output: Output, what: string, json: boolean): void {
  if (!outcome) {
    if (code !== 0) throw new CheckFailedError(`${what} did not complete (playwright exit code ${code})`, { hint: 'read the error above' });
    throw new ConfigError(`${what} wrote no history: the Playwright config has no history reporter`, {
      hint: "add ['phonewright/reporters/history'] to the reporters of playwright.config.ts",
    });
  }
  const print = (text: string) => (json ? output.note(text) : output.line(text));
  if (json) output.json(outcome);
  if (outcome.partial) {
    print(`${what}: part of a nightly (blob mode); its blob report is for "phonewright merge", which writes the history`);
  }
  const reports = outcome.record ? path.dirname(path.dirname(outcome.record)) : undefined;
  const c = outcome.comparison;
  if (c && reports) {
    const rel = path.relative(process.cwd(), reports) || '.';
    print(`nightly: ${c.newFailures.length} new failure(s) · ${c.fixed.length} fixed · ${c.stillFailing.length} still failing · ${c.flaky.length} flaky`);
    for (const e of c.newFailures) print(`  new failure: ${describe(e)}`);
    print(`nightly: summary ${path.join(rel, 'nightly.md')}, trend ${path.join(rel, 'trend.html')}, record ${path.relative(process.cwd(), outcome.record!)}`);
  }
  if (outcome.broke) {
    const why = outcome.runErrors[0] ?? (outcome.status === 'passed' || outcome.status === 'failed' ? 'no test ran' : `the run was ${outcome.status}`);
    // A phone the run could not reach: its line says why; a lab where phones come and go may allow it.
    if (why.startsWith(NOT_TESTED_LINE)) {
      throw new CheckFailedError(`${what} did not test every phone: ${why.slice(NOT_TESTED_LINE.length)}`, { hint: 'bring the phone back, or allow it: "unreachablePhones": "skip" in phonewright.config.json' });
    }
    throw new CheckFailedError(`${what} did not complete: ${why}`, { hint: 'open the report: npx playwright show-report reports/html' });
  }
  if (c && c.newFailures.length) {
    const named = c.newFailures.slice(0, NAMED).map(describe).join('; ');
    const more = c.newFailures.length > NAMED ? `; and ${c.newFailures.length - NAMED} more` : '';
    throw new CheckFailedError(`${c.newFailures.length} new failure(s) since the previous nightly: ${named}${more}`, {
      hint: `read ${path.join(path.relative(process.cwd(), reports!) || '.', 'nightly.md')}, or npx playwright show-report`,
    });
  }
}

function describe(e: ChangeEntry): string {
  return `${e.phone}${e.ranOn ? ` (on ${e.ranOn})` : ''} › ${e.test}`;
}
