// notify_latency_p50_ms: from a message posted to device.waitForNotification() resolving, median;
// notify_requests_per_s: service calls per second made by one idle waiter (counted by the simulator).
// The simulator runs in this process: the figures are bound by the poll interval, not by CPU.
import { setTimeout as sleep } from 'node:timers/promises';
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { startSimulator } from '../src/simulator/index.js';
import { Phone } from '../src/phone/index.js';
import type { BenchResult } from './report.js';
import { percentile, round } from './stats.js';

const SAMPLES = 40;
/** The post lands this long after arming, at random: past the arming read, at any phase of the poll loop. */
const DELAY_MS = [250, 550] as const;
const IDLE_MS = 5_000;
const APP = 'com.example.bench';

export async function run(): Promise<BenchResult> {
  const sim = await startSimulator({ port: 0 });
  const client = new DeviceClient({ url: sim.url, user: sim.user, password: sim.password });
  try {
    const id = parseDeviceId(sim.mainDevice);
    const device = new Phone(client, id, { name: 'bench' });
    await client.login();
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const text = `code ${i}`;
      const waiter = device.waitForNotification({ app: APP, text }, { timeout: 5_000 });
      await sleep(DELAY_MS[0] + Math.random() * (DELAY_MS[1] - DELAY_MS[0]));
      const t0 = performance.now();
      sim.postNotification({ device: id, app: APP, text });
      await waiter;
      latencies.push(performance.now() - t0);
    }

    // One waiter for a message that never comes: what it costs the server while it waits.
    const idle = device.waitForNotification({ app: APP, text: 'never' }, { timeout: IDLE_MS + 2_000 }).catch(() => undefined);
    await sleep(1_000);
    const before = sim.stats().total;
    const t0 = performance.now();
    await sleep(IDLE_MS);
    const calls = sim.stats().total - before;
    const perSecond = calls / ((performance.now() - t0) / 1000);
    await idle;
    return {
      figures: { notify_latency_p50_ms: round(percentile(latencies, 50), 1), notify_requests_per_s: round(perSecond, 2) },
      notes: {
        notify_latency_p50_ms: `p10 ${percentile(latencies, 10).toFixed(1)} ms, p90 ${percentile(latencies, 90).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ${SAMPLES} messages`,
        notify_requests_per_s: `${calls} calls in ${IDLE_MS / 1000} s idle`,
      },
    };
  } finally {
    await client.close();
    await sim.close();
  }
}
