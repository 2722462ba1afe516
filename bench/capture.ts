// capture_region_speedup: a 200×200 region read by one screen capture against by sampling (40,000 pixel
// calls, 32 at a time), both against the simulator with the lab preset's latency per request (a pixel read
// 20–80 ms, a capture 80–200 ms and its image 5–20 ms), as toMatchRegion reads it on each kind of server.
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { type Rect } from '../src/image/index.js';
import { captureImage, sampleRegion } from '../src/phone/screen.js';
import { LAB_PRESET } from '../src/simulator/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { median, round } from './stats.js';

const RECT: Rect = { x: 100, y: 100, width: 200, height: 200 };
/** Sampling the region takes about a minute: one round of it, against the median of several captures. */
const CAPTURES = 5;

export async function run(): Promise<BenchResult> {
  const { pixel, capture, captureFile } = LAB_PRESET.latencyMs!;
  const sim = await startChild<SimReady>('sim-server', { lab: { latencyMs: { pixel, capture, captureFile } } });
  const { url, user, password } = sim.ready;
  const device = parseDeviceId(sim.ready.mainDevice);
  const client = new DeviceClient({ url, user, password });
  try {
    await client.login();
    const timed = async (read: () => Promise<unknown>) => {
      const t0 = performance.now();
      await read();
      return performance.now() - t0;
    };
    await timed(() => captureImage(client, device, RECT));
    const captures: number[] = [];
    for (let i = 0; i < CAPTURES; i++) captures.push(await timed(() => captureImage(client, device, RECT)));
    const sampled = await timed(() => sampleRegion(client, device, RECT));
    return {
      figures: { capture_region_speedup: round(sampled / median(captures), 0) },
      notes: { capture_region_speedup: `200×200: sampled in ${(sampled / 1000).toFixed(1)} s (40,000 reads), captured in ${Math.round(median(captures))} ms (median of ${CAPTURES})` },
    };
  } finally {
    await client.close();
    await sim.close();
  }
}
