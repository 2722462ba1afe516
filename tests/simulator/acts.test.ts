// Acts through screen/inputs and screen/texts beyond the clients' forms: a finger left down, the clipboard,
// where parameters come from and which wins, bodies too large, refusals that name what is wrong, the acts
// option and the missing-route forms, paths that are no route, the sibling API roots.
import { startSimulator, type ScenarioInput } from '../../src/simulator/index.js';
import { LAUNCHER } from '../../src/simulator/phone.js';
import { MAIN, admin, authed, call, expect, login, test } from './harness.js';
import { rawRequest } from './wire.js';

const PIXEL_7 = 'device@1174886816';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

test('a finger put down stays down until an up, a tap, a whole gesture or a reset; the handle and the admin API show it', async ({ sim }) => {
  const token = await login(sim);
  const touch = (body: string) => authed(sim, token, `/devices/${MAIN}/screen/inputs`, { method: 'POST', headers: FORM, body });
  const finger = (id = MAIN) => sim.phones.find((p) => p.id === id)!.finger;
  expect(finger()).toBeNull();
  // A move with no finger down is recorded and puts none down.
  expect((await touch('x=5&y=5&state=move')).json).toEqual({ status: true });
  expect(finger()).toBeNull();
  await touch('x=100&y=200&state=down');
  expect(finger()).toEqual({ x: 100, y: 200 });
  expect((await admin(sim, 'GET', 'state')).json).toMatchObject({ phones: expect.arrayContaining([expect.objectContaining({ id: MAIN, finger: { x: 100, y: 200 } })]) });
  expect(finger(PIXEL_7)).toBeNull();
  await touch('x=150&y=250&state=move');
  expect(finger()).toEqual({ x: 150, y: 250 });
  await touch('x=150&y=300&state=up');
  expect(finger()).toBeNull();
  for (const lifting of ['x=7&y=8', 'x=7&y=8&state=press', 'coord=[[1,1],[2,2]]', 'direction=left']) {
    await touch('x=100&y=200&state=down');
    await touch(lifting);
    expect(finger(), lifting).toBeNull();
  }
  // A key leaves the finger where it is.
  await touch('x=100&y=200&state=down');
  await touch('code=back');
  expect(finger()).toEqual({ x: 100, y: 200 });
  expect(sim.acts().map((a) => a.kind)).toEqual(['touch-move', 'touch-down', 'touch-move', 'touch-up', 'touch-down', 'tap', 'touch-down', 'tap', 'touch-down', 'swipe', 'touch-down', 'directional-swipe', 'touch-down', 'key']);
  sim.reset();
  expect(finger()).toBeNull();
});

test('the clipboard: empty at the start, per phone, set by the handle or the admin API, emptied by a reset', async ({ sim }) => {
  let token = await login(sim);
  const clipboard = async (id: string) => (await authed(sim, token, `/devices/${id}/screen/texts?type=clipboard_text`)).json;
  expect(await clipboard(MAIN)).toEqual({ status: true, value: '' });
  sim.setClipboard(MAIN, 'Your code is 123456');
  expect((await admin(sim, 'PUT', `phones/${PIXEL_7}/clipboard`, { text: 'ünïcode\nand lines' })).json).toEqual({ ok: true });
  expect(await clipboard(MAIN)).toEqual({ status: true, value: 'Your code is 123456' });
  expect(await clipboard(PIXEL_7)).toEqual({ status: true, value: 'ünïcode\nand lines' });
  // Typing is not copying.
  await authed(sim, token, `/devices/${MAIN}/screen/texts?text=typed`, { method: 'POST' });
  expect(await clipboard(MAIN)).toEqual({ status: true, value: 'Your code is 123456' });
  expect((await admin(sim, 'PUT', `phones/${MAIN}/clipboard`, { text: 5 })).json).toEqual({ ok: false, error: 'clipboard.text must be the text to put on the clipboard (a string)' });
  expect(() => sim.setClipboard('device@9', 'x')).toThrow(/no phone "device@9" in this simulator/);
  sim.reset();
  token = await login(sim);
  expect(await clipboard(MAIN)).toEqual({ status: true, value: '' });
  sim.setOnline(MAIN, false);
  expect(await clipboard(MAIN)).toEqual({ status: null, value: 'device not found' });
});

