// Leases end to end: real runs of the CLI on one simulator, their phones leased in a real Redis. Which run drove
// a phone is read from the simulator's request log: each run reads pixels at x = its own tag.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { JSONReport } from '@playwright/test/reporter';
import { acquireLease, leaseKey, LeaseStore } from '../../src/lease/index.js';
import { reportTests } from '../../src/report/json-report.js';
import { inheritedEnv } from '../helpers/inline.js';
import { redisFixture, type RedisServer } from '../helpers/redis.js';
import { BIN } from '../helpers/spawn.js';
import { expect, phone, test, type Project } from '../report/harness.js';

const FILL = '0x25425c';
// Test n reads the phone at (tag, n), holds it 300 ms, and reads (tag, n + 10); test HOLD_IN first drives the
// phone until the run is killed or loses its lease: nothing in it ends on a timer.
const SPEC = `import { test } from 'phonewright/fixtures';

const TAG = Number(process.env.RUN_TAG);
for (const n of [1, 2, 3]) {
  test('holds the phone ' + n, async ({ device }) => {
    await device.expectPixel(TAG, n).toBe('${FILL}');
    if (String(n) === process.env.HOLD_IN) {
      // Drives the phone until the run is killed or stops: a read of (tag, 40) after another, never passing.
      test.setTimeout(0);
      await device.expectPixel(TAG, 40, { timeout: 600_000 }).not.toBe('${FILL}');
    }
    await device.expectNoNotification({ app: 'com.example.none' }, { within: 300 });
    await device.expectPixel(TAG, n + 10).toBe('${FILL}');
  });
}
`;
// One phone: a run's worker on a second phone waits and hands over the same way, a worker more per run.
const PHONES = ['device@501'];
/** The runs' tags: two runs show the wait and the hand-over from run to run that any more would repeat. */
const RUNS = [1, 2];
const PIXEL = /\/devices\/(device@\d+)\/screen\/colors\?.*\bx=(\d+)&y=(\d+)/;

test.describe.configure({ timeout: 240_000 });

const leased = test.extend<{ redis: RedisServer }>({
  redis: redisFixture,
});

leased('two runs at once on the same phone: it is driven by one run at a time, the later one waiting for the lease', async ({ project, startSim, redis }) => {
  const sim = await startSim({ scenario: { phones: PHONES.map((id, i) => phone(id, `p${i}`, FILL)) } });
  const files = { 'specs/hold.spec.ts': SPEC, 'phonewright.config.json': JSON.stringify({ leases: { expirySeconds: 5, waitSeconds: 120 } }) };
  // The test holds the phone first, so that both runs contend for it, however their start-ups fall.
  const store = await LeaseStore.connect({ url: redis.url, shown: redis.url });
  const blockers = await Promise.all(PHONES.map((id) => acquireLease(store, { key: leaseKey(sim.url, id), phone: id, holder: { host: 'the test', run: 'blocker', pid: process.pid }, expiryMs: 5_000, waitMs: 0 })));
  const running = Promise.all(RUNS.map(async (tag) => {
    const p = await project(files);
    const env = { PHONEWRIGHT_URL: sim.url, PHONEWRIGHT_USER: sim.user, PHONEWRIGHT_PASSWORD: sim.password, PHONEWRIGHT_DEVICES: PHONES.join(','), PHONEWRIGHT_LEASES: redis.url, PHONEWRIGHT_RUN_NAME: `run-${tag}`, RUN_TAG: String(tag) };
    return { p, run: await p.cli(['test'], env) };
  }));
  // Every run's worker waits, each on a connection of its own: it was refused and read who holds the phone (its
  // last command a GET). A connection alone is not enough: a worker whose first try came after the release
  // would have waited for nobody.
  await expect.poll(() => redis.waiting(), { timeout: 120_000 }).toBeGreaterThanOrEqual(RUNS.length * PHONES.length);
  for (const b of blockers) await b.release();
  store.close();
  const runs = await running;
  for (const { run } of runs) expect(run.code, run.output).toBe(0);
  for (const id of PHONES) {
    // The runs' reads of this phone, in the order the simulator answered them: one block per run, never interleaved.
    const tags = sim.requests.map((r) => PIXEL.exec(r)).filter((m) => m?.[1] === id).map((m) => m![2]);
    expect(tags).toHaveLength(RUNS.length * 3 * 2);
    expect(blocks(tags), `reads of ${id}: ${tags.join(' ')}`).toHaveLength(RUNS.length);
    // Each test names its run's lease, and whom the run waited for last.
    const leases = await Promise.all(runs.map(({ p }) => leaseNotes(p, id)));
    leases.forEach((notes, i) => expect(new Set(notes.map((n) => n.replace(/; waited .*/, '')))).toEqual(new Set([expect.stringMatching(new RegExp(`, run "run-${i + 1}" \\(pid \\d+\\), since `))])));
    const waitedFor = leases.map((notes) => /; waited \d+ ms for .*, run "([^"]+)"/.exec(notes[0]!)?.[1]);
    const order = blocks(tags).map((tag) => `run-${tag}`);
    // Each waited: the first for the blocker, each later one for the blocker or a run before it on the phone.
    order.forEach((run, k) => expect(['blocker', ...order.slice(0, k)], `whom ${run} waited for on ${id}: ${waitedFor}`).toContain(waitedFor[Number(run.slice(4)) - 1]));
    expect(waitedFor[Number(order[0]!.slice(4)) - 1]).toBe('blocker');
  }
  expect(redis.cli('KEYS', 'phonewright:lease:*'), 'every lease released').toBe('');
});

