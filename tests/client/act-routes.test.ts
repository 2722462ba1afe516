// Acts on the routes a server has: `screen/inputs` and `screen/texts` in the form the vendor's public clients
// send (a form body holding the token and the arguments), or the JS bridge on a server without them, decided by
// the first act; neither fails with one line naming both. An act is never sent twice, and a refusal of an
// act's own arguments never passes for a missing route.
import { Deadline } from '../../src/client/deadline.js';
import { formOf, VENDOR_MAIN_DEVICE as PHONE, type FakeRequest, type FakeServer } from '../helpers/fake-server.js';
import { MISSING_FORMS, noActRoute } from '../helpers/missing-routes.js';
import type { DeviceClient } from '../../src/client/client.js';
import { expect, failure, test } from './harness.js';

const DONE = { json: { status: true } };
const BRIDGE_DONE = { body: '{"status": true, "value": "0"}' };

/** The fields of each request to `op`, the token left out, as `name=value&…` in the order sent. */
async function forms(server: FakeServer, op: 'inputs' | 'texts'): Promise<string[]> {
  const sent = server.requests.filter((r) => r.op === op);
  return Promise.all(sent.map(async (r) => [...(await formOf(r)).entries()].filter(([k]) => k !== 'token').map(([k, v]) => `${k}=${v}`).join('&')));
}

/** The bridge's queries, the token left out. */
function bridged(server: FakeServer): string[] {
  return server.requests.filter((r) => r.op === 'script').map((r) => r.rawQuery.replace(/^token=[^&]+&/, ''));
}

/** Every act the client has, once each, on the phone. */
async function everyAct(client: DeviceClient): Promise<string[]> {
  return [
    await client.tap(PHONE, 540, 1200),
    await client.press(PHONE, 'home'),
    await client.press(PHONE, 'recentapp'),
    await client.swipe(PHONE, { x: 540, y: 1500 }, { x: 540, y: 300 }, 400),
    await client.longPress(PHONE, { x: 100, y: 200 }, 1500),
    await client.type(PHONE, 'Zoë & co 100%'),
  ];
}

test('a server that acts through screen/inputs and screen/texts only: every act goes there, in the public clients\' form, once', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('inputs', DONE);
  server.handle('texts', DONE);
  const client = connect(server);
  expect(await everyAct(client)).toEqual(['inputs', 'inputs', 'inputs', 'inputs', 'inputs', 'texts']);
  expect(await forms(server, 'inputs')).toEqual([
    'x=540&y=1200&state=press',
    'code=home&state=press',
    'code=recentapp&state=press',
    'coord=[[540,1500,0],[540,300,400]]',
    'coord=[[100,200,0],[100,200,1500]]',
  ]);
  expect(await forms(server, 'texts')).toEqual(['text=Zoë & co 100%']);
  const first = server.requests.find((r) => r.op === 'inputs')!;
  expect([first.method, first.headers['content-type'], first.rawQuery], 'the token in the body, not the URL').toEqual(['POST', 'application/x-www-form-urlencoded', '']);
  expect((await formOf(first)).get('token')).toBe(server.tokens[0]);
  expect([server.count('script'), server.count('settings')], 'no bridge, no contrast read: the routes answered').toEqual([0, 0]);
});

for (const form of MISSING_FORMS) {
  test(`a server with the JS bridge only (screen/inputs answering ${form.name}): the first act learns it with one interface read, every act then goes to the bridge`, async ({ serve, connect }) => {
    const server = await serve();
    server.handle('inputs', form.reply);
    server.handle('texts', form.reply);
    server.handle('script', BRIDGE_DONE);
    const client = connect(server);
    expect(await everyAct(client)).toEqual(['script', 'script', 'script', 'script', 'script', 'script']);
    expect(bridged(server)).toEqual([
      'cmd=click&param=[540,1200]',
      'cmd=send&param=sigmaConst.KEY_HOME',
      'cmd=send&param=sigmaConst.KEY_RECENTAPP',
      'cmd=swipe&param=[[540,1500,0],[540,300,400]]',
      'cmd=swipe&param=[[100,200,0],[100,200,1500]]',
      'cmd=inputText&param=%22Zo%C3%AB%20%26%20co%20100%25%22',
    ]);
    // screen/texts is asked once more, for the clipboard: a read that any server with the route answers.
    expect([server.count('inputs'), server.count('texts'), server.count('settings')]).toEqual([1, 2, 2]);
    expect([client.extensions.known('inputs'), client.extensions.known('texts'), client.extensions.known('script')]).toEqual(['lacking', 'lacking', 'offered']);
  });
}

test('a server with neither: each act fails with one line naming both routes, each route asked once', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  for (const round of [1, 2]) {
    for (const [act, line] of [
      [() => client.tap(PHONE, 1, 1), noActRoute('taps', server.url)],
      [() => client.press(PHONE, 'back'), noActRoute('taps', server.url)],
      [() => client.swipe(PHONE, { x: 1, y: 9 }, { x: 1, y: 1 }, 300), noActRoute('taps', server.url)],
      [() => client.longPress(PHONE, { x: 1, y: 1 }, 900), noActRoute('taps', server.url)],
      [() => client.type(PHONE, 'hi'), noActRoute('text', server.url)],
    ] as const) {
      const error = await failure(act);
      expect(error.message, `round ${round}`).toBe(line);
      expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'not-offered' });
    }
  }
  expect([server.count('inputs'), server.count('texts'), server.count('script')]).toEqual([1, 2, 1]);
});

