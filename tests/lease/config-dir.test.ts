// The wait for a leased phone is the one the project's phonewright.config.json sets, wherever the run starts:
// the workers fix their set-up's timeout from it as they load, and a run started outside the project once
// read the working folder's configuration instead (none: a wait of 0 s, the phone failed as leased at once).
import { tmpdir } from 'node:os';
import { acquireLease, leaseKey, LeaseStore } from '../../src/lease/index.js';
import { config, expect, smallPhone, spec, test } from '../helpers/inline.js';
import { redisFixture, type RedisServer } from '../helpers/redis.js';

const PHONE = { id: 'device@601', name: 'phone' };

const leased = test.extend<{ redis: RedisServer }>({ redis: redisFixture });

leased('a run started outside its project waits for a leased phone as the project says, then drives it', async ({ inline, startSim, redis }) => {
  const sim = await startSim({ scenario: { phones: [smallPhone(PHONE.id, PHONE.name, '0x25425c')] } });
  const store = await LeaseStore.connect({ url: redis.url, shown: redis.url });
  const blocker = await acquireLease(store, { key: leaseKey(sim.url, PHONE.id), phone: PHONE.name, holder: { host: 'the test', run: 'blocker', pid: process.pid }, expiryMs: 10_000, waitMs: 0 });
  const project = await inline.project({
    'playwright.config.ts': config(),
    // The lease store and the wait in the project's file alone: none in the environment, none in the run's folder.
    'phonewright.config.json': JSON.stringify({ servers: [{ name: 'lab', url: sim.url, devices: [PHONE] }], leases: { url: redis.url, waitSeconds: 60 } }),
    'specs/a.spec.ts': spec(`test('reads', async ({ device }) => { await device.expectPixel(1, 1).toBe('0x25425c'); });`),
  });
  const running = project.run({ cwd: tmpdir() });
  // The worker was refused and read who holds the phone (a GET its last command): then the blocker lets go.
  const ended = running.then((r) => Promise.reject(new Error(`the run ended before its worker waited for the phone:\n${r.output}`)));
  await Promise.race([expect.poll(() => redis.waiting(), { timeout: 60_000 }).toBeGreaterThanOrEqual(1), ended]);
  await blocker.release();
  store.close();
  const run = await running;
  expect(run.summary.total, run.output).toEqual({ passed: 1, failed: 0, skipped: 0, flaky: 0 });
  expect(run.test('reads', PHONE.name).annotations.find((a) => a.type === 'lease')?.description).toMatch(/; waited \d+ ms for .*run "blocker"/);
});
