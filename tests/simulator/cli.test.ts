// `phonewright sim`: runSim in-process, what it prints, that it serves, and that it stops on an abort; its help
// through main(); and one run of the real CLI in a process of its own, serving until SIGINT.
import { createRequire } from 'node:module';
import { request } from 'undici';
import { runSim, simCommand, type SimArgs } from '../../src/cli/commands/sim.js';
import { GLOBAL_OPTIONS } from '../../src/cli/options.js';
import { run } from '../cli/helpers.js';
import { launchSpawned } from '../helpers/spawn.js';
import { VENDOR_AUTH, curl, expect, test } from './harness.js';
import { ARGS, capture, start, stopped } from './cli-harness.js';

const yargs = createRequire(import.meta.url)('yargs/yargs') as typeof import('yargs/yargs');

test('prints URL, credentials, admin key and phone ids; serves; stops on abort', async () => {
  const { out, done, stop } = await start({});
  const text = out.stdout.join('\n');
  const url = /on (http:\/\/127\.0\.0\.1:\d+) \(API root \/TotalControl\/v1\)/.exec(text)?.[1];
  expect(url).toBeDefined();
  expect(text).toContain('user:      sigma');
  expect(text).toContain('password:  3D391497');
  expect(text).toMatch(/admin key: [A-Za-z0-9_-]{20,}/);
  for (const id of ['device@1116106541', 'device@1174886816', 'device@24681357', 'device@-230441652']) expect(text).toContain(id);
  expect(text).toMatch(/device@1116106541\s+galaxy-s9\s+1080x1920\s+portrait\s+\(main\)/);
  expect(text).toContain(`curl -H "Authorization: ${VENDOR_AUTH}" ${url}/TotalControl/v1/login`);
  const login = await curl(['-H', `Authorization: ${VENDOR_AUTH}`, `${url}/TotalControl/v1/login`]);
  expect(JSON.parse(login.stdout)).toMatchObject({ status: true });
  stop();
  await done;
  expect(await stopped(url!)).toBe(true);
  expect(out.stderr).toContain('phonewright sim: stopped');
});

test('--json prints one JSON document on stdout', async () => {
  const { out, done, stop } = await start({ json: true });
  expect(out.stdout).toHaveLength(1);
  const doc = JSON.parse(out.stdout[0]!);
  expect(doc).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), apiRoot: '/TotalControl/v1', user: 'sigma', password: '3D391497', adminKey: expect.any(String), mainDevice: 'device@1116106541' });
  expect(doc.phones).toHaveLength(4);
  stop();
  await done;
  expect(out.stdout).toHaveLength(1);
});

for (const [how, args, env, source] of [
  ['PHONEWRIGHT_PASSWORD', {}, { PHONEWRIGHT_PASSWORD: 'hunter2-lab' }, '(as given in PHONEWRIGHT_PASSWORD)'],
  ['--password', { password: 'hunter2-lab' }, {}, '(as given with --password)'],
] as const) {
  test(`a password given with ${how} is used and never printed`, async () => {
    for (const json of [false, true]) {
      const { out, done, stop } = await start({ ...args, json, user: 'qa' }, env);
      const all = [...out.stdout, ...out.stderr].join('\n');
      expect(all).not.toContain('hunter2-lab');
      expect(all).not.toContain(Buffer.from('qa:hunter2-lab').toString('base64'));
      if (json) expect(JSON.parse(out.stdout[0]!)).toMatchObject({ user: 'qa', passwordFrom: how });
      else expect(all).toContain(`password:  ${source}`);
      const url = json ? JSON.parse(out.stdout[0]!).url : /on (http:\S+)/.exec(out.stdout[0]!)![1];
      const ok = await request(`${url}/TotalControl/v1/login`, { headers: { authorization: Buffer.from('qa:hunter2-lab').toString('base64') } });
      expect(await ok.body.json()).toMatchObject({ status: true });
      stop();
      await done;
    }
  });
}

test('PHONEWRIGHT_USER and PHONEWRIGHT_API_ROOT apply; flags win over them', async () => {
  const { out, done, stop } = await start({ json: true, apiRoot: '/Service/v1' }, { PHONEWRIGHT_USER: 'lab', PHONEWRIGHT_API_ROOT: '/Other/v1' });
  expect(JSON.parse(out.stdout[0]!)).toMatchObject({ user: 'lab', apiRoot: '/Service/v1' });
  stop();
  await done;
});

test('behaviour flags switch the answers', async () => {
  const { out, done, stop } = await start({ json: true, 'token-failure': 'http401', 'messages-held': '5', 'hw-decode': 'string' });
  const { url } = JSON.parse(out.stdout[0]!);
  const res = await request(`${url}/TotalControl/v1/devices/main?token=AAAAAAAAAAAAAAAA`);
  await res.body.dump();
  expect(res.statusCode).toBe(401);
  stop();
  await done;
});

