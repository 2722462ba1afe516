import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { NIGHTLY_ENV } from '../../report/nightly-env.js';
import { checkReportUrl } from '../../report/report-url.js';
import { loadConfigFile } from '../../config/load.js';
import { gatherBlobs, mergeReports, writeMergeConfig } from '../merge-reports.js';
import { nightlyVerdict, readOutcome } from '../nightly-verdict.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { checkRun, watchReport } from '../run-playwright.js';

interface MergeArgs extends GlobalOptions {
  blobs?: string[];
  output: string;
  history: boolean;
}

const EPILOGUE = `Each part of a run (a server's job with PHONEWRIGHT_BLOB=1, or a shard: --shard i/n) leaves a blob report in reports/blob/. Give their folders (CI artifact downloads are searched through) and merge writes, under --output: html/ (one report with every phone), results.json, junit.xml, and with history on, one record in history/, nightly.md, nightly.json and trend.html — the same as one whole "phonewright nightly".
Exit codes: with history (the default), those of "phonewright nightly": 0 no new failure; 1 new failures, or a part did not complete. With --no-history: 1 when a test failed. 2 bad usage (no blob found).
docs/ci-nightly.yml is a GitHub Actions nightly over two servers in parallel jobs and the merge job.`;

/** `phonewright merge <blob dirs…>`: joins the blob reports of a nightly's parts into one report and one history record. */
export function mergeCommand(output: Output): CommandModule<GlobalOptions, MergeArgs> {
  return defineCommand({
    command: 'merge <blobs..>',
    describe: 'Join blob reports (shards, one job per server) into one HTML report and one nightly history record',
    positionals: {
      blobs: { type: 'string', array: true, describe: 'Folders (or .zip files) holding the parts\' blob reports' },
    },
    options: {
      output: { type: 'string', default: 'reports', describe: 'The reports folder to write' },
      history: { type: 'boolean', default: true, describe: 'Write the nightly history, nightly.md and trend.html (--no-history: the reports only)' },
    },
    examples: [
      ['$0 merge blobs/lab-a blobs/lab-b', 'one report and one nightly record from two servers\' jobs'],
      ['$0 merge all-blobs --no-history', 'join the shards of a "phonewright test --shard" run'],
    ],
    epilogue: EPILOGUE,
    handler: async (args) => {
      checkReportUrl(process.env);
      const temp = await mkdtemp(path.join(tmpdir(), 'phonewright-merge-'));
      try {
        const blobDir = path.join(temp, 'blobs');
        await mkdir(blobDir);
        const count = await gatherBlobs(args.blobs ?? [], blobDir);
        output.note(`merge: ${count} blob report(s)`);
        const config = path.join(temp, 'merge.config.mjs');
        await writeMergeConfig(config, { outputDir: path.resolve(args.output), history: args.history, forHistory: forHistory() });
        const outcomeFile = path.join(temp, 'outcome.json');
        const env: Record<string, string> = args.history ? { [NIGHTLY_ENV.nightly]: '1', [NIGHTLY_ENV.outcome]: outcomeFile } : {};
        const report = watchReport(path.join(args.output, 'html'));
        const code = await mergeReports(blobDir, config, env, args.json);
        if (args.history) nightlyVerdict(readOutcome(outcomeFile), code, output, 'the merged nightly', args.json);
        else checkRun(code, 'the merged run', report);
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    },
  });
}

/**
 * What the history takes from this folder's phonewright.config.json (the merge's own config lives in a temp
 * folder): where the report is published (PHONEWRIGHT_REPORT_URL beats it) and which variables hold passwords.
 * A config that cannot be read gives nothing: the parts' runs reported it.
 */
function forHistory(): { reportUrl?: string; passwordEnvs?: string[] } {
  try {
    const file = loadConfigFile(process.cwd(), process.env);
    return { reportUrl: file?.reportUrl, passwordEnvs: (file?.servers ?? []).flatMap((s) => (s.passwordEnv ? [s.passwordEnv] : [])) };
  } catch {
    return {};
  }
}