leased('a run killed mid-test frees its phone only after the expiry; Redis going away mid-run then fails the phone in one line, not unleased', async ({ project, startSim, redis }) => {
  const sim = await startSim({ scenario: { phones: [phone(PHONES[0]!, 'p', FILL)] } });
  const files = { 'specs/hold.spec.ts': SPEC, 'phonewright.config.json': JSON.stringify({ leases: { expirySeconds: 3, waitSeconds: 60 } }) };
  const base = { PHONEWRIGHT_URL: sim.url, PHONEWRIGHT_USER: sim.user, PHONEWRIGHT_PASSWORD: sim.password, PHONEWRIGHT_DEVICES: PHONES[0]!, PHONEWRIGHT_LEASES: redis.url };
  const key = `phonewright:lease:${new URL(sim.url).origin}/${PHONES[0]}`;
  const killed = await project(files);
  const taker = await project(files);
  // The killed run: holds the phone in its first test, until its whole process group is killed (a host that died).
  const crash = spawn(process.execPath, [BIN, 'test'], { cwd: killed.dir, detached: true, stdio: 'ignore', env: { ...inheritedEnv(), NO_COLOR: '1', ...base, PHONEWRIGHT_RUN_NAME: 'killed-run', RUN_TAG: '9', HOLD_IN: '1' } });
  try {
    await sim.waitForRequests(/x=9&y=1\b/, 1);
    // The taker starts, and waits: its worker was refused and read who holds the phone, the killed run.
    const taking = taker.cli(['nightly', '--retries', '0'], { ...base, PHONEWRIGHT_RUN_NAME: 'taker', RUN_TAG: '7', HOLD_IN: '2' });
    await expect.poll(() => redis.waiting(), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    process.kill(-crash.pid!, 'SIGKILL');
    const killedAt = performance.now();
    expect(Number(redis.cli('PTTL', key)), 'the killed run left its lease').toBeGreaterThan(0);
    await sim.waitForRequests(/x=7&y=1\b/, 1);
    // Not before the lease expired: its last renewal was at most a third of the expiry before the kill.
    expect(performance.now() - killedAt).toBeGreaterThan(3_000 - 1_000 - 150);
    // The taker is in its second test, holding the phone: Redis goes away.
    await sim.waitForRequests(/x=7&y=2\b/, 1);
    await redis.kill();
    const run = await taking;
    expect(run.code, run.output).toBe(1);
    const lost = new RegExp(`lost the lease on device@501 on env: the lease store redis://127\\.0\\.0\\.1:${redis.port} did not answer its renewals in time \\(.+\\); stopped driving the phone`);
    // The test it was in fails on the lost lease; Playwright's fresh worker for the next test finds no Redis: one line.
    expect(await reportedError(taker, 'holds the phone 2')).toMatch(lost);
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('phonewright: not tested'));
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^phonewright: not tested, device@501 on env: the lease store redis://127\\.0\\.0\\.1:${redis.port} cannot be reached: .*ECONNREFUSED.*\\(1 test skipped\\)$`))]);
    // It drove the phone until the lease was lost, then no more: the test's last read never came.
    expect(sim.count(/x=7&y=40\b/)).toBeGreaterThan(0);
    expect(sim.count(/x=7&y=12\b/), 'no read of the phone after the lease was lost').toBe(0);
    // The history: the taker's lease, and the killed run it waited for; the test it lost the lease in is the lab's failure.
    const [record] = await taker.records();
    const [first, second, third] = ['holds the phone 1', 'holds the phone 2', 'holds the phone 3'].map((t) => record!.tests.find((x) => x.test.endsWith(t))!);
    expect(first!.status).toBe('passed');
    expect(first!.lease!.holder).toMatch(/, run "taker" \(pid \d+\), since /);
    expect(first!.lease!.waitedFor).toMatch(/, run "killed-run" \(pid \d+\), since /);
    expect(first!.lease!.waitedMs).toBeGreaterThan(0);
    expect(second).toMatchObject({ status: 'failed', infra: true });
    expect(third).toMatchObject({ status: 'skipped', infra: true });
  } finally {
    if (crash.exitCode === null && crash.signalCode === null) process.kill(-crash.pid!, 'SIGKILL');
  }
});

/** The tag sequence cut into runs of equal tags. */
function blocks(tags: (string | undefined)[]): string[] {
  return tags.filter((t, i) => i === 0 || t !== tags[i - 1]) as string[];
}

/** The error of a run's test, from its JSON report. */
async function reportedError(p: Project, title: string): Promise<string | undefined> {
  const report = JSON.parse(await readFile(p.path('reports', 'results.json'), 'utf8')) as JSONReport;
  return [...reportTests(report.suites)].find(({ spec }) => spec.title === title)?.test.results.at(-1)?.error?.message;
}

/** The `lease` annotations of a run's tests on one phone. */
async function leaseNotes(p: Project, project: string): Promise<string[]> {
  const report = JSON.parse(await readFile(p.path('reports', 'results.json'), 'utf8')) as JSONReport;
  return [...reportTests(report.suites)].filter(({ test: t }) => t.projectName === project).flatMap(({ test: t }) => t.results.flatMap((r) => r.annotations).filter((a) => a.type === 'lease').map((a) => a.description ?? ''));
}
