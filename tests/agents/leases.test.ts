import { acquireLease, leaseKey, LeaseStore } from '../../src/lease/index.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { expect, test } from '../helpers/test.js';
import { answerJson, answerText, startMcp, type McpSession } from './client.js';

// An agent never acts on a phone another run holds: `phones` says who holds it, an act waits within its timeout
// and then fails naming the holder; once the run lets the phone go, the act goes through.

let mcp: McpSession | undefined;
let sim: SimulatorHandle | undefined;
let redis: RedisServer | undefined;
test.afterEach(async () => {
  await mcp?.close();
  await sim?.close();
  await redis?.stop();
  mcp = sim = redis = undefined;
});

test('a phone under another run\'s lease: listed with its holder, an act refused naming it, then free once released', async () => {
  redis = await startRedis();
  sim = await startSimulator({ port: 0 });
  const store = await LeaseStore.connect({ url: redis.url, shown: redis.url });
  const held = await acquireLease(store, { key: leaseKey(sim.url, 'device@1116106541'), phone: 'galaxy-s9', holder: { host: 'ci-7', run: 'nightly', pid: 4242 }, expiryMs: 30_000, waitMs: 0 });
  try {
    mcp = await startMcp({ PHONEWRIGHT_URL: sim.url, PHONEWRIGHT_PASSWORD: sim.password, PHONEWRIGHT_LEASES: redis.url });
    const { phones } = answerJson<{ phones: { id: string; leasedBy: string | null }[] }>(await mcp.call('phones'));
    expect(phones.find((p) => p.id === 'device@1116106541')?.leasedBy).toMatch(/^ci-7, run "nightly" \(pid 4242\)/);
    expect(phones.find((p) => p.id === 'device@1174886816')?.leasedBy).toBeNull();
    const refused = await mcp.call('tap', { x: 10, y: 10, timeout: 1500 });
    expect(refused.isError).toBe(true);
    expect(answerText(refused)).toMatch(/is leased by ci-7, run "nightly" \(pid 4242\)/);
    // Another phone is free.
    expect((await mcp.call('tap', { phone: 'device@1174886816', x: 10, y: 10, screen: false })).isError).toBeFalsy();
  } finally {
    await held.release();
  }
  const tapped = await mcp.call('tap', { x: 10, y: 10, screen: false });
  expect(tapped.isError, answerText(tapped)).toBeFalsy();
  store.close();
});