test('parameters: the query wins over the body; a body is JSON by its first character, whatever its Content-Type says', async ({ sim }) => {
  const token = await login(sim);
  const inputs = (query: string, body: string, headers: Record<string, string> = {}) => authed(sim, token, `/devices/${MAIN}/screen/inputs${query}`, { method: 'POST', headers, body });
  expect((await inputs('?x=10&y=11', 'x=20&y=21&state=down', FORM)).json).toEqual({ status: true });
  expect((await inputs('', '  {"x": 30, "y": 31, "state": null}\n', FORM)).json).toEqual({ status: true });
  expect((await inputs('', 'x=40&y=41', { 'content-type': 'application/json' })).json).toEqual({ status: true });
  expect((await inputs('', '{"coord": [[1,2,3],[4,5,6]]}', { 'content-type': 'text/plain' })).json).toEqual({ status: true });
  expect(sim.acts().map(({ at: _, device: __, ...act }) => act)).toEqual([
    { via: 'inputs', kind: 'touch-down', x: 10, y: 11 },
    { via: 'inputs', kind: 'tap', x: 30, y: 31 },
    { via: 'inputs', kind: 'tap', x: 40, y: 41 },
    { via: 'inputs', kind: 'swipe', from: { x: 1, y: 2 }, to: { x: 4, y: 5 }, durationMs: 9 },
  ]);
  // The token may come in the body too, and the query's still wins.
  expect((await authed(sim, 'AAAAAAAAAAAAAAAA', `/devices/${MAIN}/screen/inputs`, { method: 'POST', body: JSON.stringify({ code: 'home', token }) })).json).toEqual({ status: null, value: 'invalid token' });
});

test('an act body past 64 KiB, sent in chunks with no length: the failure envelope, the connection closed, nothing done', async ({ sim }) => {
  const token = await login(sim);
  const body = `text=${'a'.repeat(70 * 1024)}`;
  const answer = await rawRequest(sim.port, { method: 'POST', target: `${sim.apiRoot}/devices/${MAIN}/screen/texts?token=${token}`, body, chunked: true, keepAlive: true });
  expect([answer.status, answer.json, answer.closed]).toEqual([200, { status: null, value: "the body is larger than 65536 bytes: an act's arguments are a few short fields" }, true]);
  expect(sim.acts()).toEqual([]);
  const fits = await rawRequest(sim.port, { method: 'POST', target: `${sim.apiRoot}/devices/${MAIN}/screen/texts?token=${token}`, body: `text=${'a'.repeat(60 * 1024)}`, chunked: true, keepAlive: true });
  expect([fits.json, fits.closed]).toEqual([{ status: true }, false]);
  expect(sim.acts()).toEqual([expect.objectContaining({ kind: 'text', via: 'texts' })]);
});

const REFUSALS: [string, string, string, RegExp | string][] = [
  ['a tap off the screen', 'screen/inputs', 'x=1080&y=5', '(1080, 5) is not on the screen (1080×1920): x from 0 to 1079, y from 0 to 1919'],
  ['a path point off the screen', 'screen/inputs', 'coord=[[1,1,0],[5,1920,10]]', 'coord: (5, 1920) is not on the screen (1080×1920): x from 0 to 1079, y from 0 to 1919'],
  ['a path of one point', 'screen/inputs', 'coord=[[1,1,0]]', /^coord takes \[\[x,y,ms\],\[x,y,ms\],…\] \(the ms may be left out: \[\[x,y\],\[x,y\],…\]\) with two to 100 points; got "\[\[1,1,0\]\]"$/],
  ['a tap not in whole pixels', 'screen/inputs', 'x=1.5&y=2', 'a touch takes x and y, whole pixels on the screen (1080×1920); got x "1.5", y "2"'],
  ['a tap with x only', 'screen/inputs', 'x=1', 'a touch takes x and y, whole pixels on the screen (1080×1920); got x "1", y null'],
  ['a touch state unknown', 'screen/inputs', 'x=1&y=1&state=hover', 'state "hover" of a touch is not press, down, move or up'],
  ['a key moved', 'screen/inputs', 'code=home&state=move', 'state "move" of a key is not press, down or up'],
  ['a key unknown', 'screen/inputs', 'code=KEY_BACK', 'code "KEY_BACK" is not a key this simulator knows: home, back, menu, space, backspace, enter, up, down, left, right, power, recentapp'],
  ['two acts at once', 'screen/inputs', 'code=home&x=1&y=1', /got code and x\/y together$/],
  ['no act', 'screen/inputs', 'state=press', /^screen\/inputs takes one act: x and y .+; got none of them$/],
  ['a direction unknown', 'screen/inputs', 'direction=north', 'direction "north" is not up, down, left or right'],
  ['texts without an argument', 'screen/texts', 'lang=eng', 'screen/texts takes text (to type it), type=clipboard_text (to read the clipboard) or rect (to read text on the screen)'],
  ['texts of another type', 'screen/texts', 'type=html', 'type "html" is not clipboard_text (the clipboard\'s text)'],
];

