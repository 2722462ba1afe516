// sim_throughput_ratio and sim_pixel_rps: pixel requests/s the simulator serves with keep-alive, against a bare
// node:http JSON server under the same load. Each server runs in its own process; the load comes from this one.
import { Pool } from 'undici';
import { DeviceClient } from '../src/client/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianRatio, round } from './stats.js';

/** Keep-alive connections, each with one request in flight: enough to keep a one-core server busy. */
const CONNECTIONS = 16;
const BURST_MS = 400;
const ROUNDS = 25;

export async function run(): Promise<BenchResult> {
  const sim = await startChild<SimReady>('sim-server');
  const bare = await startChild<{ url: string }>('bare-server');
  try {
    const { url, user, password, mainDevice } = sim.ready;
    const client = new DeviceClient({ url, user, password });
    const token = await client.login();
    const path = `${client.routes.pixel(mainDevice)}?token=${token}&q=color&x=100&y=100`;
    await client.close();
    const simPool = new Pool(url, { connections: CONNECTIONS });
    const barePool = new Pool(bare.ready.url, { connections: CONNECTIONS });
    // The same request to both: the bare server ignores the path and answers the same body.
    const cpu: Record<'sim' | 'bare', number[]> = { sim: [], bare: [] };
    const load = (pool: Pool, server: typeof sim | typeof bare, arm: 'sim' | 'bare') => async () => {
      const c0 = await server.ask<number>('cpu');
      const { rps, count } = await burst(pool, path, BURST_MS);
      cpu[arm].push(((await server.ask<number>('cpu')) - c0) / count);
      return rps;
    };
    await load(simPool, sim, 'sim')();
    await load(barePool, bare, 'bare')();
    cpu.sim.length = cpu.bare.length = 0;
    const rps = await interleaved(ROUNDS, { sim: load(simPool, sim, 'sim'), bare: load(barePool, bare, 'bare') });
    await Promise.all([simPool.close(), barePool.close()]);
    const stats = await sim.ask<{ operations: { pixel: number } }>('stats');
    return {
      figures: { sim_throughput_ratio: round(medianRatio(rps.sim, rps.bare)), sim_pixel_rps: Math.round(median(rps.sim)) },
      notes: {
        sim_throughput_ratio: `bare node:http ${Math.round(median(rps.bare))} req/s; server CPU per request: sim ${median(cpu.sim).toFixed(1)} µs, bare ${median(cpu.bare).toFixed(1)} µs; ${ROUNDS} rounds of ${BURST_MS} ms each, ${CONNECTIONS} keep-alive connections`,
        sim_pixel_rps: `${stats.operations.pixel} pixel requests counted by the simulator`,
      },
    };
  } finally {
    await Promise.all([sim.close(), bare.close()]);
  }
}

/** Requests/s answered while every connection keeps one request in flight for `ms`. */
async function burst(pool: Pool, path: string, ms: number): Promise<{ rps: number; count: number }> {
  let done = 0;
  const t0 = performance.now();
  const end = t0 + ms;
  const lane = async () => {
    while (performance.now() < end) {
      const res = await pool.request({ method: 'GET', path });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} under load`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  return { rps: done / ((performance.now() - t0) / 1000), count: done };
}
