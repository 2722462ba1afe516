// `phonewright doctor`: the checklist in order, skipping what a failure makes meaningless, and the exit code
// of the first failure (4 unreachable, 3 login refused, 1 any other); then each route beyond the interface,
// offered or not, with what phonewright does without it, every check within its own deadline. In-process (the
// exit codes of a real process: login.test.ts, pixel.test.ts).
import { formOf } from '../helpers/fake-server.js';
import { closedPort, errorLine, expect, on, PASSWORD, run, test, USER, VENDOR_MAIN_DEVICE, type CliResult } from './helpers.js';

const NAMES = ['reachable', 'login', 'main device', 'settings', 'pixel', 'notifications'];
const CAPABILITIES = ['device list', 'device properties', 'screen capture', 'acts (screen/inputs)', 'apps', 'UI elements (sendAai)', 'text recognition (OCR)'];

interface Report {
  checks: { name: string; ok: boolean; detail: string; ms: number }[];
  capabilities: { name: string; offered: boolean | null; detail: string; ms: number }[];
  ok: boolean;
}

function parse(stdout: string): Report {
  const report = JSON.parse(stdout) as Report;
  expect(Object.keys(report)).toEqual(['checks', 'capabilities', 'ok']);
  for (const c of report.checks) {
    expect(Object.keys(c)).toEqual(['name', 'ok', 'detail', 'ms']);
    expect(Number.isInteger(c.ms) && c.ms >= 0).toBe(true);
  }
  for (const c of report.capabilities) expect(Object.keys(c)).toEqual(['name', 'offered', 'detail', 'ms']);
  return report;
}

/** Runs `doctor <args> --json`, which must exit with `code`, and reads its report. */
async function doctorJson(args: string[], code: number): Promise<{ r: CliResult; report: Report }> {
  const r = await run(['doctor', ...args, '--json']);
  expect(r.code, r.stderr).toBe(code);
  return { r, report: parse(r.stdout) };
}

test('--json against a healthy server: six passing checks in order, ok true, exit 0', async ({ serve }) => {
  const server = await serve();
  const { r, report } = await doctorJson(on(server), 0);
  expect(r.stderr).toBe('');
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
  expect(lines).toHaveLength(6 + 1 + 7 + 1);
  NAMES.forEach((name, i) => expect(lines[i]).toMatch(new RegExp(`^✓ ${name} +\\S.*  \\(\\d+ ms\\)$`)));
  expect(lines[6]).toBe('routes beyond the device-control interface:');
  // The fake server of the interface only: every route beyond it marked –, not offered.
  CAPABILITIES.forEach((name, i) => expect(lines[7 + i]).toMatch(new RegExp(`^  – ${name.replace(/[()]/g, '\\$&')} +not offered: .*  \\(\\d+ ms\\)$`)));
  expect(lines[14]).toBe('all 6 checks passed; the server offers 0 of the 7 routes beyond the interface checked');
});

test('every route offered: what each answered, probed by reads only (a 1×1 capture in each format, the clipboard, the foreground app)', async ({ serve }) => {
  const server = await serve();
  server.handle('devices', { json: { ids: [VENDOR_MAIN_DEVICE, 'device@1174886816'] } });
  server.handle('deviceInfo', { json: { status: true, value: { name: 'm', width: 1080, height: 1920, model: 'SM-G960F', manufacturer: 'samsung', androidVersionRelease: '10' } } });
  server.handle('capture', (req) => ({ json: req.query.get('type') === 'bmp' ? { status: null, value: 'type not supported' } : { status: true, value: '/1/1.png' } }));
  server.handle('texts', (req) => ({ json: { status: true, value: req.query.get('rect') ? '12:30\n' : '' } }));
  server.handle('apps', { json: { status: true, value: 'com.android.launcher3' } });
  server.handle('aai', async (req) => ({ json: (await formOf(req)).get('params') === '{query:"TP:all",action:"getCount"}' ? { status: true, value: { count: 42 } } : { status: null, value: 'bad params' } }));
  const { r, report } = await doctorJson(on(server), 0);
  expect(r.stderr).toBe('');
  expect(report.capabilities.map((c) => [c.name, c.offered, c.detail])).toEqual([
    ['device list', true, '2 phones listed'],
    ['device properties', true, 'SM-G960F by samsung, 1080×1920, Android 10'],
    ['screen capture', true, 'png, jpg (bmp refused); regions are captured in one request'],
    ['acts (screen/inputs)', true, 'taps, keys and swipes through screen/inputs, text through screen/texts (it answers a clipboard read; the first act confirms)'],
    ['apps', true, 'com.android.launcher3 in front; launch and close-app go through apps/<package>'],
    ['UI elements (sendAai)', true, 'the engine answers: 42 elements on the screen now'],
    ['text recognition (OCR)', true, 'the server reads text: "12:30" in the top-left 160×48'],
  ]);
  expect(server.requests.filter((q) => q.op === 'capture').map((q) => `${q.query.get('type')} ${q.query.get('rect')}`)).toEqual(['png [0,0,1,1]', 'jpg [0,0,1,1]', 'bmp [0,0,1,1]']);
  expect(['inputs', 'script', 'app'].map((op) => server.count(op as 'app')), 'doctor never acts').toEqual([0, 0, 0]);
});