test('refusals name what is wrong, in the failure envelope, and record nothing', async ({ sim }) => {
  const token = await login(sim);
  for (const [what, route, body, said] of REFUSALS) {
    const answer = await authed(sim, token, `/devices/${MAIN}/${route}`, { method: 'POST', headers: FORM, body });
    expect(answer.json, what).toEqual({ status: null, value: typeof said === 'string' ? said : expect.stringMatching(said) });
  }
  const get = async (path: string) => (await authed(sim, token, path)).json;
  expect(await get(`/devices/${MAIN}/apps?q=running`)).toEqual({ status: null, value: 'q "running" is not foreground_app (the app in front) or installed_apk_list (the installed packages)' });
  expect(await get('/devices?q=model')).toEqual({ status: null, value: 'q "model" is not all, name (a phone by its name) or group (a group\'s phones)' });
  expect(await get('/devices?q=group')).toEqual({ status: null, value: 'q=group needs name=<the group\'s name>' });
  expect(sim.acts()).toEqual([]);
  // An act on a phone that is not there is the interface's "device not found".
  expect((await authed(sim, token, '/devices/device@5/screen/inputs?x=1&y=1', { method: 'POST' })).json).toEqual({ status: null, value: 'device not found' });
});

test('a path that is no route answers 404 "no such route", never "device not found"', async ({ sim }) => {
  const token = await login(sim);
  const paths: [string, string][] = [
    ['GET', '/devices/screen/foo'],
    ['GET', '/devices/device@1/screen/unknown'],
    ['POST', `/devices/${MAIN}/screen/unknown`],
    ['GET', `/devices/${MAIN}/screen/inputs`],
    ['POST', `/devices/${MAIN}/apps`],
    ['GET', `/devices/${MAIN}/apps/com.example.chat`],
    ['POST', '/devices/screen/texts'],
  ];
  for (const [method, path] of paths) {
    const answer = await authed(sim, token, path, { method });
    expect([answer.status, answer.json], `${method} ${path}`).toEqual([404, { status: null, value: `no such route: ${method} ${sim.apiRoot}${path}` }]);
  }
  expect(sim.stats().notFound).toBe(paths.length);
});

for (const acts of ['inputs', 'scripts', 'both'] as const) {
  test.describe(`acts: "${acts}"`, () => {
    test.use({ simOptions: { acts, missingRoutes: 'envelope' } });
    test('offers its act routes; the others answer in the missing-route form', async ({ sim }) => {
      const token = await login(sim);
      const post = (path: string) => authed(sim, token, `/devices/${MAIN}/${path}`, { method: 'POST' });
      const answers = { inputs: await post('screen/inputs?x=1&y=1'), texts: await post('screen/texts?text=hi'), scripts: await post('scripts?cmd=click&param=[1,1]') };
      const offered = { inputs: acts !== 'scripts', texts: acts !== 'scripts', scripts: acts !== 'inputs' };
      for (const [route, answer] of Object.entries(answers)) {
        const on = offered[route as keyof typeof offered];
        expect(answer.status, route).toBe(200);
        expect(answer.json, route).toEqual(on ? { status: true, ...(route === 'scripts' ? { value: '0' } : {}) } : { status: null, value: expect.stringMatching(/^no such route: POST /) });
      }
      expect(sim.acts().map((a) => a.via)).toEqual([...(offered.inputs ? ['inputs', 'texts'] : []), ...(offered.scripts ? ['script'] : [])]);
      // Apps are not acts: offered whichever way acts come.
      expect((await authed(sim, token, `/devices/${MAIN}/apps?q=foreground_app`)).json).toEqual({ status: true, value: LAUNCHER });
    });
  });
}

test('acts takes only inputs, scripts or both', async () => {
  await expect(startSimulator({ port: 0, acts: 'bridge' as never })).rejects.toThrow('invalid acts "bridge": expected "inputs" (screen/inputs and screen/texts), "scripts" (the JS bridge) or "both"');
});

