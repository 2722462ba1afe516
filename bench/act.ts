// act_ms: a tap's time through the client on the simulator, by each route a server may act through:
// screen/inputs (what the vendor's public clients use, tried first) and the JS bridge. Each route on a
// simulator in its own process that offers only that one; sequential taps, rounds alternating the two.
import { DeviceClient } from '../src/client/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianMs, round } from './stats.js';

const WARMUP = 200;
const ROUNDS = 15;
const TAPS = 200;

export async function run(): Promise<BenchResult> {
  const [inputs, scripts] = await Promise.all([startChild<SimReady>('sim-server', { acts: 'inputs' }), startChild<SimReady>('sim-server', { acts: 'scripts' })]);
  const clients = [inputs, scripts].map(({ ready }) => new DeviceClient({ url: ready.url, user: ready.user, password: ready.password }));
  const [viaInputs, viaBridge] = clients as [DeviceClient, DeviceClient];
  const phone = inputs.ready.mainDevice;
  try {
    // The first tap on each decides the route (the bridge's: one lacking screen/inputs and an interface read).
    const routes = [await viaInputs.tap(phone, 10, 10), await viaBridge.tap(phone, 10, 10)];
    if (routes[0] !== 'inputs' || routes[1] !== 'script') throw new Error(`the taps went through ${routes.join(' and ')}`);
    await medianMs(() => viaInputs.tap(phone, 10, 10), WARMUP);
    await medianMs(() => viaBridge.tap(phone, 10, 10), WARMUP);
    const ms = await interleaved(ROUNDS, {
      inputs: () => medianMs(() => viaInputs.tap(phone, 10, 10), TAPS),
      bridge: () => medianMs(() => viaBridge.tap(phone, 10, 10), TAPS),
    });
    return {
      figures: { act_ms: round(median(ms.inputs), 3) },
      notes: { act_ms: `a tap through screen/inputs ${median(ms.inputs).toFixed(3)} ms, through the JS bridge ${median(ms.bridge).toFixed(3)} ms (medians of ${ROUNDS}×${TAPS} taps each)` },
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([inputs.close(), scripts.close()]);
  }
}
