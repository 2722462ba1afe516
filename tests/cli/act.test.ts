// `tap`, `swipe`, `long-press`, `type`, `press`, `launch` and `close-app`: acts on a phone through the vendor's routes beyond the interface,
// {"ok": true} with --json; a server of the interface only refuses each with one line, exit 1, whichever
// form its lacking routes answer in (HTTP 404, 405, 501, the failure envelope); bad input exits 2 before
// anything is sent.
import { formOf, type FakeRequest } from '../helpers/fake-server.js';
import { lacking, MISSING_FORMS, noActRoute, notOffered, seedSimFixture } from '../helpers/missing-routes.js';
import type { MissingRouteForm, SimulatorHandle } from '../../src/simulator/index.js';
import { errorLine, expect, on, PASSWORD, run, test as base, USER } from './helpers.js';

const test = base.extend<{ seedSim: (form: MissingRouteForm) => Promise<SimulatorHandle> }>({ seedSim: seedSimFixture });

const PHONE = 'device@1116106541';
const ROOT = `/TotalControl/v1/devices/${PHONE}`;
/** Each act: its arguments; its request on a server with the JS bridge only; on one with screen/inputs and screen/texts (the form body, token left out); the line it prints. */
const ACTS: [string[], string, string, string][] = [
  [['tap', PHONE, '540', '1200'], `POST ${ROOT}/scripts?cmd=click&param=[540,1200]`, `POST ${ROOT}/screen/inputs x=540&y=1200&state=press`, `${PHONE}: tapped (540, 1200)`],
  [['swipe', PHONE, '540', '1500', '540', '300', '--duration', '400'], `POST ${ROOT}/scripts?cmd=swipe&param=[[540,1500,0],[540,300,400]]`, `POST ${ROOT}/screen/inputs coord=[[540,1500,0],[540,300,400]]`, `${PHONE}: swiped (540, 1500) to (540, 300) in 400 ms`],
  [['long-press', PHONE, '100', '200'], `POST ${ROOT}/scripts?cmd=swipe&param=[[100,200,0],[100,200,1000]]`, `POST ${ROOT}/screen/inputs coord=[[100,200,0],[100,200,1000]]`, `${PHONE}: long-pressed (100, 200) for 1000 ms`],
  [['type', PHONE, 'héllo "you" & me'], `POST ${ROOT}/scripts?cmd=inputText&param=%22h%C3%A9llo%20%5C%22you%5C%22%20%26%20me%22`, `POST ${ROOT}/screen/texts text=héllo "you" & me`, `${PHONE}: typed 16 characters`],
  [['press', PHONE, 'back'], `POST ${ROOT}/scripts?cmd=send&param=sigmaConst.KEY_BACK`, `POST ${ROOT}/screen/inputs code=back&state=press`, `${PHONE}: pressed back`],
  [['press', PHONE, 'recentapp'], `POST ${ROOT}/scripts?cmd=send&param=sigmaConst.KEY_RECENTAPP`, `POST ${ROOT}/screen/inputs code=recentapp&state=press`, `${PHONE}: pressed recentapp`],
  [['launch', PHONE, 'com.example.chat'], `POST ${ROOT}/apps/com.example.chat?state=active`, `POST ${ROOT}/apps/com.example.chat?state=active`, `${PHONE}: launched com.example.chat`],
  [['close-app', PHONE, 'com.example.chat'], `POST ${ROOT}/apps/com.example.chat?state=inactive`, `POST ${ROOT}/apps/com.example.chat?state=inactive`, `${PHONE}: closed com.example.chat`],
];

/** How the request reads: method, path and query without the token, and a form body's fields without it. */
async function described(req: FakeRequest): Promise<string> {
  const query = req.rawQuery.replace(/^token=[^&]+&?/, '');
  const form = req.headers['content-type'] === 'application/x-www-form-urlencoded' ? [...(await formOf(req)).entries()].filter(([k]) => k !== 'token').map(([k, v]) => `${k}=${v}`).join('&') : '';
  return `${req.method} ${req.path}${query ? `?${query}` : ''}${form ? ` ${form}` : ''}`;
}

