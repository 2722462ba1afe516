// upload_mb_s, upload_client_rss_mib, upload_sim_rss_mib: a 1 GiB file uploaded from a client process to a
// simulator process, the peak memory growth of each measured by the kernel (VmHWM after clear_refs).
import { randomBytes } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChild, type Child } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { median, round } from './stats.js';
import type { UploadJob, UploadRun } from './upload-client.js';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const ROUNDS = 3;
/** Long enough for the client's start-up compile to be over (measured: well under a second). */
const SETTLE_MS = 2_000;
/** A typed target: stored under the simulator's own storage folder, removed when the simulator closes. */
const TARGET = 'apk';

export async function run(): Promise<BenchResult> {
  const file = path.join(tmpdir(), `phonewright-bench-${process.pid}.apk`);
  try {
    await writeFile1GiB(file);
    // A process's first HTTP connection makes V8 compile undici's WebAssembly HTTP parser in the background:
    // ~20 MiB for a moment, whatever the upload (it goes with --liftoff-only). One upload right after the
    // login shows it; the measured ones start once it is over, so they show what the upload itself costs.
    const cold = await upload(file, 0);
    const runs = [];
    for (let i = 0; i < ROUNDS; i++) runs.push(await upload(file, SETTLE_MS));
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    return {
      figures: {
        upload_mb_s: Math.round(median(runs.map((r) => r.mbs))),
        upload_client_rss_mib: round(Math.max(...runs.map((r) => r.client)), 1),
        upload_sim_rss_mib: round(Math.max(...runs.map((r) => r.sim)), 1),
      },
      notes: {
        upload_mb_s: `1 GiB (${GIB} bytes), MB = 10^6 bytes; rounds ${list(runs.map((r) => r.mbs))} MB/s`,
        upload_client_rss_mib:
          `peak RSS (VmHWM) minus RSS before, fresh process each round: largest of ${list(runs.map((r) => r.client))} MiB; ` +
          `uploading right after the login: ${cold.client.toFixed(0)} MiB`,
        upload_sim_rss_mib: `fresh simulator process each round: largest of ${list(runs.map((r) => r.sim))} MiB`,
      },
    };
  } finally {
    await rm(file, { force: true });
  }
}

/** One upload of `file` between a fresh simulator process and a fresh client process. */
async function upload(file: string, settleMs: number): Promise<{ mbs: number; client: number; sim: number }> {
  let sim: Child<SimReady> | undefined;
  let client: Child<null> | undefined;
  try {
    sim = await startChild<SimReady>('sim-server');
    client = await startChild<null>('upload-client');
    const { url, user, password } = sim.ready;
    const before = await sim.ask<number>('resetPeakRss');
    const job: UploadJob = { url, user, password, file, target: TARGET, settleMs };
    const up = await client.ask<UploadRun>('upload', job);
    const after = await sim.ask<{ peak: number }>('rss');
    return { mbs: GIB / 1e6 / (up.ms / 1000), client: up.rssGrowth / MIB, sim: (after.peak - before) / MIB };
  } finally {
    // The simulator's own storage folder, the stored copy with it, goes when it closes.
    await Promise.all([client?.close(), sim?.close()]);
  }
}

/** Writes 1 GiB of random bytes (1 MiB repeated: content does not matter, but it is not all zeros). */
async function writeFile1GiB(file: string): Promise<void> {
  const block = randomBytes(MIB);
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < GIB; written += block.length) await handle.write(block);
  } finally {
    await handle.close();
  }
}
