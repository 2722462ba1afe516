import { copyFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.js';
import { NIGHTLY_ENV } from '../report/nightly-env.js';
import { spawnPlaywright } from './run-playwright.js';

/** The reports `phonewright merge` writes, as `npm start` lays them out under the output folder. */
export interface MergeTarget {
  /** The reports folder, absolute. */
  outputDir: string;
  /** Also write the history record, nightly.md and trend.html. */
  history: boolean;
  /** This folder's phonewright.config.json, for the history: where the report is published, which variables hold passwords. */
  forHistory?: { reportUrl?: string; passwordEnvs?: string[] };
}

/**
 * Finds the blob reports (`*.zip`) in the given folders (searched through, as CI artifact downloads nest them)
 * and files, and copies them into `into` under distinct names: Playwright's merge reads one flat folder, and
 * two servers' unsharded jobs both name their blob `report.zip`.
 * @param inputs folders or zip files
 * @param into an empty folder
 * @returns how many blobs were found
 */
export async function gatherBlobs(inputs: string[], into: string): Promise<number> {
  const seen = new Set<string>();
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (!info) throw new UsageError(`${input} does not exist`, { hint: 'give the folders the blob jobs wrote (reports/blob) or their downloaded artifacts' });
    const zips = info.isDirectory() ? await zipsUnder(input) : input.endsWith('.zip') ? [input] : [];
    if (zips.length === 0) throw new UsageError(`${input} holds no blob report (*.zip)`, { hint: 'run the parts with --shard i/n or PHONEWRIGHT_BLOB=1; their blobs go to reports/blob/' });
    for (const zip of zips) seen.add(await realpath(zip));
  }
  let n = 0;
  for (const zip of seen) await copyFile(zip, path.join(into, `${String(++n).padStart(3, '0')}-${path.basename(zip)}`));
  return n;
}

/**
 * A Playwright config for `merge-reports` that only lists reporters: the same outputs as the device matrix's
 * config (html, results.json, junit.xml, the summary line) and, for a nightly, the history. Written to a file
 * because merge-reports reads reporter options from a config file; it needs no server, phone or password.
 * @param file where to write it (an .mjs file)
 * @param target the output folder and whether to write history
 */
export async function writeMergeConfig(file: string, target: MergeTarget): Promise<void> {
  const out = (name: string) => path.join(target.outputDir, name);
  const reporters: unknown[] = [
    ['list'],
    ['html', { outputFolder: out('html'), open: 'never' }],
    ['json', { outputFile: out('results.json') }],
    ['junit', { outputFile: out('junit.xml') }],
    [reporterPath('summary-reporter')],
  ];
  if (target.history) reporters.push([reporterPath('history-reporter'), { outputDir: target.outputDir, source: 'merge', ...target.forHistory }]);
  await writeFile(file, `// Written by phonewright merge for playwright merge-reports.\nexport default ${JSON.stringify({ reporter: reporters }, null, 2)};\n`);
}

/**
 * Runs `playwright merge-reports` on a folder of blobs, Playwright's lines on the terminal (stderr with --json).
 * @param blobDir the folder of blobs
 * @param config the merge config file
 * @param env variables for the merge (the history reporter's)
 * @param json keep stdout for phonewright's JSON document
 * @returns Playwright's exit code (1 when a test failed)
 */
export async function mergeReports(blobDir: string, config: string, env: Record<string, string>, json: boolean): Promise<number> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // The merge is the whole run, never a part of one.
  delete childEnv[NIGHTLY_ENV.blob];
  return spawnPlaywright(['merge-reports', '--config', config, blobDir], childEnv, json);
}

/** A reporter of src/report/, beside this module whether it runs from src/ (.ts) or from dist/ (.js). */
function reporterPath(name: string): string {
  const self = fileURLToPath(import.meta.url);
  return path.join(path.dirname(self), '..', 'report', `${name}${path.extname(self)}`);
}

async function zipsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.zip'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