test('a server of the interface only: ok, each route not offered with what phonewright does instead; without capture, a region\'s cost timed on the phone', async ({ simulate }) => {
  const sim = await simulate({ capabilities: 'seed' });
  const { r, report } = await doctorJson(['--url', sim.url, '--user', USER, '--password', PASSWORD], 0);
  expect(r.stderr).toBe('');
  expect(report.capabilities.map((c) => [c.name, c.offered])).toEqual(CAPABILITIES.map((name) => [name, false]));
  expect(report.capabilities[2]!.detail).toMatch(/^not offered: regions are read pixel by pixel here: a 64×48 region is 3,072 reads, about \d+(\.\d)? s on this phone; images on the screen cannot be found, and screenshots fail$/);
  expect(sim.acts()).toEqual([]);
});

test('a server whose tokens serve 3 calls: the probes\' burst renews the spent token once for all, and every route is told', async ({ simulate }) => {
  const sim = await simulate({ behaviour: { tokenCalls: 3 } });
  const { report } = await doctorJson(['--url', sim.url, '--user', USER, '--password', PASSWORD], 0);
  expect(report.checks.every((c) => c.ok), JSON.stringify(report.checks)).toBe(true);
  expect(report.capabilities.map((c) => [c.name, c.offered])).toEqual(CAPABILITIES.map((name) => [name, true]));
});

test('a frozen phone: the checks on it end at their deadline, naming what did not answer; the rest still answer', async ({ simulate }) => {
  const sim = await simulate();
  sim.freeze(sim.mainDevice);
  const t0 = performance.now();
  // The first failure is a timeout: exit 4.
  const { r, report } = await doctorJson(['--url', sim.url, '--user', USER, '--password', PASSWORD, '--timeout', '1500'], 4);
  const seconds = (performance.now() - t0) / 1000;
  expect(report.checks.map((c) => [c.name, c.ok])).toEqual(NAMES.map((n) => [n, n !== 'settings' && n !== 'pixel']));
  expect(report.checks[3]!.detail).toMatch(/no answer/);
  // The server-wide list answers; the phone's own routes could not be told.
  expect(report.capabilities.map((c) => [c.name, c.offered])).toEqual(CAPABILITIES.map((name) => [name, name === 'device list' ? true : name === 'device properties' ? true : null]));
  expect(errorLine(r)).toMatch(/^phonewright: doctor: 2 of 6 checks failed; 5 routes beyond the interface could not be told \(screen capture, acts \(screen\/inputs\), apps, UI elements \(sendAai\), text recognition \(OCR\)\); the first, settings, says: /);
  // Every check ran at once, each within its 1.5 s: the whole run is one deadline long, not six.
  expect(seconds, `doctor took ${seconds.toFixed(1)} s`).toBeLessThan(6);
});

test('nothing listening: reachable fails, the rest is skipped and marked, exit 4', async () => {
  const port = await closedPort();
  const { r, report } = await doctorJson(['--url', `http://127.0.0.1:${port}`], 4);
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
  const { r, report } = await doctorJson(on(server), 1);
  expect(report.checks.map((c) => c.ok)).toEqual([true, true, true, false, true, true]);
  expect(report.checks[3]!.detail).toMatch(/the server said "settings unavailable"/);
  // The routes beyond the interface are told apart from a phone in trouble by that same settings read: untold.
  expect(errorLine(r)).toMatch(/doctor: 1 of 6 checks failed; 6 routes beyond the interface could not be told \(device properties, .*\); the first, settings, says:/);
});

test('no main device: settings and pixel are skipped, notifications still checked; exit 1', async ({ serve }) => {
  const server = await serve();
  server.handle('mainDevice', { json: { status: null, value: 'no phone connected' } });
  const { report } = await doctorJson(on(server), 1);
  expect(report.checks.map((c) => [c.name, c.ok])).toEqual(NAMES.map((n, i) => [n, i < 2 || i === 5]));
  expect(report.checks[3]!.detail).toBe('skipped: no device to check (the main device is unknown; give --device)');
  expect(server.count('settings') + server.count('pixel')).toBe(0);
  expect(server.count('notifications')).toBe(1);
});

test('--device: settings and pixel are read from that phone', async ({ serve }) => {
  const server = await serve();
  server.post({ app: 'com.example.chat', text: 'hi', time: 1, id: 'device@1174886816' });
  const { report } = await doctorJson(['--device', 'device@1174886816', ...on(server)], 0);
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