for (const form of [404, 405, 501, 'envelope'] as const) {
  test.describe(`capabilities "seed", missing routes answering ${form}`, () => {
    test.use({ simOptions: { capabilities: 'seed', missingRoutes: form } });
    test('screen/inputs, screen/texts, the app list and sendAai answer in that form; a path that is no route stays 404', async ({ sim }) => {
      const token = await login(sim);
      const sent = [
        await authed(sim, token, `/devices/${MAIN}/screen/inputs?x=1&y=1`, { method: 'POST' }),
        await authed(sim, token, `/devices/${MAIN}/screen/texts?type=clipboard_text`),
        await authed(sim, token, `/devices/${MAIN}/apps?q=foreground_app`),
        await authed(sim, token, `/devices/${MAIN}/sendAai`, { method: 'POST', headers: FORM, body: 'params={query:"T:OK"}' }),
        await call(sim, `//TotalControl/v2/devices/${MAIN}/screen/inputs?x=1&y=1&token=${token}`, { method: 'POST' }),
      ];
      for (const answer of sent) {
        expect(answer.status).toBe(form === 'envelope' ? 200 : form);
        expect(answer.json).toEqual({ status: null, value: expect.stringMatching(/^no such route: (GET|POST) \/TotalControl\/v[12]\/devices\/device@1116106541\/(screen\/inputs|screen\/texts|apps|sendAai)$/) });
      }
      expect(sim.acts()).toEqual([]);
      expect(sim.stats()).toMatchObject({ notFound: 5, operations: { inputs: 0, texts: 0, apps: 0 } });
      expect((await authed(sim, token, `/devices/${MAIN}/screen/nothing`)).status).toBe(404);
    });
  });
}

test.describe('API roots', () => {
  for (const [apiRoot, served, notServed] of [
    ['/TotalControl/v2', ['/TotalControl/v2', '/TotalControl/v1'], '/TotalControl/v3'],
    ['/Service/v3', ['/Service/v3', '/Service/v1', '/Service/v2'], '/Service/v4'],
    ['/Service', ['/Service'], '/Service/v1'],
  ] as const) {
    test(`${apiRoot} serves ${served.join(', ')} with one token, and not ${notServed}`, async () => {
      const sim = await startSimulator({ port: 0, apiRoot });
      try {
        expect(sim.apiRoots).toEqual(served);
        const token = await login(sim);
        for (const root of served) expect((await call(sim, `/${root}/devices/main?token=${token}`)).json, root).toEqual({ id: MAIN });
        expect((await call(sim, `/${notServed}/devices/main?token=${token}`)).status).toBe(404);
        // The URLs handed out name the primary root.
        expect(sim.apiRoot).toBe(apiRoot);
      } finally {
        await sim.close();
      }
    });
  }
});

const LAB: ScenarioInput = {
  phones: [
    { id: 'device@1', name: 'a', group: 'lab-a', apps: ['com.example.chat', 'com.example.shop'], screen: { width: 10, height: 10 } },
    { id: 'device@2', name: 'b', group: 'lab-a', screen: { width: 10, height: 10 } },
    { id: 'device@3', name: 'c', screen: { width: 10, height: 10 } },
  ],
};

test.describe('a scenario\'s groups and installed apps', () => {
  test.use({ simOptions: { scenario: LAB } });
  test('the device list filters by them; a started app joins the list until a reset', async ({ sim }) => {
    let token = await login(sim);
    const get = async (path: string) => (await authed(sim, token, path)).json;
    expect(await get('/devices?q=group&name=lab-a')).toEqual({ ids: ['device@1', 'device@2'] });
    expect(await get('/devices?q=group&name=default')).toEqual({ ids: ['device@3'] });
    sim.setOnline('device@2', false);
    expect(await get('/devices?q=group&name=lab-a')).toEqual({ ids: ['device@1'] });
    expect(await get('/devices?q=name&name=b')).toEqual({ ids: [] });
    expect(await get('/devices/device@1/apps?q=installed_apk_list')).toEqual({ status: true, value: ['com.example.chat', 'com.example.shop'] });
    await authed(sim, token, '/devices/device@1/apps/org.example.new?state=active', { method: 'POST' });
    expect(await get('/devices/device@1/apps?q=installed_apk_list')).toEqual({ status: true, value: ['com.example.chat', 'com.example.shop', 'org.example.new'] });
    expect(await get('/devices/device@1/apps?q=foreground_app')).toEqual({ status: true, value: 'org.example.new' });
    sim.reset();
    token = await login(sim);
    expect(await get('/devices/device@1/apps?q=installed_apk_list')).toEqual({ status: true, value: ['com.example.chat', 'com.example.shop'] });
    expect(await get('/devices/device@1/apps?q=foreground_app')).toEqual({ status: true, value: LAUNCHER });
  });

  test('a bad group or app list is refused with what to write', async () => {
    const phone = (extra: object) => ({ phones: [{ id: 'device@1', screen: { width: 1, height: 1 }, ...extra }] });
    await expect(startSimulator({ port: 0, scenario: phone({ group: 'a b' }) })).rejects.toThrow('scenario: phones[0].group is "a b"; write a group name of letters, digits, ".", "_" or "-", e.g. "lab-a"');
    await expect(startSimulator({ port: 0, scenario: phone({ apps: ['com.example/../x'] }) })).rejects.toThrow(/^scenario: phones\[0\]\.apps is \["com\.example\/\.\.\/x"\]; write a list of up to 1000 package names/);
  });
});
