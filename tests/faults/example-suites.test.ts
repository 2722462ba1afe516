// The example suites (specs/) under fault injection. What a lab's server and phones do on a bad night must
// not turn into red tests (reads recover), and what cannot recover must fail only the tests it touches, each
// marked `infra-failure`; no upload is sent twice or lost, and the run's counts are exact.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, REPO, test, type InlineRun } from '../helpers/inline.js';
import { exampleProject, runOn, SIGN_IN_TESTS, summaryLine, TESTS_PER_PHONE } from '../helpers/example-project.js';
import { startWatchedSim, weather, type WatchedSim } from './faulty-sim.js';

const PASSWORD = 'Faults-Pw-7c1e90';
const READS = ['login', 'mainDevice', 'notifications', 'settings', 'pixel'] as const;
const S9 = 'device@1116106541';
const MOTO = 'device@-230441652';
const APP_INSTALL = 'the apk and the login script are on the server';
/** The phones of the run that cannot recover: the Moto, unplugged, and one that is not. */
const UNPLUGGED_AND_NOT = ['moto-g5', 'galaxy-s9'];

const sims: WatchedSim[] = [];
test.afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

test('a server of the interface only: resets, 5xx bursts, latency spikes, bodies that are not JSON, expiring tokens, phones that blink: all green', async ({ inline }) => {
  test.setTimeout(120_000);
  const sim = await startWatchedSim({ password: PASSWORD, behaviour: { tokenLifetimeSeconds: 2 }, capabilities: 'seed' });
  sims.push(sim);
  // On a server of the interface only, where regions are sampled: thousands of reads for the weather to hit
  // (~3,000 on one phone). Calm: 10 % of reads reset, 5 % answered with an HTML page, 3 % with a 503. Every 500
  // requests a storm of 64: each answer 500 ms late, and the first six a 502.
  const sky = weather(sim, {
    calm: { resetRate: 0.1, notJsonRate: 0.05, errorRate: 0.03, operations: [...READS] },
    storm: { latencyMs: 500, errorBurst: 6, errorStatus: 502, operations: [...READS] },
    every: 500,
    length: 64,
  });
  // The main phone, the one phone of the run (another would see the same weather, at the cost of a worker),
  // blinks twice: it drops off right after a pixel of 'the screen is not blank' (a read no assertion polls) and
  // is back after six more requests for it; then in the middle of its region sample (32 reads in flight), back
  // after 80.
  const afterRead = blink(sim, S9, new RegExp(`${S9}/screen/colors\\?.*&x=0&y=0 200 `), 6);
  const midSample = blink(sim, S9, new RegExp(`${S9}/screen/colors\\?.*&x=[12]\\d&y=[23]\\d 200 `), 80);
  const project = await exampleProject(inline.project);

  const run = await runOn(project, sim, { PHONEWRIGHT_DEVICES: 'galaxy-s9' });

  // The chat app's image needs the vendor's screen capture, the sign-in form's text the UI elements or the
  // capture: skipped on each phone of this server.
  const skipped = 1 + SIGN_IN_TESTS;
  expect(run.summary.total, run.output).toEqual({ passed: TESTS_PER_PHONE - skipped, failed: 0, skipped, flaky: 0 });
  expect(summaryLine(run)).toBe(`${TESTS_PER_PHONE - skipped} passed, 0 failed, ${skipped} skipped`);
  expect(run.exitCode).toBe(0);
  expect(infraFailures(run)).toEqual([]);
  // The faults did happen, all of them.
  expect(sky.storms()).toBeGreaterThanOrEqual(3);
  expect(sim.lines.filter((l) => / no answer /.test(l)).length, 'connections reset').toBeGreaterThan(100);
  expect(sim.lines.filter((l) => / 50[23] /.test(l)).length, '5xx answers').toBeGreaterThan(50);
  expect(sim.stats().operations.login, 'one login, then one per expired token').toBeGreaterThan(1 + 4);
  for (const [when, b] of [['after a read', afterRead], ['mid-sample', midSample]] as const) {
    expect(b.offlineAt, `offline ${when}`).toBeGreaterThan(0);
    expect(b.onlineAt, `back ${when}`).toBeGreaterThan(b.offlineAt);
  }
  expect(midSample.offlineAt, 'the second blink after the first').toBeGreaterThan(afterRead.onlineAt);
  // The uploads were not faulted here: each file sent once, intact. (The server's count of upload requests can
  // be one more: a 2 s token may lapse before an upload, which the server refuses unread and the client resends.)
  expect(run.stdout.match(/push: uploading example-app\.apk/g)).toHaveLength(1);
  expect(run.stdout.match(/push: uploading login\.js/g)).toHaveLength(1);
  expect((await stored(sim)).map((f) => f.content)).toEqual(await assets());
});

