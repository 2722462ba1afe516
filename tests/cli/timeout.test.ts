// `--timeout <ms>` on the commands whose reads can wait: the budget of each call reaches the wire (the request
// held by a frozen phone is let go when it passes, well before the client's per-attempt timeout of 10 s), and
// a call that runs out of it says to give it longer with --timeout, not with an option the CLI lacks.
import { performance } from 'node:perf_hooks';
import { type BadUsage, badUsageTests, errorLine, expect, on, run, test } from './helpers.js';

const ADVICE = (ms: number) => `try: check that the server and the phone are not stuck or overloaded, or give each call longer with --timeout <ms> (it had ${ms} ms)`;
/** The client's own per-attempt timeout: a budget that did not reach the wire would end no sooner. */
const ATTEMPT_TIMEOUT_MS = 10_000;

test('pixel on a frozen phone: exit 4 once --timeout has passed, the request let go, the advice naming --timeout', async ({ simulate }) => {
  const log: string[] = [];
  const sim = await simulate({ verbose: (line) => log.push(line) });
  sim.freeze(sim.mainDevice);
  const t0 = performance.now();
  const r = await run(['pixel', 'main', '0', '0', '--timeout', '500', ...on(sim)]);
  const took = performance.now() - t0;
  expect(r.code).toBe(4);
  expect(r.stdout).toBe('');
  const line = errorLine(r);
  expect(line).toMatch(/^phonewright: pixel: no answer before the deadline: GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/devices\/device@1116106541\/screen\/colors\?token=\*\*\*&q=color&x=0&y=0; /);
  expect(line.endsWith(ADVICE(500)), line).toBe(true);
  expect(line).not.toContain('raise the timeout');
  expect(took).toBeGreaterThanOrEqual(500);
  expect(took).toBeLessThan(ATTEMPT_TIMEOUT_MS);
  // The simulator saw its held request closed by the client: the deadline ended it on the wire.
  await expect.poll(() => log.some((l) => /^sim GET \S+\/screen\/colors\S* no answer /.test(l))).toBe(true);
});

test('doctor on a frozen phone: settings and pixel fail with the --timeout advice, said once in the summary; exit 4', async ({ simulate }) => {
  const sim = await simulate();
  sim.freeze(sim.mainDevice);
  const r = await run(['doctor', '--timeout', '400', '--json', ...on(sim)]);
  expect(r.code).toBe(4);
  const { checks } = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
  expect(checks.map((c) => [c.name, c.ok])).toEqual([
    ['reachable', true],
    ['login', true],
    ['main device', true],
    ['settings', false],
    ['pixel', false],
    ['notifications', true],
  ]);
  for (const c of checks.filter((check) => !check.ok)) expect(c.detail.endsWith(ADVICE(400)), c.detail).toBe(true);
  const line = errorLine(r);
  expect(line).toMatch(/^phonewright: doctor: 2 of 6 checks failed; 5 routes beyond the interface could not be told \(.*\); the first, settings, says: settings: no answer before the deadline: /);
  expect(line.endsWith(ADVICE(400)), line).toBe(true);
  expect(line.split('--timeout').length - 1).toBe(1);
});

test('a phone that answers in time is read as before', async ({ simulate }) => {
  const sim = await simulate();
  const r = await run(['settings', 'main', '--timeout', '5000', '--json', ...on(sim)]);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).display_resolution).toEqual({ w: 1080, h: 1920 });
});

test('every read command offers --timeout, and its help says the default', async () => {
  for (const command of ['login', 'main-device', 'devices', 'pixel', 'screenshot', 'settings', 'notifications', 'doctor']) {
    const r = await run([command, '--help']);
    expect(r.code, command).toBe(0);
    // Help wraps at words: compare with the line breaks taken out.
    expect(r.stdout.replace(/\s+/g, ' '), command).toContain('--timeout Longest time one call to the server may take, retries included, in ms [default 30000: 30 s]');
  }
});

const BAD: BadUsage[] = [
  { args: ['main', '0', '0', '--timeout', '0'], says: /^phonewright: invalid --timeout "0": expected a whole number from 1 to 86400000; try: / },
  { args: ['main', '0', '0', '--timeout', '2s'], says: /^phonewright: invalid --timeout "2s": expected a whole number/ },
  { args: ['main', '0', '0', '--timeout', '1.5'], says: /^phonewright: invalid --timeout "1\.5"/ },
];
badUsageTests('pixel', BAD);
badUsageTests('notifications', [{ args: ['--follow', '--timeout', '1000'], says: /^phonewright: --timeout does not apply to --follow, which reads until Ctrl-C; try: / }]);