test('every behaviour flag reaches the simulator', async () => {
  const flags = {
    'login-failure': 'false',
    'token-failure': 'false',
    'token-lifetime': '90',
    'token-calls': '20',
    'notification-order': 'newest-first',
    'position-indexes': 'unfiltered',
    match: 'exact',
    'position-past-end': 'false',
    'messages-held': '7',
    'file-url': 'relative',
    'hw-decode': 'string',
    resolution: 'object',
    'time-unit': 's',
    'capture-url': 'file_url',
    'capture-rect': 'inclusive',
  };
  const { out, done, stop } = await start({ json: true, ...flags });
  const { url, adminKey } = JSON.parse(out.stdout[0]!);
  const state = await request(`${url}/_sim/state`, { headers: { 'x-sim-admin-key': adminKey } });
  expect(((await state.body.json()) as { behaviour: unknown }).behaviour).toEqual({
    loginFailure: 'false',
    tokenFailure: 'false',
    tokenLifetimeSeconds: 90,
    tokenCalls: 20,
    notificationOrder: 'newest-first',
    positionIndexes: 'unfiltered',
    match: 'exact',
    positionPastEnd: 'false',
    messagesHeld: 7,
    fileUrl: 'relative',
    hwDecode: 'string',
    resolution: 'object',
    timeUnit: 's',
    captureUrl: 'file_url',
    captureRect: 'inclusive',
  });
  stop();
  await done;
});

test('--capabilities seed --missing-route: the vendor\'s routes answer in that form', async () => {
  for (const [form, status] of [['405', 405], ['501', 501], ['envelope', 200], [undefined, 404]] as const) {
    const { out, done, stop } = await start({ json: true, capabilities: 'seed', ...(form ? { missingRoute: form } : {}) });
    const { url } = JSON.parse(out.stdout[0]!);
    const res = await request(`${url}/TotalControl/v1/devices/device@1116106541/screen/images?type=png&location=pc`);
    expect(res.statusCode, String(form)).toBe(status);
    expect(await res.body.json(), String(form)).toMatchObject({ status: null, value: expect.stringContaining('no such route') });
    stop();
    await done;
  }
});

test('--acts scripts --missing-route envelope: screen/inputs answers the failure envelope, the JS bridge acts', async () => {
  const { out, done, stop } = await start({ json: true, acts: 'scripts', missingRoute: 'envelope' });
  const { url } = JSON.parse(out.stdout[0]!);
  const login = await request(`${url}/TotalControl/v1/login`, { headers: { authorization: 'c2lnbWE6M0QzOTE0OTc=' } });
  const { value } = (await login.body.json()) as { value: { token: string } };
  const act = (path: string) => request(`${url}/TotalControl/v1/devices/device@1116106541/${path}&token=${value.token}`, { method: 'POST' }).then((r) => r.body.json());
  expect(await act('screen/inputs?x=1&y=1')).toEqual({ status: null, value: 'no such route: POST /TotalControl/v1/devices/device@1116106541/screen/inputs' });
  expect(await act('scripts?cmd=click&param=[1,1]')).toEqual({ status: true, value: '0' });
  stop();
  await done;
});

test('--verbose logs requests on stderr with the token redacted', async () => {
  const { out, done, stop } = await start({ json: true, verbose: true });
  const { url } = JSON.parse(out.stdout[0]!);
  const token = (await (await request(`${url}/TotalControl/v1/login`, { headers: { authorization: VENDOR_AUTH } })).body.json() as { value: { token: string } }).value.token;
  await (await request(`${url}/TotalControl/v1/devices/main?token=${token}`)).body.dump();
  await expect.poll(() => out.stderr.some((l) => l.startsWith('sim GET /TotalControl/v1/devices/main?token=*** 200'))).toBe(true);
  expect(out.stderr.join('\n')).not.toContain(token);
  stop();
  await done;
});

for (const [what, args, message] of [
  ['a port out of range', { port: '70000' }, /invalid --port "70000"/],
  ['a token lifetime that is not a number', { 'token-lifetime': 'soon' }, /invalid --token-lifetime "soon"/],
  ['a scenario file that is not there', { scenario: '/nonexistent/lab.json' }, /scenario \/nonexistent\/lab.json does not exist/],
  ['a bad API root', { apiRoot: 'no slash' }, /invalid API root/],
] as const) {
  test(`${what} is refused before anything listens`, async () => {
    await expect(runSim({ ...ARGS, ...args }, capture(), new AbortController().signal, {})).rejects.toThrow(message);
  });
}

test('a port in use is refused with a way out', async () => {
  const first = await start({ json: true });
  const { port } = JSON.parse(first.out.stdout[0]!);
  await expect(runSim({ ...ARGS, port: String(port) }, capture(), new AbortController().signal, {})).rejects.toThrow(/port \d+ on 127.0.0.1 is in use; try: --port 0/);
  first.stop();
  await first.done;
});

