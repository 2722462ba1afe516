// Leases against a real Redis (tests/helpers/redis.ts): one holder at a time, a wait that ends on a release, a
// holder that stops renewing taken over only after the expiry, the line that names who holds a phone, a store
// gone quiet (every command's deadline), and the lease settings' refusals, a password in the URL never in a message.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '../helpers/test.js';
import { resolveLeases } from '../../src/config/leases.js';
import { isPhonewrightError } from '../../src/core/errors.js';
import { acquireLease, LeaseStore, type AcquireOptions } from '../../src/lease/index.js';
import { runSecrets } from '../../src/report/redact.js';
import { redisFixture, startRedis, type RedisServer } from '../helpers/redis.js';

const redisTest = test.extend<{ redis: RedisServer; store: () => Promise<LeaseStore> }>({
  redis: redisFixture,
  store: async ({ redis }, use) => {
    const stores: LeaseStore[] = [];
    await use(async () => {
      const store = await LeaseStore.connect({ url: redis.url, shown: redis.url });
      stores.push(store);
      return store;
    });
    for (const s of stores) s.close();
  },
});

const KEY = 'phonewright:lease:http://10.0.0.5:8090/device@11';
const lease = (run: string, more: Partial<AcquireOptions> = {}): AcquireOptions => ({
  key: KEY,
  phone: 'pixel-7 (device@11) on lab-a',
  holder: { host: 'ci-1', run, pid: 4242 },
  expiryMs: 1_500,
  waitMs: 20_000,
  ...more,
});