for (const [name, routes, column] of [['screen/inputs and screen/texts only', ['inputs', 'texts'], 2], ['the JS bridge only', ['script'], 1]] as const) {
  test(`a server with ${name}: each act reaches it in that form, once: {"ok": true} with --json, one line without`, async ({ serve }) => {
    const server = await serve();
    for (const op of routes) server.handle(op, { body: '{"status": true, "value": "0"}' });
    server.handle('app', (req) => ({ body: `{"status": true, "value": "make it ${req.query.get('state')}"}` }));
    for (const act of ACTS) {
      const [args, line] = [act[0], act[3]];
      const json = await run([...args, '--json', ...on(server)]);
      expect(json, args[0]).toMatchObject({ code: 0, stdout: '{"ok":true}\n', stderr: '' });
      expect(await described(server.requests.at(-1)!)).toBe(act[column]);
      expect((await run([...args, ...on(server)])).stdout).toBe(`${line}\n`);
    }
    // Each CLI run is a client of its own: on a bridge-only server each act first tries screen/inputs or screen/texts, which do not act.
    const acted = [...routes, 'app' as const].map((op) => server.requests.filter((r) => r.op === op && r.method === 'POST').length);
    expect(acted.reduce((a, b) => a + b), 'each act done once').toBe(2 * ACTS.length);
  });
}

test('launch on the embedded simulator: {"ok": true}', async ({ tmp }) => {
  const r = await run(['launch', 'main', 'com.example.chat', '--json'], { cwd: tmp });
  expect(r).toMatchObject({ code: 0, stdout: '{"ok":true}\n' });
});

for (const form of MISSING_FORMS) {
  test(`a server whose acts answer ${form.name}: one line naming what it lacks, exit 1, nothing on stdout`, async ({ serve }) => {
    const server = await serve();
    lacking(server, form.reply);
    for (const [args] of ACTS) {
      const r = await run([...args, '--json', ...on(server)]);
      expect(r.code, args[0]).toBe(1);
      expect(r.stdout).toBe('');
      const line = args[0] === 'launch' || args[0] === 'close-app' ? notOffered('starting and closing apps', server.url) : noActRoute(args[0] === 'type' ? 'text' : 'taps', server.url);
      expect(errorLine(r)).toBe(`phonewright: ${line}`);
    }
  });

  test(`the simulator under seed, its routes answering ${form.name}: tap and launch say what it lacks; on an unplugged phone, that the phone is missing`, async ({ seedSim }) => {
    const sim = await seedSim(form.sim);
    const flags = ['--url', sim.url, '--user', USER, '--password', PASSWORD];
    const [tap, launch] = ['tap', 'launch'].map((name) => ACTS.find(([args]) => args[0] === name)![0]) as [string[], string[]];
    sim.setOnline(PHONE, false);
    const unplugged = await run([...tap, ...flags]);
    expect(unplugged.code).toBe(1);
    // A tap first reads the phone's screen size, to check its point: that read is what finds the phone missing.
    expect(errorLine(unplugged)).toBe(`phonewright: device-info failed for ${PHONE}: the phone is unknown to the server or offline (its settings read said "device not found"); try: check the id (phonewright main-device) and that the phone is connected`);
    sim.setOnline(PHONE, true);
    for (const [args, line] of [[tap, noActRoute('taps', sim.url)], [launch, notOffered('starting and closing apps', sim.url)]] as const) {
      const r = await run([...args, ...flags]);
      expect([r.code, r.stdout], args[0]).toEqual([1, '']);
      expect(errorLine(r)).toBe(`phonewright: ${line}`);
    }
    expect(sim.acts()).toEqual([]);
  });
}

