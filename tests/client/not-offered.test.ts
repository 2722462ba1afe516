// A route beyond the interface that a server lacks, in each form servers answer one (HTTP 404, 405, 501, the
// failure envelope): the client tells it from a phone gone by one read of the interface about the same phone,
// made at once and within the call's deadline, remembers "not offered" for the server, and fails every call
// to it with one line. When that read fails too, its error is the call's, and nothing is remembered.
import { Deadline } from '../../src/client/deadline.js';
import { capturing } from '../helpers/vendor-capture.js';
import { inOrder, VENDOR_MAIN_DEVICE as PHONE } from '../helpers/fake-server.js';
import { lacking, MISSING_FORMS, notOffered } from '../helpers/missing-routes.js';
import { expect, failure, test } from './harness.js';
import type { DeviceClient } from '../../src/client/client.js';

const RECT = { x: 0, y: 0, width: 4, height: 4 };
const GONE = 'device@999';

/** Every call beyond the interface on `phone`, with the capability its line names. */
const CALLS: [string, string, (client: DeviceClient, phone: string) => Promise<unknown>][] = [
  ['devices', 'the device list', (c) => c.devices()],
  ['deviceInfo', 'device properties', (c, p) => c.deviceInfo(p)],
  ['capture', 'screen capture', (c, p) => c.capture(p, RECT)],
  ['tap', 'taps, gestures, keys and text (the JS bridge)', (c, p) => c.tap(p, 1, 1)],
  ['press', 'taps, gestures, keys and text (the JS bridge)', (c, p) => c.press(p, 'back')],
  ['swipe', 'taps, gestures, keys and text (the JS bridge)', (c, p) => c.swipe(p, { x: 1, y: 9 }, { x: 1, y: 1 }, 300)],
  ['longPress', 'taps, gestures, keys and text (the JS bridge)', (c, p) => c.longPress(p, { x: 1, y: 1 }, 1000)],
  ['type', 'taps, gestures, keys and text (the JS bridge)', (c, p) => c.type(p, 'hello')],
  ['launch', 'starting and closing apps', (c, p) => c.setAppState(p, 'com.example.chat', 'active')],
  ['close', 'starting and closing apps', (c, p) => c.setAppState(p, 'com.example.chat', 'inactive')],
];

/** Makes each call twice and checks that both fail with the one line, code and reason. */
async function expectEveryCallLacking(client: DeviceClient, phone: string, url: string): Promise<void> {
  for (const round of [1, 2]) {
    for (const [name, what, call] of CALLS) {
      const error = await failure(() => call(client, phone));
      expect(error.message, `${name}, call ${round}`).toBe(notOffered(what, url));
      expect(error, name).toMatchObject({ code: 'PW_SERVICE', reason: 'not-offered' });
    }
  }
}

