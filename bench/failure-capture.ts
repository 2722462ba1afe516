// failure_capture_ms: what the phone's whole screen adds to a failing pixel check, on the simulator: the
// evidence with the screen (one capture of the whole 1080×1920 screen, the point ringed, the PNG written, the
// 9×9 zoom cut from it) against the evidence without it (the 9×9 zoom, captured alone), median of 20 pairs.
// The same pairs under the lab preset's capture latency (80–200 ms, then 5–20 ms for the image) say what a
// capture costs on a lab.
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { encodePng, markScreen, neighbourhoodOf } from '../src/image/index.js';
import { captureImage, readNeighbourhood } from '../src/phone/screen.js';
import { LAB_PRESET } from '../src/simulator/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { median } from './stats.js';

const ROUNDS = 20;
/** The default scenario's main device: a 1080×1920 phone. */
const SCREEN = { x: 0, y: 0, width: 1080, height: 1920 };
const POINT = { x: 540, y: 960 };

export async function run(): Promise<BenchResult> {
  const bare = await pairs({});
  const { capture, captureFile } = LAB_PRESET.latencyMs!;
  const lab = await pairs({ lab: { latencyMs: { capture, captureFile } } });
  const ms = (n: number) => `${Math.round(n)} ms`;
  return {
    figures: { failure_capture_ms: Math.round(median(bare.extra)) },
    notes: {
      failure_capture_ms: `median of ${ROUNDS}: with the screen ${ms(median(bare.withScreen))}, the zoom alone ${ms(median(bare.zoomOnly))}; under the lab preset's capture latency ${ms(median(lab.withScreen))} against ${ms(median(lab.zoomOnly))} (+${ms(median(lab.extra))})`,
    },
  };
}

/** Interleaved rounds of both kinds of evidence against one simulator. */
async function pairs(options: object): Promise<{ withScreen: number[]; zoomOnly: number[]; extra: number[] }> {
  const sim = await startChild<SimReady>('sim-server', options);
  const { url, user, password } = sim.ready;
  const device = parseDeviceId(sim.ready.mainDevice);
  const client = new DeviceClient({ url, user, password });
  const timed = async (work: () => Promise<unknown>) => {
    const t0 = performance.now();
    await work();
    return performance.now() - t0;
  };
  const withScreen = async () => {
    const screen = await captureImage(client, device, SCREEN);
    encodePng(markScreen(screen, { points: [POINT] }), {}, true);
    return neighbourhoodOf(screen, POINT.x, POINT.y);
  };
  const zoomOnly = () => readNeighbourhood(client, device, POINT.x, POINT.y);
  try {
    await client.login();
    await withScreen();
    await zoomOnly();
    const out = { withScreen: [] as number[], zoomOnly: [] as number[], extra: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      const a = await timed(withScreen);
      const b = await timed(zoomOnly);
      out.withScreen.push(a);
      out.zoomOnly.push(b);
      out.extra.push(a - b);
    }
    return out;
  } finally {
    await client.close();
    await sim.close();
  }
}