test('bad input: exit 2 with what to write, before any request', async ({ serve }) => {
  const server = await serve();
  const cases: [string[], string][] = [
    [['tap', PHONE, '540', 'top'], 'phonewright: invalid y coordinate "top": expected a whole number of pixels from 0 to 100000 or a percentage of the screen'],
    [['swipe', PHONE, '1', '2', '3', '4', '--duration', '0'], 'phonewright: invalid duration "0": expected a whole number from 1 to 60000'],
    [['long-press', PHONE, '1', '2', '--duration', '1.5'], 'phonewright: invalid duration "1.5": expected a whole number from 1 to 60000'],
    [['swipe', PHONE, '1', '2', '3', '150%'], 'phonewright: invalid y coordinate "150%": a percentage of the screen goes from 0% to 100%'],
    [['type', PHONE, ''], 'phonewright: invalid text to type (0 characters): expected 1 to 1000 characters'],
    [['press', PHONE, 'escape'], 'phonewright: invalid key "escape": expected home, back, menu, space, backspace, enter, up, down, left, right, power, recentapp, or a constant of the vendor\'s scripting library such as KEY_VOLUME_UP'],
    [['launch', PHONE, 'chat'], 'phonewright: invalid package name "chat": expected an Android package such as com.example.chat'],
    [['close-app', 'device@galaxy', 'com.example.chat'], 'phonewright: invalid device id "device@galaxy"'],
  ];
  for (const [args, says] of cases) {
    const r = await run([...args, ...on(server)]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(errorLine(r).startsWith(says), errorLine(r)).toBe(true);
  }
  expect(server.count()).toBe(0);
});

/** A phone of the size the user's trial had, and a second one, each known by name. */
const LAB = {
  phones: [
    { id: PHONE, name: 'galaxy-s9', screen: { width: 720, height: 1280, fill: '0x25425c' } },
    { id: 'device@-230441652', name: 'moto-g5', screen: { width: 1280, height: 720, fill: '0x101820' } },
  ],
};

test('a tap off the screen: exit 2 with the screen\'s size and the points allowed, and nothing sent', async ({ simulate }) => {
  const sim = await simulate({ scenario: LAB });
  const r = await run(['tap', PHONE, '5000', '5000', ...on(sim)]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toBe(`phonewright: (5000, 5000) is off the 720×1280 screen of ${PHONE}; try: x from 0 to 719, y from 0 to 1279`);
  // One coordinate off is enough; a phone given by name is named so.
  const edge = await run(['tap', 'galaxy-s9', '720', '0', ...on(sim)]);
  expect(errorLine(edge)).toBe(`phonewright: (720, 0) is off the 720×1280 screen of galaxy-s9 (${PHONE}); try: x from 0 to 719, y from 0 to 1279`);
  expect(sim.acts()).toEqual([]);
  // The last pixel of the screen is on it: the tap goes, once.
  expect(await run(['tap', PHONE, '719', '1279', ...on(sim)])).toMatchObject({ code: 0, stdout: `${PHONE}: tapped (719, 1279)\n` });
  expect(sim.acts()).toEqual([expect.objectContaining({ device: PHONE, kind: 'tap', x: 719, y: 1279 })]);
});

test('a swipe or long press with a point off the screen: exit 2, nothing sent; percentages resolve on the phone\'s screen', async ({ simulate }) => {
  const sim = await simulate({ scenario: LAB });
  const off = await run(['swipe', PHONE, '360', '640', '360', '1280', ...on(sim)]);
  expect([off.code, off.stdout]).toEqual([2, '']);
  expect(errorLine(off)).toBe(`phonewright: (360, 1280) is off the 720×1280 screen of ${PHONE}; try: x from 0 to 719, y from 0 to 1279`);
  expect((await run(['long-press', PHONE, '720', '5', ...on(sim)])).code).toBe(2);
  expect(sim.acts()).toEqual([]);
  const r = await run(['swipe', 'galaxy-s9', '50%', '75%', '50%', '25%', ...on(sim)]);
  expect(r).toMatchObject({ code: 0, stdout: `${PHONE}: swiped (50%, 75%) = (360, 960) on 720×1280 to (50%, 25%) = (360, 320) on 720×1280 in 300 ms\n` });
  expect(sim.acts().map(({ at: _, ...act }) => act)).toEqual([{ device: PHONE, via: 'inputs', kind: 'swipe', from: { x: 360, y: 960 }, to: { x: 360, y: 320 }, durationMs: 300 }]);
});

test('a tap on a phone given by name reaches that phone', async ({ simulate }) => {
  const sim = await simulate({ scenario: LAB });
  const r = await run(['tap', 'moto-g5', '1200', '700', '--json', ...on(sim)]);
  expect(r).toMatchObject({ code: 0, stdout: '{"ok":true}\n', stderr: '' });
  expect(sim.acts()).toEqual([expect.objectContaining({ device: 'device@-230441652', kind: 'tap', x: 1200, y: 700 })]);
});

test('a server without the device properties: the point is checked against the size its settings give, either way up', async ({ serve }) => {
  const server = await serve();
  server.handle('script', { body: '{"status": true, "value": "0"}' });
  // The properties' route answered 404 while the phone's settings read (1080*1920) answered: the server lacks it.
  const off = await run(['tap', PHONE, '5000', '5000', ...on(server)]);
  expect([off.code, off.stdout]).toEqual([2, '']);
  expect(errorLine(off)).toBe(`phonewright: (5000, 5000) is off the 1080×1920 screen of ${PHONE} (either way up): nothing was sent; try: x from 0 to 1919, y from 0 to 1919, within the screen as it is turned now`);
  expect(server.requests.map((q) => q.op)).toEqual(['login', 'deviceInfo', 'settings']);
  // (1500, 900) is on the screen turned sideways: the tap goes, to the bridge once screen/inputs is found missing.
  const r = await run(['tap', PHONE, '1500', '900', ...on(server)]);
  expect(r).toMatchObject({ code: 0, stdout: `${PHONE}: tapped (1500, 900)\n` });
  expect(server.requests.slice(3).map((q) => q.op)).toEqual(['login', 'deviceInfo', 'settings', 'inputs', 'settings', 'script']);
});
