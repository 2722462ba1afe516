// region_speedup and region_64_ms: a 64×64 sampleRegion with the simulator adding 2 ms to every request (a LAN
// round trip), one pixel call at a time ÷ as shipped (calls overlapped over the keep-alive pool).
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { type Rect } from '../src/image/index.js';
import { sampleRegion } from '../src/phone/screen.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianRatio, round } from './stats.js';

const LATENCY_MS = 2;
const RECT: Rect = { x: 60, y: 60, width: 64, height: 64 };
/** A sequential region takes ~9 s: three rounds keep the bench under a minute. */
const ROUNDS = 3;

export async function run(): Promise<BenchResult> {
  const sim = await startChild<SimReady>('sim-server', { faults: { latencyMs: LATENCY_MS } });
  const { url, user, password } = sim.ready;
  const device = parseDeviceId(sim.ready.mainDevice);
  const client = new DeviceClient({ url, user, password });
  try {
    await client.login();
    const timed = (concurrency?: number) => async () => {
      const t0 = performance.now();
      await sampleRegion(client, device, RECT, concurrency === undefined ? {} : { concurrency });
      return performance.now() - t0;
    };
    await timed()();
    const ms = await interleaved(ROUNDS, { sequential: timed(1), shipped: timed() });
    return {
      figures: { region_speedup: round(medianRatio(ms.sequential, ms.shipped), 1), region_64_ms: Math.round(median(ms.shipped)) },
      notes: {
        region_speedup: `sequential ${Math.round(median(ms.sequential))} ms (${(median(ms.sequential) / (RECT.width * RECT.height)).toFixed(2)} ms a pixel); ${ROUNDS} rounds`,
        region_64_ms: `${RECT.width * RECT.height} pixel calls, ${LATENCY_MS} ms added to each by the simulator`,
      },
    };
  } finally {
    await client.close();
    await sim.close();
  }
}
