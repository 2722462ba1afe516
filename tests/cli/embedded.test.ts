// No server configured: every command runs against the embedded simulator, started on a free port for the
// one command and closed after it (the default scenario's main phone is device@1116106541). In-process, but for
// two runs in a process of their own, which must end once the command has: nothing of the simulator stays open.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorLine, expect, launchSpawned, run, spawnCli, test } from './helpers.js';

test('pixel with no --url: the default scenario\'s main phone, pixel (100, 100)', async ({ tmp }) => {
  const r = await spawnCli(['pixel', 'device@1116106541', '100', '100', '--json'], { cwd: tmp });
  expect(r).toMatchObject({ code: 0, stderr: '', stdout: '{"r":37,"g":66,"b":92,"rgb":"0x25425c"}\n' });
});

test('main-device, login and settings with no --url', async ({ tmp }) => {
  expect(await run(['main-device', '--json'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"id":"device@1116106541"}\n' });
  expect(await run(['login', '--json'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"sigma"}\n' });
  const settings = await run(['settings', 'main', '--json'], { cwd: tmp });
  expect(settings.code).toBe(0);
  expect(JSON.parse(settings.stdout)).toMatchObject({ display_hw_decode: 1, display_resolution: { w: 1080, h: 1920 } });
});

test('doctor with no --url passes every check; --verbose says it is the embedded simulator', async ({ tmp }) => {
  const r = await run(['doctor', '--json', '--verbose'], { cwd: tmp });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
  expect(r.stderr).toMatch(/^server: the embedded simulator at http:\/\/127\.0\.0\.1:\d+, user sigma, API root \/TotalControl\/v1$/m);
});

test('the simulator takes the configured user, password and API root', async ({ tmp }) => {
  const r = await run(['main-device', '--json', '--user', 'qa', '--api-root', '/Service/v1'], { cwd: tmp, env: { PHONEWRIGHT_PASSWORD: 'local-Pw-9' } });
  expect(r).toMatchObject({ code: 0, stdout: '{"id":"device@1116106541"}\n' });
});

test('upload with no --url: the simulator stores it and answers with a URL', async ({ tmp }) => {
  const file = path.join(tmp, 'helper.js');
  await writeFile(file, 'console.log(1)');
  const r = await run(['upload', file, '--as', 'script', '--json'], { cwd: tmp });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).file_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/storage\/js\/\d{13}\.js$/);
});

test('the scenario named in phonewright.config.json (relative to the file) is the one served', async ({ tmp }) => {
  await writeFile(path.join(tmp, 'lab.json'), JSON.stringify({ phones: [{ id: 'device@42', screen: { width: 200, height: 100, fill: '0x123456' } }] }));
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ simulator: { scenario: 'lab.json' } }));
  expect(await run(['main-device', '--json'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"id":"device@42"}\n' });
  expect(await run(['pixel', 'main', '199', '99', '--json'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"r":18,"g":52,"b":86,"rgb":"0x123456"}\n' });
  const off = await run(['pixel', 'main', '200', '0'], { cwd: tmp });
  expect(off.code).toBe(2);
  expect(errorLine(off)).toMatch(/pixel \(200, 0\) is outside the screen of device@42 \(200×100\)/);
});

test('a scenario file that does not exist: exit 2, naming it', async ({ tmp }) => {
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ simulator: { scenario: 'missing.json' } }));
  const r = await run(['main-device'], { cwd: tmp });
  expect(r.code).toBe(2);
  expect(errorLine(r)).toMatch(/scenario .*missing\.json does not exist/);
});

test('notifications --follow with no --url: a message posted by the scenario arrives; Ctrl-C exits 0', async ({ tmp }) => {
  await writeFile(
    path.join(tmp, 'lab.json'),
    JSON.stringify({
      phones: [{ id: 'device@7', screen: { width: 10, height: 10 } }],
      notifications: [{ device: 'device@7', app: 'com.example.chat', text: 'tick {n}', everyMs: 300 }],
    }),
  );
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ simulator: { scenario: 'lab.json' } }));
  const cli = launchSpawned(['notifications', '--follow', '--json'], { cwd: tmp });
  await cli.waitFor('stdout', /"text":"tick \d+"/);
  cli.interrupt();
  const r = await cli.exited;
  expect(r.code).toBe(0);
  const first = JSON.parse(r.stdout.split('\n')[0]!);
  expect(first).toMatchObject({ app: 'com.example.chat', id: 'device@7', text: expect.stringMatching(/^tick \d+$/) });
});

test('the config file\'s simulator settings hold for a command too: under capabilities "seed", no screen capture', async ({ tmp }) => {
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ simulator: { capabilities: 'seed' } }));
  const r = await run(['screenshot', 'main', '--out', path.join(tmp, 'screen.png')], { cwd: tmp });
  expect(r.code).toBe(1);
  expect(errorLine(r)).toMatch(/^phonewright: this server does not offer (screen capture|device properties) \(a route beyond the device-control interface\): http:\/\/127\.0\.0\.1:\d+$/);
});
