import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { NIGHTLY_ENV } from '../../report/nightly-env.js';
import { checkReportUrl } from '../../report/report-url.js';
import { nightlyVerdict, readOutcome } from '../nightly-verdict.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { runPlaywright, type RunArgs } from '../run-playwright.js';

interface NightlyArgs extends GlobalOptions {
  devices?: string;
  args?: (string | number)[];
}

/** Retries a nightly gives each failing test, unless the arguments say otherwise: a pass on retry is flaky, not failed. */
export const NIGHTLY_RETRIES = 2;

const EPILOGUE = `Writes what "phonewright test" writes (reports/html, results.json, junit.xml), and from the history reporter of the config: one record per run in reports/history/ (per test and phone: status, duration, retries, first line of the error; never a password or token), reports/nightly.md (new failures since each phone's previous nightly, fixed, still failing, flaky), reports/nightly.json (the same for scripts) and reports/trend.html (pass rate per phone over the last 20 runs; a static page).
Exit codes: 0 no new failure (tests still failing from the previous nightly, and flaky ones, are reported but pass); 1 new failures, or the run did not complete (interrupted, timed out, an error outside the tests, no test run, no phone reachable); 2 bad usage or configuration. A phone that cannot be reached skips its tests and is listed in nightly.md.
Many servers: one job per server (PHONEWRIGHT_BLOB=1 with --server NAME) or per shard (--shard i/n: whole phones per shard, which turns blob mode on) writes reports/blob/ and no history, and exits 0 once its run completed; "phonewright merge" joins the blobs into one report and one history record, and gives the verdict.`;

/** `phonewright nightly [playwright args]`: the whole matrix with retries, and the history. */
export function nightlyCommand(output: Output): CommandModule<GlobalOptions, NightlyArgs> {
  return defineCommand({
    command: 'nightly [args..]',
    describe: 'Run the whole matrix with retries and keep the history: reports/history/, nightly.md, trend.html',
    passThrough: true,
    positionals: {
      args: { array: true, describe: `Arguments for playwright test; --retries ${NIGHTLY_RETRIES} unless you give --retries` },
    },
    options: {
      devices: { type: 'string', describe: 'Phones to run on: ids or names, comma-separated (main allowed) [env PHONEWRIGHT_DEVICES]' },
    },
    examples: [
      ['$0 nightly', 'every phone of every server; exit 1 only when something newly broke'],
      ['$0 nightly --retries 0 --grep @smoke', 'no retries, the smoke specs only'],
      ['PHONEWRIGHT_BLOB=1 $0 nightly --server lab-a', 'one server\'s part of a nightly, for "phonewright merge"'],
      ['$0 nightly --shard 1/2', 'half of the phones, whole phones (blob mode)'],
    ],
    epilogue: EPILOGUE,
    handler: async (args) => {
      checkReportUrl(process.env);
      const pass = (args.args ?? []).map(String);
      if (!pass.some((a) => a === '--retries' || a.startsWith('--retries='))) pass.push('--retries', String(NIGHTLY_RETRIES));
      const temp = await mkdtemp(path.join(tmpdir(), 'phonewright-nightly-'));
      try {
        const outcomeFile = path.join(temp, 'outcome.json');
        const run: RunArgs = { ...args, command: 'nightly', playwright: pass };
        const code = await runPlaywright(run, output, { [NIGHTLY_ENV.nightly]: '1', [NIGHTLY_ENV.outcome]: outcomeFile });
        nightlyVerdict(readOutcome(outcomeFile), code, output, 'the nightly run', args.json);
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    },
  });
}
