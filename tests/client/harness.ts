/**
 * Shared fixtures of the client tests: `serve` starts fake servers, `startSim` simulators (port 0),
 * `connect` makes clients with small timeouts and backoff, `calls` collects every `onCall` event of the
 * test's clients. Servers are closed first at teardown (dropping requests left hanging), then the clients.
 */
import { test as base, expect } from '../helpers/test.js';
import { DeviceClient, type ClientOptions } from '../../src/client/client.js';
import type { CallEvent } from '../../src/client/transport.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';
import { serveFixture, type FakeServer, type FakeServerOptions } from '../helpers/fake-server.js';

/** Small and fast: a test that waits on a real default (10 s, 100 ms backoff) is a slow test. */
export const FAST: Partial<ClientOptions> = { backoffBase: 5, backoffMax: 20, attemptTimeout: 2_000, totalTimeout: 8_000, retries: 3 };

export interface Fixtures {
  serve: (options?: FakeServerOptions) => Promise<FakeServer>;
  startSim: (options?: SimulatorOptions) => Promise<SimulatorHandle>;
  connect: (server: FakeServer | string, options?: Partial<ClientOptions>) => DeviceClient;
  calls: CallEvent[];
}

export const test = base.extend<Fixtures>({
  calls: async ({}, use) => {
    await use([]);
  },
  connect: async ({ calls }, use) => {
    const clients: DeviceClient[] = [];
    await use((server, options = {}) => {
      const url = typeof server === 'string' ? server : server.url;
      const client = new DeviceClient({ url, ...FAST, ...options, onCall: (e) => (calls.push(e), options.onCall?.(e)) });
      clients.push(client);
      return client;
    });
    await Promise.all(clients.map((c) => c.close()));
  },
  // Depends on `connect` so that it is torn down first: closing the servers ends requests left hanging.
  serve: async ({ connect: _connect }, use) => serveFixture({}, use),
  startSim: async ({ connect: _connect }, use) => {
    const sims: SimulatorHandle[] = [];
    await use(async (options = {}) => {
      const sim = await startSimulator({ port: 0, ...options });
      sims.push(sim);
      return sim;
    });
    await Promise.all(sims.map((s) => s.close()));
  },
});

export { expect };

// What a call meant to fail failed with: the suite's one helper for it.
export { failure } from '../helpers/failure.js';

/** Milliseconds `fn` took, with what it threw (or undefined). */
export async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; error: (Error & { code?: string }) | undefined }> {
  const t0 = performance.now();
  try {
    await fn();
    return { ms: performance.now() - t0, error: undefined };
  } catch (error) {
    return { ms: performance.now() - t0, error: error as Error & { code?: string } };
  }
}