redisTest('a second run waits for the phone, gets it when the first releases it, and says whom it waited for', async ({ redis, store }) => {
  const first = await acquireLease(await store(), lease('nightly 1'));
  expect(first.waitedMs).toBeLessThan(1_000);
  expect(first.waitedFor).toBeUndefined();
  expect(JSON.parse(redis.cli('GET', KEY))).toMatchObject({ host: 'ci-1', run: 'nightly 1', pid: 4242 });
  let got = false;
  const second = acquireLease(await store(), lease('nightly 2')).then((l) => ((got = true), l));
  // The second run is waiting: it has read who holds the phone.
  await expect.poll(() => redis.waiting()).toBe(1);
  expect(got).toBe(false);
  expect(await first.release()).toBe(true);
  const next = await second;
  expect(next.waitedFor).toBe(first.holder);
  expect(next.waitedFor).toMatch(/^ci-1, run "nightly 1" \(pid 4242\), since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(next.waitedMs).toBeGreaterThan(0);
  // Released twice, or by the run that no longer holds it: nothing is deleted.
  expect(await first.release()).toBe(false);
  expect(JSON.parse(redis.cli('GET', KEY))).toMatchObject({ run: 'nightly 2' });
  expect(await next.release()).toBe(true);
  expect(redis.cli('EXISTS', KEY)).toBe('0');
});

redisTest('a holder that stops renewing (its host crashed) keeps the phone until the expiry; then another run takes it, and the old one has lost it', async ({ redis, store }) => {
  const crashed = await store();
  const nextRenewal = renewals(crashed);
  const old = await acquireLease(crashed, lease('nightly 1'));
  // Renewals keep it past its expiry while its host lives.
  const t0 = performance.now();
  const held = () => {
    expect(JSON.parse(redis.cli('GET', KEY) || '{}')).toMatchObject({ run: 'nightly 1' });
    return performance.now() - t0;
  };
  await expect.poll(held, { timeout: 10_000 }).toBeGreaterThan(2 * 1_500);
  // The host goes away just after a renewal was answered: none is left in flight to change the expiry after it.
  expect(await (await nextRenewal()).answer).toBe(1);
  crashed.close();
  const expiry = Number(redis.cli('PEXPIRETIME', KEY));
  const next = await acquireLease(await store(), lease('nightly 2'));
  // Not before the lease ran out, by Redis's clock: the new lease was set after the old one's expiry.
  expect(Number(redis.cli('PEXPIRETIME', KEY)) - 1_500).toBeGreaterThan(expiry);
  expect(next.waitedFor).toBe(old.holder);
  // The old owner noticed before the lease could run out, and gives nothing back that is not its own.
  expect(old.signal.aborted).toBe(true);
  expect((old.signal.reason as Error).message).toMatch(/^lost the lease on pixel-7 \(device@11\) on lab-a: the lease store redis:\/\/127\.0\.0\.1:\d+ did not answer its renewals in time \(.+\); stopped driving the phone; try: /);
  expect(isPhonewrightError(old.signal.reason, 'PW_UNREACHABLE')).toBe(true);
  expect(await old.release()).toBe(false);
  expect(JSON.parse(redis.cli('GET', KEY))).toMatchObject({ run: 'nightly 2' });
  await next.release();
});

redisTest('the wait has a deadline: it ends with one line naming who holds the phone and since when', async ({ store }) => {
  const holder = await acquireLease(await store(), lease('nightly 812 shard 2/3'));
  const error = await rejection(acquireLease(await store(), lease('a tester', { waitMs: 300 })));
  expect(isPhonewrightError(error, 'PW_TIMEOUT')).toBe(true);
  expect(error.message).toMatch(
    /^pixel-7 \(device@11\) on lab-a is leased by ci-1, run "nightly 812 shard 2\/3" \(pid 4242\), since \S+Z; waited 0\.3 s for it; try: wait for that run to end \(a crashed run frees it within the lease's expiry\), or raise leases\.waitSeconds in phonewright\.config\.json$/,
  );
  expect(error.message).toContain(holder.holder);
  await holder.release();
});

test('lease settings: the URL from PHONEWRIGHT_LEASES or the file, the timings from the file; a bad one refused in one line without its password', async () => {
  const file = (leases: object) => ({ servers: [], push: {}, simulator: {}, leases, dir: '/lab', source: '/lab/phonewright.config.json' });
  expect(resolveLeases({}, undefined)).toBeUndefined();
  expect(resolveLeases({ PHONEWRIGHT_LEASES: 'redis://:s3cr3t@lab-redis:6380/2' }, file({ expirySeconds: 9, waitSeconds: 60 }))).toEqual({
    url: 'redis://:s3cr3t@lab-redis:6380/2',
    shown: 'redis://lab-redis:6380/2',
    expiryMs: 9_000,
    waitMs: 60_000,
  });
  expect(resolveLeases({}, file({ url: 'redis://lab-redis:6379' }))).toMatchObject({ shown: 'redis://lab-redis:6379', expiryMs: 30_000, waitMs: 1_800_000 });
  const refused = (env: Record<string, string>, leases?: object) => {
    try {
      resolveLeases(env, leases ? file(leases) : undefined);
    } catch (error) {
      expect(isPhonewrightError(error, 'PW_CONFIG')).toBe(true);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refused({ PHONEWRIGHT_LEASES: 'http://u:s3cr3t@lab:6379' })).toBe('PHONEWRIGHT_LEASES: http: is not redis: or rediss:; try: redis://<host>:6379 (rediss:// for TLS)');
  expect(refused({ PHONEWRIGHT_LEASES: 'lab-redis:s3cr3t' })).not.toContain('s3cr3t');
  // The history and the reports scrub it as they scrub the servers' passwords.
  expect(runSecrets({ PHONEWRIGHT_LEASES: 'redis://:s3cr%2Ft@lab-redis:6380' }, [])).toEqual(['s3cr/t']);
  expect(refused({}, { waitSeconds: 5 })).toBe('/lab/phonewright.config.json: leases: no Redis URL to keep the leases in; try: add "url": "redis://host:6379" to "leases", or set PHONEWRIGHT_LEASES');
});

test('a lease store that does not answer fails in one line naming it, never its password', async () => {
  const redis = await startRedis();
  await redis.stop();
  const settings = resolveLeases({ PHONEWRIGHT_LEASES: `redis://:s3cr3t@127.0.0.1:${redis.port}` }, undefined)!;
  const error = await rejection(LeaseStore.connect(settings));
  expect(isPhonewrightError(error, 'PW_UNREACHABLE')).toBe(true);
  expect(error.message).toMatch(new RegExp(`^the lease store redis://127\\.0\\.0\\.1:${redis.port} cannot be reached: .*ECONNREFUSED.*; try: check that Redis runs there`));
  expect(error.message).not.toContain('s3cr3t');
});

redisTest('a lease store gone quiet: each command ends at its deadline, a wait for a phone fails, a held lease is given up', async ({ redis, store }) => {
  const s = await store();
  const held = await acquireLease(s, lease('nightly 1', { key: `${KEY}-held` }));
  const lost = new Promise<unknown>((resolve) => held.signal.addEventListener('abort', () => resolve(held.signal.reason), { once: true }));
  redis.pause();
  try {
    // The connection stays open and nothing answers: only the command's own deadline ends it.
    const quiet = await rejection(s.command(['GET', KEY], 300));
    expect(isPhonewrightError(quiet, 'PW_UNREACHABLE')).toBe(true);
    expect(quiet.message).toBe(`the lease store ${redis.url} did not answer GET: no answer within 300 ms`);
    // A worker asking for a phone meanwhile fails in one line, rather than waiting out its 20 s or for ever.
    const waiting = await rejection(acquireLease(s, lease('nightly 2')));
    expect(isPhonewrightError(waiting, 'PW_UNREACHABLE')).toBe(true);
    expect(waiting.message).toBe(`the lease store ${redis.url} did not answer SET: no answer within 2000 ms`);
    // The held lease's renewals go unanswered: the worker stops driving the phone, saying why.
    expect(String(await lost)).toMatch(
      new RegExp(`^LeaseLostError: lost the lease on pixel-7 \\(device@11\\) on lab-a: the lease store ${redis.url.replace(/[./]/g, '\\$&')} did not answer its renewals in time \\(no answer within \\d+ ms\\); stopped driving the phone`),
    );
  } finally {
    redis.resume();
  }
});

redisTest('a lease store quiet for less than the lease lasts: the renewal waiting on it gets through, the lease is kept', async ({ redis, store }) => {
  const s = await store();
  const nextRenewal = renewals(s);
  // Renewed every second, each renewal certain until 2.7 s after the one before.
  const held = await acquireLease(s, lease('nightly 1', { expiryMs: 3_000 }));
  const firstExpiry = Number(redis.cli('PEXPIRETIME', KEY));
  expect(firstExpiry).toBeGreaterThan(0);
  // Frozen before the first renewal is due (no timer runs before this line), and kept quiet for a while once that
  // renewal is sent: the quiet it must wait out, longer than the pause before a failed renewal is sent again. Back
  // about 1.5 s before the lease could expire.
  redis.pause();
  const first = await nextRenewal();
  await sleep(500);
  expect(first.ended, 'the renewal ended while Redis was frozen (answered, or given up)').toBe(false);
  redis.resume();
  // The renewal sent into the quiet waited for Redis and got through: the one sent, not a retry after it failed.
  expect(await first.answer).toBe(1);
  // Redis now keeps the lease past the expiry it started with.
  expect(Number(redis.cli('PEXPIRETIME', KEY))).toBeGreaterThan(firstExpiry);
  // The worker goes on renewing it: a lost lease is renewed no more.
  expect(await (await nextRenewal()).answer).toBe(1);
  expect(held.signal.aborted, String(held.signal.reason)).toBe(false);
  expect(redis.cli('GET', KEY)).toContain('"run":"nightly 1"');
  expect(await held.release()).toBe(true);
  expect(redis.cli('EXISTS', KEY)).toBe('0');
});

/** A renewal the store sent: its answer, and whether the command has ended yet (answered or failed). */
interface Renewal {
  answer: Promise<unknown>;
  ended: boolean;
}

/** Watches a store's lease renewals (the compare-and-renew EVAL): the function returned resolves with the next one sent. */
function renewals(store: LeaseStore): () => Promise<Renewal> {
  const waiting: ((renewal: Renewal) => void)[] = [];
  const command = store.command.bind(store);
  store.command = <T>(args: string[], timeoutMs?: number): Promise<T> => {
    const answer = command<T>(args, timeoutMs);
    if (args[0] === 'EVAL' && args[1]!.includes('PEXPIRE')) {
      const renewal: Renewal = { answer, ended: false };
      const end = () => void (renewal.ended = true);
      answer.then(end, end);
      for (const take of waiting.splice(0)) take(renewal);
    }
    return answer;
  };
  return () => new Promise((resolve) => waiting.push(resolve));
}

/** What a promise was rejected with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('resolved, but should have been rejected');
    },
    (error: unknown) => error as Error,
  );
}
