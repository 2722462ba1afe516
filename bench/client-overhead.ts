// client_overhead_ratio: the median latency of client.pixel() ÷ a bare undici request() of the same URL,
// sequential calls, the simulator in its own process.
import { Pool, request } from 'undici';
import { DeviceClient } from '../src/client/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianRatio, round } from './stats.js';

const WARMUP = 3_000;
const ROUNDS = 31;
const CALLS = 500;

export async function run(): Promise<BenchResult> {
  const sim = await startChild<SimReady>('sim-server');
  const { url, user, password, mainDevice } = sim.ready;
  const client = new DeviceClient({ url, user, password });
  try {
    const token = await client.login();
    const pixelUrl = `${client.url}${client.routes.pixel(mainDevice)}?token=${token}&q=color&x=100&y=100`;
    const viaClient = () => client.pixel(mainDevice, 100, 100);
    // A bare call still reads and parses the body: the client cannot do less.
    const bare = async () => (await request(pixelUrl)).body.json();
    // The leanest undici call there is, for the detail column: a Pool of its own, the path given, no URL parsed.
    const pool = new Pool(url);
    const path = pixelUrl.slice(url.length);
    const leanest = async () => (await pool.request({ method: 'GET', path })).body.json();
    await medianLatency(viaClient, WARMUP);
    await medianLatency(bare, WARMUP);
    await medianLatency(leanest, WARMUP);
    const us = await interleaved(ROUNDS, {
      client: () => medianLatency(viaClient, CALLS),
      bare: () => medianLatency(bare, CALLS),
      pool: () => medianLatency(leanest, CALLS),
    });
    await pool.close();
    return {
      figures: { client_overhead_ratio: round(medianRatio(us.client, us.bare)) },
      notes: {
        client_overhead_ratio:
          `client ${median(us.client).toFixed(1)} µs, request() ${median(us.bare).toFixed(1)} µs, Pool.request() ${median(us.pool).toFixed(1)} µs ` +
          `(client ÷ Pool ${medianRatio(us.client, us.pool).toFixed(3)}); ${ROUNDS}×${CALLS} calls each`,
      },
    };
  } finally {
    await client.close();
    await sim.close();
  }
}

/** The median latency of `n` sequential calls, in µs. */
async function medianLatency(call: () => Promise<unknown>, n: number): Promise<number> {
  const us: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    us[i] = (performance.now() - t0) * 1000;
  }
  return median(us);
}