for (const form of MISSING_FORMS) {
  test.describe(form.name, () => {
    test('fake server: each route is judged by one interface read, then remembered; nothing waits for the phone', async ({ serve, connect }) => {
      const server = await serve();
      lacking(server, form.reply);
      // The fixtures' wait for a phone that is away: a call that took the answer for a phone gone would ask again and again.
      const client = connect(server, { phoneReconnectMs: 10_000 });
      await expectEveryCallLacking(client, PHONE, server.url);
      expect(['devices', 'deviceInfo', 'capture', 'script', 'app'].map((op) => server.count(op as 'devices')), 'each route asked once').toEqual([1, 1, 1, 1, 1]);
      expect([server.count('settings'), server.count('mainDevice')], 'one read of the interface per capability').toEqual([4, 1]);
      expect(client.extensions.lacks('capture')).toBe(true);
    });

    test('fake server: a phone the server does not know is missing, not "not offered", and nothing is remembered', async ({ serve, connect }) => {
      const server = await serve();
      lacking(server, form.reply);
      const client = connect(server);
      const capture = await failure(() => client.capture(GONE, RECT));
      expect(capture).toMatchObject({ code: 'PW_SERVICE', reason: 'phone-missing' });
      expect(capture.message).toBe(`screen capture failed for ${GONE}: the phone is unknown to the server or offline (its settings read said "device not found"); try: check the id (phonewright main-device) and that the phone is connected`);
      expect(await failure(() => client.tap(GONE, 1, 1))).toMatchObject({ reason: 'phone-missing' });
      expect(client.extensions.lacks('capture') || client.extensions.lacks('script')).toBe(false);
      expect((await failure(() => client.tap(PHONE, 1, 1))).message).toBe(notOffered('taps, gestures, keys and text (the JS bridge)', server.url));
      expect(server.count('script'), 'each act sent once').toBe(2);
    });

    test('fake server: a phone away for a moment is waited for as any read; an act is not sent again', async ({ serve, connect }) => {
      const server = await serve();
      lacking(server, form.reply);
      const away = { json: { status: null, value: 'device offline' } };
      server.handle('settings', inOrder(away, away));
      const client = connect(server, { phoneReconnectMs: 5_000 });
      expect((await failure(() => client.capture(PHONE, RECT))).message).toBe(notOffered('screen capture', server.url));
      expect([server.count('capture'), server.count('settings')], 'asked again once the phone was back').toEqual([3, 3]);
      server.handle('settings', inOrder(away));
      expect(await failure(() => client.tap(PHONE, 1, 1))).toMatchObject({ reason: 'phone-missing' });
      expect(server.count('script')).toBe(1);
    });

    test('simulator under seed: each route is judged by one interface read, then remembered; an offline phone is missing', async ({ startSim, connect }) => {
      const sim = await startSim({ capabilities: 'seed', missingRoutes: form.sim });
      const client = connect(sim.url, { phoneReconnectMs: 10_000 });
      sim.setOnline(PHONE, false);
      // Unplugged while the capture is asked: the phone is missing (within the call's deadline), and nothing is decided.
      const capture = await failure(() => client.capture(PHONE, RECT, { deadline: Deadline.in(600) }));
      expect(capture).toMatchObject({ reason: 'phone-missing' });
      expect(await failure(() => client.tap(PHONE, 1, 1))).toMatchObject({ reason: 'phone-missing' });
      expect(client.extensions.lacks('capture')).toBe(false);
      sim.setOnline(PHONE, true);
      const before = sim.stats();
      await expectEveryCallLacking(client, PHONE, sim.url);
      const after = sim.stats();
      expect(after.notFound - before.notFound, 'each route asked once').toBe(5);
      expect([after.operations.settings - before.operations.settings, after.operations.mainDevice - before.operations.mainDevice]).toEqual([4, 1]);
      expect(sim.acts()).toEqual([]);
    });
  });
}

test('the envelope decides whatever its message says, but a token it names stays a rejected token', async ({ serve, connect }) => {
  for (const value of ['Unsupported request', 'device not found', '']) {
    const server = await serve();
    server.handle('capture', { json: { status: null, value } });
    expect((await failure(() => connect(server).capture(PHONE, RECT))).message, value).toBe(notOffered('screen capture', server.url));
  }
  const server = await serve();
  server.handle('capture', inOrder({ json: { status: null, value: 'invalid token' } }, { json: { status: null, value: 'no such route' } }));
  expect((await failure(() => connect(server).capture(PHONE, RECT))).message).toBe(notOffered('screen capture', server.url));
  expect([server.count('login'), server.count('capture'), server.count('settings')], 'logged in again, then judged').toEqual([2, 2, 1]);
});

test('the interface read shares the call\'s deadline: a server that hangs on it ends the call in time, undecided', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('capture', { status: 404, body: 'no' });
  server.handle('settings', 'hang');
  const client = connect(server);
  expect(await failure(() => client.capture(PHONE, RECT, { deadline: Deadline.in(300) }))).toMatchObject({ code: 'PW_TIMEOUT' });
  expect([server.count('capture'), client.extensions.lacks('capture')]).toEqual([1, false]);
  server.handle('settings', undefined);
  expect((await failure(() => client.capture(PHONE, RECT))).message).toBe(notOffered('screen capture', server.url));
});

test('a server in trouble on the interface read is its trouble, not a route it lacks', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('capture', { status: 501, body: '' });
  server.handle('settings', { status: 503, body: '{"status": null, "value": "busy"}' });
  const busy = await failure(() => connect(server).capture(PHONE, RECT));
  expect(busy).toMatchObject({ code: 'PW_SERVICE', reason: 'busy', operation: 'settings' });
  server.handle('mainDevice', { json: { status: null, value: 'no main device' } });
  const list = await failure(() => connect(server).devices());
  expect(list).toMatchObject({ reason: 'failed', operation: 'main-device' });
  expect(list.message).toContain('the server said "no main device"');
});

test('a route that has answered is offered: its later failures are its own, and no interface read is made', async ({ serve, connect }) => {
  const server = await serve();
  capturing(server, (path) => ({ status: true, value: path }));
  const client = connect(server);
  await client.capture(PHONE, RECT);
  server.handle('capture', { json: { status: null, value: 'rect is not inside the screen' } });
  expect(await failure(() => client.capture(PHONE, RECT))).toMatchObject({ reason: 'failed', serverMessage: 'rect is not inside the screen' });
  expect([server.count('settings'), client.extensions.lacks('capture')]).toEqual([0, false]);
});
