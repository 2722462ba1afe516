// A route beyond the interface that a server lacks, in each form servers answer one (HTTP 404, 405, 501, the
// failure envelope): the client tells it from a phone gone by one read of the interface about the same phone,
// made at once and within the call's deadline, remembers "not offered" for the server, and fails every call
// to it with one line. When that read fails too, its error is the call's, and nothing is remembered.
import { Deadline } from '../../src/client/deadline.js';
import { capturing } from '../helpers/vendor-capture.js';
import { inOrder, VENDOR_MAIN_DEVICE as PHONE } from '../helpers/fake-server.js';
import { lacking, MISSING_FORMS, noActRoute, notOffered } from '../helpers/missing-routes.js';
import { expect, failure, test } from './harness.js';
import type { DeviceClient } from '../../src/client/client.js';

const RECT = { x: 0, y: 0, width: 4, height: 4 };
const GONE = 'device@999';

/** Every call beyond the interface on `phone`, with the line it fails with on a server that lacks its route (or routes). */
const CALLS: [string, (url: string) => string, (client: DeviceClient, phone: string) => Promise<unknown>][] = [
  ['devices', (url) => notOffered('the device list', url), (c) => c.devices()],
  ['deviceInfo', (url) => notOffered('device properties', url), (c, p) => c.deviceInfo(p)],
  ['capture', (url) => notOffered('screen capture', url), (c, p) => c.capture(p, RECT)],
  ['tap', (url) => noActRoute('taps', url), (c, p) => c.tap(p, 1, 1)],
  ['press', (url) => noActRoute('taps', url), (c, p) => c.press(p, 'back')],
  ['swipe', (url) => noActRoute('taps', url), (c, p) => c.swipe(p, { x: 1, y: 9 }, { x: 1, y: 1 }, 300)],
  ['longPress', (url) => noActRoute('taps', url), (c, p) => c.longPress(p, { x: 1, y: 1 }, 1000)],
  ['type', (url) => noActRoute('text', url), (c, p) => c.type(p, 'hello')],
  ['launch', (url) => notOffered('starting and closing apps', url), (c, p) => c.setAppState(p, 'com.example.chat', 'active')],
  ['close', (url) => notOffered('starting and closing apps', url), (c, p) => c.setAppState(p, 'com.example.chat', 'inactive')],
  ['foregroundApp', (url) => notOffered('the list of apps', url), (c, p) => c.extensions.foregroundApp(p, {})],
  ['elementCount', (url) => notOffered('UI elements (sendAai)', url), (c, p) => c.extensions.elements.count(p, 'T:OK', {})],
  ['screenText', (url) => notOffered('text recognition on the phone (screen/texts with a rect)', url), (c, p) => c.extensions.screenText(p, RECT, {})],
];

/** Makes each call twice and checks that both fail with the one line, code and reason. */
async function expectEveryCallLacking(client: DeviceClient, phone: string, url: string): Promise<void> {
  for (const round of [1, 2]) {
    for (const [name, line, call] of CALLS) {
      const error = await failure(() => call(client, phone));
      expect(error.message, `${name}, call ${round}`).toBe(line(url));
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
      // Capture, text and apps are asked once more with arguments good on any phone (a 1×1 capture at 0,0, the
      // clipboard, the foreground app): a route that answers those refused the call's own arguments.
      // The apps list is that probe for starting and closing apps, then asked as its own capability; screen/texts
      // is asked for text, its probe, and the OCR.
      expect(['devices', 'deviceInfo', 'capture', 'inputs', 'texts', 'script', 'app', 'apps', 'aai'].map((op) => server.count(op as 'devices')), 'each route asked once, and its probe').toEqual([1, 1, 2, 1, 3, 1, 1, 2, 1]);
      expect([server.count('settings'), server.count('mainDevice')], 'one read of the interface per capability').toEqual([9, 1]);
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
      expect(client.extensions.lacks('capture') || client.extensions.lacks('inputs') || client.extensions.lacks('script')).toBe(false);
      expect((await failure(() => client.tap(PHONE, 1, 1))).message).toBe(noActRoute('taps', server.url));
      expect([server.count('inputs'), server.count('script')], 'each act sent once on each route').toEqual([2, 1]);
    });

    test('fake server: a phone away for a moment is waited for as any read; an act is not sent again', async ({ serve, connect }) => {
      const server = await serve();
      lacking(server, form.reply);
      const away = { json: { status: null, value: 'device offline' } };
      server.handle('settings', inOrder(away, away));
      const client = connect(server, { phoneReconnectMs: 5_000 });
      expect((await failure(() => client.capture(PHONE, RECT))).message).toBe(notOffered('screen capture', server.url));
      // Each attempt: the capture, its 1×1 probe, the settings read.
      expect([server.count('capture'), server.count('settings')], 'asked again once the phone was back').toEqual([6, 3]);
      server.handle('settings', inOrder(away));
      expect(await failure(() => client.tap(PHONE, 1, 1))).toMatchObject({ reason: 'phone-missing' });
      expect([server.count('inputs'), server.count('script')]).toEqual([1, 0]);
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
      expect(after.notFound - before.notFound, 'each route asked once, and capture, text and apps their probes').toBe(13);
      expect([after.operations.settings - before.operations.settings, after.operations.mainDevice - before.operations.mainDevice]).toEqual([9, 1]);
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
  expect([server.count('login'), server.count('capture'), server.count('settings')], 'logged in again, then judged (the capture, again, its probe)').toEqual([2, 3, 1]);
});

test('the interface read shares the call\'s deadline: a server that hangs on it ends the call in time, undecided', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('capture', { status: 404, body: 'no' });
  server.handle('settings', 'hang');
  const client = connect(server);
  expect(await failure(() => client.capture(PHONE, RECT, { deadline: Deadline.in(300) }))).toMatchObject({ code: 'PW_TIMEOUT' });
  expect([server.count('capture'), client.extensions.lacks('capture')], 'the capture and its probe').toEqual([2, false]);
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