test('a key only the JS bridge names goes to the bridge, even where screen/inputs acts; without the bridge, the line names the keys that do', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('inputs', DONE);
  server.handle('script', BRIDGE_DONE);
  const client = connect(server);
  expect(await client.press(PHONE, 'KEY_VOLUME_UP')).toBe('script');
  expect(await client.press(PHONE, 'KEY_BACK'), 'a constant with a name goes where names go').toBe('inputs');
  expect(bridged(server)).toEqual(['cmd=send&param=sigmaConst.KEY_VOLUME_UP']);
  expect(await forms(server, 'inputs')).toEqual(['code=back&state=press']);

  const plain = await serve();
  plain.handle('inputs', DONE);
  const error = await failure(() => connect(plain).press(PHONE, 'KEY_VOLUME_UP'));
  expect(error.message).toBe(`this server does not offer the JS bridge, the only route that takes KEY_VOLUME_UP (a route beyond the device-control interface): ${plain.url}; try: press one of home, back, menu, space, backspace, enter, up, down, left, right, power, recentapp, which go through screen/inputs`);
});

test('an act is never sent twice: a dropped connection, a phone gone, or a failure of a route that has answered', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('script', BRIDGE_DONE);
  const client = connect(server);
  server.handle('inputs', 'reset');
  expect(await failure(() => client.tap(PHONE, 1, 1))).toMatchObject({ code: 'PW_UNREACHABLE' });
  // The server may have acted before the connection dropped: nothing decided, nothing sent elsewhere.
  expect([server.count('inputs'), server.count('script'), client.extensions.known('inputs')]).toEqual([1, 0, undefined]);

  server.handle('inputs', { status: 404, body: 'no' });
  server.handle('settings', { json: { status: null, value: 'device offline' } });
  expect(await failure(() => client.tap(PHONE, 1, 1))).toMatchObject({ reason: 'phone-missing' });
  expect([server.count('script'), client.extensions.known('inputs')], 'a phone gone decides nothing').toEqual([0, undefined]);

  server.handle('settings', undefined);
  server.handle('inputs', DONE);
  await client.tap(PHONE, 1, 1);
  server.handle('inputs', { json: { status: null, value: 'device busy' } });
  const busy = await failure(() => client.tap(PHONE, 2, 2));
  expect(busy).toMatchObject({ code: 'PW_SERVICE', reason: 'failed', serverMessage: 'device busy' });
  expect([server.count('script'), client.extensions.known('inputs')], 'a route that answered stays offered').toEqual([0, 'offered']);
});

test('a refusal of an act whose point is off the phone\'s screen is the point\'s fault, not a missing route', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('inputs', { json: { status: null, value: 'bad point' } });
  server.handle('script', BRIDGE_DONE);
  const client = connect(server);
  // The fake phone's settings say 1080*1920: (1500, 1500) fits neither way up.
  const off = await failure(() => client.tap(PHONE, 1500, 1500));
  expect(off).toMatchObject({ code: 'PW_USAGE' });
  expect(off.message).toBe(`(1500, 1500) is off the 1080×1920 screen of ${PHONE} (either way up): nothing was sent; try: x from 0 to 1919, y from 0 to 1919, within the screen as it is turned now`);
  expect([client.extensions.known('inputs'), server.count('script')]).toEqual([undefined, 0]);
  // Now the screen is known: a point off it is refused before anything is sent.
  expect(await failure(() => client.swipe(PHONE, { x: 1, y: 1 }, { x: 2000, y: 1 }, 300))).toMatchObject({ code: 'PW_USAGE' });
  expect(server.count('inputs')).toBe(1);
});

test('a refusal of text or of an app on a server that has the route: the server\'s message, nothing decided', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('texts', (req: FakeRequest) => (req.method === 'GET' ? { json: { status: true, value: '' } } : { json: { status: null, value: 'no field in focus' } }));
  server.handle('apps', { json: { status: true, value: 'com.android.launcher' } });
  server.handle('app', { json: { status: null, value: 'app not installed' } });
  const client = connect(server);
  expect(await failure(() => client.type(PHONE, 'hello'))).toMatchObject({ reason: 'failed', serverMessage: 'no field in focus' });
  expect(await failure(() => client.setAppState(PHONE, 'com.example.chat', 'active'))).toMatchObject({ reason: 'failed', serverMessage: 'app not installed' });
  expect([client.extensions.known('texts'), client.extensions.known('appState'), server.count('script'), server.count('settings')]).toEqual(['offered', 'offered', 0, 0]);
});

test('acts refuse bad input before any request, saying what to write', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  expect((await failure(() => client.press(PHONE, 'escape'))).message).toBe('invalid key "escape": expected home, back, menu, space, backspace, enter, up, down, left, right, power, recentapp, or a constant of the vendor\'s scripting library such as KEY_VOLUME_UP');
  expect((await failure(() => client.tap(PHONE, -1, 5))).message).toMatch(/^invalid x/);
  expect(server.count()).toBe(0);
});

test('the first act\'s contrast read shares the act\'s deadline: a server that hangs on it ends the act in time, undecided', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('settings', 'hang');
  const client = connect(server);
  expect(await failure(() => client.tap(PHONE, 1, 1, { deadline: Deadline.in(300) }))).toMatchObject({ code: 'PW_TIMEOUT' });
  expect([server.count('inputs'), server.count('script'), client.extensions.known('inputs')]).toEqual([1, 0, undefined]);
});
