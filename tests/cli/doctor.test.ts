// `phonewright doctor`: the checklist in order, skipping what a failure makes meaningless, and the exit code
// of the first failure (4 unreachable, 3 login refused, 1 any other). In-process (the exit codes of a real
// process: login.test.ts, pixel.test.ts).
import { closedPort, errorLine, expect, on, run, test, VENDOR_MAIN_DEVICE } from './helpers.js';

const NAMES = ['reachable', 'login', 'main device', 'settings', 'pixel', 'notifications'];

interface Report {
  checks: { name: string; ok: boolean; detail: string; ms: number }[];
  ok: boolean;
}

function parse(stdout: string): Report {
  const report = JSON.parse(stdout) as Report;
  expect(Object.keys(report)).toEqual(['checks', 'ok']);
  for (const c of report.checks) {
    expect(Object.keys(c)).toEqual(['name', 'ok', 'detail', 'ms']);
    expect(Number.isInteger(c.ms) && c.ms >= 0).toBe(true);
  }
  return report;
}

test('--json against a healthy server: six passing checks in order, ok true, exit 0', async ({ serve }) => {
  const server = await serve();
  const r = await run(['doctor', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  const report = parse(r.stdout);
  expect(report.ok).toBe(true);
  expect(report.checks.map((c) => [c.name, c.ok])).toEqual(NAMES.map((n) => [n, true]));
  expect(report.checks.map((c) => c.detail)).toEqual([
    `127.0.0.1:${server.port} accepts connections`,
    'user sigma logged in',
    VENDOR_MAIN_DEVICE,
    `${VENDOR_MAIN_DEVICE} 1080*1920, 1 (portrait), mode 1 (HA1)`,
    `${VENDOR_MAIN_DEVICE} (0, 0) = 0x25425c`,
    'the list answers (no messages held)',
  ]);
});

test('without --json: one ✓ line per check with its time, then a summary', async ({ serve }) => {
  const server = await serve();
  const r = await run(['doctor', ...on(server)]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(7);
  NAMES.forEach((name, i) => expect(lines[i]).toMatch(new RegExp(`^✓ ${name} +\\S.*  \\(\\d+ ms\\)$`)));
  expect(lines[6]).toBe('all 6 checks passed');
});

test('nothing listening: reachable fails, the rest is skipped and marked, exit 4', async () => {
  const port = await closedPort();
  const r = await run(['doctor', '--url', `http://127.0.0.1:${port}`, '--json']);
  expect(r.code).toBe(4);
  const report = parse(r.stdout);
  expect(report.ok).toBe(false);
  expect(report.checks[0]).toMatchObject({ name: 'reachable', ok: false, detail: expect.stringMatching(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/) });
  expect(report.checks.slice(1)).toEqual(NAMES.slice(1).map((name) => ({ name, ok: false, detail: 'skipped: the server is unreachable', ms: 0 })));
  expect(errorLine(r)).toMatch(/doctor: 1 of 6 checks failed, 5 skipped; the first, reachable, says: cannot reach .*try: is the server running/);
});

test('credentials refused: login fails, the rest is skipped, exit 3; the human list marks every line', async ({ serve }) => {
  const server = await serve({ password: 'right' });
  const r = await run(['doctor', ...on(server, { password: 'Wr0ng-doctor' })]);
  expect(r.code).toBe(3);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^✓ reachable/);
  expect(lines[1]).toMatch(/^✗ login +login refused for user "sigma"/);
  expect(lines.slice(2)).toEqual(NAMES.slice(2).map((n) => expect.stringMatching(new RegExp(`^✗ ${n} +skipped: not logged in$`))));
  expect(errorLine(r)).toMatch(/doctor: 1 of 6 checks failed, 4 skipped; the first, login, says: login refused/);
  expect(r.stdout + r.stderr).not.toContain('Wr0ng-doctor');
  expect(server.requests.map((q) => q.op)).toEqual(['login']);
});

test('settings fail: the checks after it still run; exit 1', async ({ serve }) => {
  const server = await serve();
  server.handle('settings', { json: { status: null, value: 'settings unavailable' } });
  const r = await run(['doctor', ...on(server), '--json']);
  expect(r.code).toBe(1);
  const report = parse(r.stdout);
  expect(report.checks.map((c) => c.ok)).toEqual([true, true, true, false, true, true]);
  expect(report.checks[3]!.detail).toMatch(/the server said "settings unavailable"/);
  expect(errorLine(r)).toMatch(/doctor: 1 of 6 checks failed; the first, settings, says:/);
});

test('no main device: settings and pixel are skipped, notifications still checked; exit 1', async ({ serve }) => {
  const server = await serve();
  server.handle('mainDevice', { json: { status: null, value: 'no phone connected' } });
  const r = await run(['doctor', ...on(server), '--json']);
  expect(r.code).toBe(1);
  const report = parse(r.stdout);
  expect(report.checks.map((c) => [c.name, c.ok])).toEqual(NAMES.map((n, i) => [n, i < 2 || i === 5]));
  expect(report.checks[3]!.detail).toBe('skipped: no device to check (the main device is unknown; give --device)');
  expect(server.count('settings') + server.count('pixel')).toBe(0);
  expect(server.count('notifications')).toBe(1);
});

test('--device: settings and pixel are read from that phone', async ({ serve }) => {
  const server = await serve();
  server.post({ app: 'com.example.chat', text: 'hi', time: 1, id: 'device@1174886816' });
  const r = await run(['doctor', '--device', 'device@1174886816', ...on(server), '--json']);
  expect(r.code).toBe(0);
  const report = parse(r.stdout);
  expect(report.checks[4]!.detail).toBe('device@1174886816 (0, 0) = 0x25425c');
  expect(report.checks[5]!.detail).toBe('the list answers (position 1: com.example.chat on device@1174886816)');
  expect((await server.waitFor('settings')).device).toBe('device@1174886816');
});

test('a bad --device: exit 2 before anything is checked', async ({ serve }) => {
  const server = await serve();
  const r = await run(['doctor', '--device', 'device@7x', ...on(server)]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toMatch(/invalid --device "device@7x"/);
  expect(server.requests).toEqual([]);
});