test('an abort before the start still closes cleanly', async () => {
  const controller = new AbortController();
  controller.abort();
  const out = capture();
  await runSim(ARGS, out, controller.signal, {});
  const url = /on (http:\S+)/.exec(out.stdout[0]!)![1]!;
  expect(await stopped(url)).toBe(true);
});

test('--help names its flags; in a process of its own it serves until SIGINT, exit 0, the password of PHONEWRIGHT_PASSWORD never printed', async () => {
  const help = await run(['sim', '--help']);
  expect(help).toMatchObject({ code: 0, stderr: '' });
  expect(help.stdout).toMatch(/^phonewright sim\b/);
  for (const flag of ['--port', '--scenario', '--lab', '--clock-offset', '--token-failure']) expect(help.stdout).toContain(flag);

  const auth = Buffer.from('qa:hunter2-lab').toString('base64');
  const live = launchSpawned(['sim', '--port', '0', '--user', 'qa'], { env: { PHONEWRIGHT_PASSWORD: 'hunter2-lab' } });
  await live.waitFor('stderr', /Serving until Ctrl-C/);
  // stdout is a pipe of its own: the URL may arrive after stderr's line.
  const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(await live.waitFor('stdout', /on http:\/\/127\.0\.0\.1:\d+/))![1]!;
  const login = await request(`${url}/TotalControl/v1/login`, { headers: { authorization: auth } });
  expect(await login.body.json()).toMatchObject({ status: true });
  live.interrupt();
  const r = await live.exited;
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('password:  (as given in PHONEWRIGHT_PASSWORD)');
  expect(r.stderr).toBe('Serving until Ctrl-C.\nphonewright sim: stopped\n');
  for (const secret of ['hunter2-lab', auth]) expect(r.stdout + r.stderr).not.toContain(secret);
  expect(await stopped(url)).toBe(true);
});

test.describe('the command module', () => {
  const parse = async (argv: string[]) => {
    const out = capture();
    const parser = yargs(argv).options(GLOBAL_OPTIONS).env(false).strict().exitProcess(false).fail((msg, err) => {
      throw err ?? new Error(msg);
    });
    await parser.command(simCommand(out)).parseAsync();
    return out;
  };

  test('--print-scenario prints the built-in scenario as JSON and returns', async () => {
    const out = await parse(['sim', '--print-scenario']);
    expect(JSON.parse(out.stdout.join('\n'))).toMatchObject({ main: 'device@1116106541', phones: expect.any(Array) });
  });

  test('--lab and --time-unit are parsed; --time-unit takes only ms or s; --no-lab is false', async () => {
    await expect(parse(['sim', '--time-unit', 'us', '--print-scenario'])).rejects.toThrow(/Invalid values:[\s\S]*time-unit/);
    const seen: SimArgs[] = [];
    const y = yargs(['sim', '--no-lab', '--clock-offset', 'a=1', '--clock-offset', 'b=-2']).options(GLOBAL_OPTIONS).env(false).strict().exitProcess(false);
    await y.command({ ...simCommand(capture()), handler: (args) => void seen.push(args) }).parseAsync();
    expect(seen[0]).toMatchObject({ lab: false, clockOffset: ['a=1', 'b=-2'] });
  });

  test('the help has an example of --lab', async () => {
    const y = yargs(['sim', '--help']).options(GLOBAL_OPTIONS).env(false).exitProcess(false).wrap(null);
    const help = await new Promise<string>((resolve) => void y.command(simCommand(capture())).parse(['sim', '--help'], {}, (_err, _argv, output) => resolve(output)));
    expect(help).toContain('--lab');
    expect(help).toContain('--clock-offset');
    expect(help).toMatch(/sim --lab --time-unit s\s+a server that behaves like a phone lab/);
    expect(help).toContain('--lab: a pixel read waits for a 3-7 ms frame grab, one at a time per phone');
  });

  test('--missing-route takes only 404, 405, 501 or envelope', async () => {
    await expect(parse(['sim', '--missing-route', '502', '--print-scenario'])).rejects.toThrow(/Invalid values:[\s\S]*missing-route/);
  });

  test('a behaviour flag takes only its choices', async () => {
    await expect(parse(['sim', '--match', 'regex', '--print-scenario'])).rejects.toThrow(/Invalid values:[\s\S]*match/);
  });

  test('has one flag per switchable behaviour', () => {
    const mod = simCommand(capture());
    const y = yargs([]);
    (mod.builder as (y: unknown) => unknown)(y);
    const keys = Object.keys((y as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
    for (const flag of ['login-failure', 'token-failure', 'token-lifetime', 'token-calls', 'notification-order', 'position-indexes', 'match', 'position-past-end', 'messages-held', 'file-url', 'hw-decode', 'resolution', 'time-unit', 'lab', 'clock-offset', 'port', 'host', 'scenario', 'storage', 'allow-absolute-uploads', 'max-upload-bytes', 'admin-key', 'capabilities', 'acts', 'missing-route']) {
      expect(keys, flag).toContain(flag);
    }
  });
});
