// A child process that uploads with the client, so its peak memory is its own and nothing else's.
import { setTimeout as sleep } from 'node:timers/promises';
import { DeviceClient } from '../src/client/index.js';
import { resetPeakRss, rss, serveChild } from './proc.js';

/** What one upload cost the client. */
export interface UploadRun {
  ms: number;
  /** Peak resident memory during the upload minus resident memory before it, in bytes. */
  rssGrowth: number;
}

/** One upload: where to, what, and how long to let the process settle after logging in. */
export interface UploadJob {
  url: string;
  user: string;
  password: string;
  file: string;
  target: string;
  settleMs: number;
}

await serveChild<object, null>(async () => ({
  ready: null,
  commands: {
    upload: async (arg) => {
      const { url, user, password, file, target, settleMs } = arg as UploadJob;
      const client = new DeviceClient({ url, user, password });
      await client.login();
      await sleep(settleMs);
      const before = resetPeakRss();
      const t0 = performance.now();
      await client.upload(file, target);
      const run: UploadRun = { ms: performance.now() - t0, rssGrowth: rss().peak - before };
      await client.close();
      return run;
    },
  },
}));