test('what cannot recover fails only its own tests, marked infra-failure; no upload sent twice or lost', async ({ inline }) => {
  test.setTimeout(120_000);
  const sim = await startWatchedSim({ password: PASSWORD, faults: { resetRate: 1, operations: ['upload'] } });
  sims.push(sim);
  // The first upload's connection is dropped; the server is fine after it.
  sim.on((line) => {
    if (!/ POST \S+\/storage\?/.test(line)) return false;
    sim.setFaults(undefined);
    return true;
  });
  // The Moto G5 answers its first pixel read, then is unplugged for good.
  sim.on((line) => {
    if (!line.includes(`${MOTO}/screen/colors?`)) return false;
    sim.setOnline(MOTO, false);
    return true;
  });
  const project = await exampleProject(inline.project);

  // The Moto and one phone beside it, which goes on as if nothing happened (two more would show the same).
  const run = await runOn(project, sim, { PHONEWRIGHT_DEVICES: UNPLUGGED_AND_NOT.join(',') });

  // The moto-g5 passes what came before (app-install, display settings, the status bar pixel), fails the next
  // read after waiting for the phone, and skips the rest; one app-install somewhere fails on the dropped upload.
  const skipped = TESTS_PER_PHONE - 5;
  expect(run.summary.total, run.output).toEqual({ passed: TESTS_PER_PHONE + 3, failed: 2, skipped, flaky: 0 });
  // The Moto's restarted worker could not reach it: its line, and one failure more, for the tests it skipped.
  expect(summaryLine(run)).toBe(`${TESTS_PER_PHONE + 3} passed, 3 failed, ${skipped} skipped`);
  expect(run.stdout).toMatch(new RegExp(`^phonewright: not tested, moto-g5 \\(device@-230441652\\) on simulator: settings failed for device@-230441652: .* \\(${skipped} tests skipped\\)$`, 'm'));
  expect(run.exitCode).toBe(1);
  const failed = run.tests.filter((t) => t.status === 'unexpected');
  expect(failed.map((t) => t.title).sort()).toEqual(['the apk and the login script are on the server', 'wallpaper shows at its point'].sort());
  expect(run.test('wallpaper shows at its point', 'moto-g5').error).toContain(`${MOTO} is unknown to the server or offline ("device not found")`);
  // A connection reset while the body is still being sent shows as ECONNRESET (the write failed); once it
  // was sent, as undici's UND_ERR_SOCKET (the read found the socket closed): which comes first is the OS's.
  expect(failed.find((t) => t.title === APP_INSTALL)!.error).toMatch(/^UnreachableError: upload: cannot reach the server \((?:UND_ERR_SOCKET|ECONNRESET)\): POST http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/storage\?token=\*\*\*/);
  // Every test that did not pass says why: infrastructure, with the server's or the client's words.
  const notPassed = run.tests.filter((t) => t.status !== 'expected');
  expect(notPassed).toHaveLength(2 + skipped);
  for (const t of notPassed) expect(infraFailures(run, t), `${t.title} [${t.project}]`).toHaveLength(1);
  for (const t of run.tests.filter((x) => x.status === 'skipped')) {
    expect(t.project).toBe('moto-g5');
    expect(t.annotations).toContainEqual(expect.objectContaining({ type: 'skip', description: expect.stringMatching(/^phone not reachable: settings failed for device@-230441652: the server said "device not found"/) }));
  }
  // Elsewhere, nothing but the app-install test that met the dropped upload (if it was not the Moto's).
  const elsewhere = run.tests.filter((t) => t.project !== 'moto-g5' && t.status !== 'expected').map((t) => t.title);
  expect(elsewhere.length).toBeLessThanOrEqual(1);
  expect(elsewhere.every((title) => title === APP_INSTALL)).toBe(true);

  // Three uploads reached the server: the dropped one, then the apk and the script once each. The store holds
  // exactly those two, intact, and the upload cache points every later test at them.
  expect(sim.stats().operations.upload).toBe(3);
  const files = await stored(sim);
  expect(files.map((f) => f.content)).toEqual(await assets());
  const cache = JSON.parse(await readFile(project.path('.phonewright', 'push-cache.json'), 'utf8')) as Record<string, { fileUrl: string }>;
  expect(Object.values(cache).map((e) => path.posix.basename(e.fileUrl)).sort()).toEqual(files.map((f) => f.name).sort());
  expect(run.stdout.match(/push: uploading example-app\.apk/g)).toHaveLength(2);
  expect(run.stdout.match(/push: uploading login\.js/g)).toHaveLength(1);
});

/** Takes a phone offline after the first request matching `trigger`, and back after `requests` more for it. */
function blink(sim: WatchedSim, device: string, trigger: RegExp, requests: number): { offlineAt: number; onlineAt: number } {
  const seen = { offlineAt: 0, onlineAt: 0 };
  let left = requests;
  sim.on((line, n) => {
    if (!seen.offlineAt) {
      if (!trigger.test(line)) return false;
      sim.setOnline(device, false);
      seen.offlineAt = n;
      return false;
    }
    if (!line.includes(`/devices/${device}/`) || --left > 0) return false;
    sim.setOnline(device, true);
    seen.onlineAt = n;
    return true;
  });
  return seen;
}

/** The `infra-failure` annotations of one test, or `title [project]` of every test that has one. */
function infraFailures(run: InlineRun, test?: InlineRun['tests'][number]): string[] {
  if (test) return test.annotations.filter((a) => a.type === 'infra-failure').map((a) => a.description ?? '');
  return run.tests.filter((t) => t.annotations.some((a) => a.type === 'infra-failure')).map((t) => `${t.title} [${t.project}]`);
}

/** Every file in the simulator's storage: its name, and `<extension>:<sha256>` of its content; by content. */
async function stored(sim: WatchedSim): Promise<{ name: string; content: string }[]> {
  const out = [];
  for (const e of await readdir(sim.storageRoot, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.push({ name: e.name, content: `${path.extname(e.name)}:${sha256(await readFile(path.join(e.parentPath, e.name)))}` });
  }
  return out.sort((a, b) => a.content.localeCompare(b.content));
}

/** The files the example pushes, as {@link stored} describes them. */
async function assets(): Promise<string[]> {
  const files = ['example-app.apk', 'login.js'].map((f) => path.join(REPO, 'specs', 'assets', f));
  const out = await Promise.all(files.map(async (f) => `${path.extname(f)}:${sha256(await readFile(f))}`));
  return out.sort();
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
