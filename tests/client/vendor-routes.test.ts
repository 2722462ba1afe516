// The vendor's routes beyond the interface (docs/capabilities.md): the device list and a phone's
// properties, read from the bodies the reference pages and public clients show, verbatim and in their other
// forms; and a server of the interface only (the fake server's default), which lacks them.
import { ServiceError } from '../../src/core/errors.js';
import { expect, failure, test } from './harness.js';

/** The reference page's example, verbatim (androidVersionSdkInt a number, as in the example). */
const PROPERTIES =
  '{"status": true, "value": {"name": "mobile1", "IP": "10.0.2.11", "IMEI": "868146021323359", "DPI": "320", "No": 2, "displayMode": 2, "SN": "JTJ4C15717001224", "width": 720, "height": 1280, "androidVersionRelease": "5.1.1", "androidVersionSdkInt": 22, "manufacturer": "HUAWEI", "model": "msm8909", "id": "device@230441652", "colorbits": 32, "foregroundapp": "com.huawei.android.launcher", "orientation": 0, "sdcard": "/sdcard", "tmp_path": "/data/local/tmp", "acceleration": 1, "projection": false}}';
const HUAWEI = { id: 'device@230441652', name: 'mobile1', model: 'msm8909', manufacturer: 'HUAWEI', width: 720, height: 1280, android: '5.1.1' };

test('the device list: the verbatim answer, and every form of an empty lab', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  server.handle('devices', { body: '{"ids": ["device@795844152", "device@795812215"]}' });
  expect(await client.devices()).toEqual(['device@795844152', 'device@795812215']);
  expect(server.requests.at(-1)!.rawQuery).toMatch(/^q=all&token=/);
  for (const empty of ['{"ids": []}', '{"ids": null}', '{"ids": "null"}', '{"status": true, "value": {"ids": []}}']) {
    server.handle('devices', { body: empty });
    expect(await client.devices(), empty).toEqual([]);
  }
  server.handle('devices', { body: '{"ids": ["device@1", "galaxy"]}' });
  expect((await failure(() => client.devices())).message).toMatch(/^devices: "ids" holds "galaxy", which is not a device id: GET /);
});

test('device properties: the verbatim example, androidVersionSdkInt as text, sizes as text', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  server.handle('deviceInfo', { body: PROPERTIES });
  expect(await client.deviceInfo('device@230441652')).toEqual(HUAWEI);
  server.handle('deviceInfo', { body: PROPERTIES.replace('"androidVersionSdkInt": 22', '"androidVersionSdkInt": "22"').replace('"width": 720', '"width": "720"') });
  expect(await client.deviceInfo('device@230441652')).toEqual(HUAWEI);
  server.handle('deviceInfo', { json: { status: null, value: 'device not found' } });
  expect(await failure(() => client.deviceInfo('device@230441652'))).toMatchObject({ code: 'PW_SERVICE', reason: 'phone-missing' });
  server.handle('deviceInfo', { body: PROPERTIES.replace('"height": 1280', '"height": 0') });
  expect((await failure(() => client.deviceInfo('device@230441652'))).message).toContain('"height" is not a size in pixels');
});

test('a server of the interface only: one line naming the capability and the server, and it is not asked again', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  const error = await failure(() => client.devices());
  expect(error).toBeInstanceOf(ServiceError);
  expect(error).toMatchObject({ reason: 'not-offered' });
  expect(error.message).toBe(`this server does not offer the device list (a route beyond the device-control interface): ${server.url}`);
  expect((await failure(() => client.devices())).message).toBe(error.message);
  expect(server.count('devices'), 'probed once, then remembered').toBe(1);
  // Each route is its own capability.
  expect((await failure(() => client.deviceInfo('device@1174886816'))).message).toContain('this server does not offer device properties');
});

test('apps: started and closed on the route the reference shows, answered verbatim, each sent once', async ({ serve, connect }) => {
  const server = await serve({ devices: [HUAWEI.id] });
  const client = connect(server);
  server.handle('app', { body: '{"status": true, "value": "make it inactive"}' });
  await client.setAppState(HUAWEI.id, 'com.tencent.qqmusic', 'inactive');
  await client.setAppState(HUAWEI.id, 'com.tencent.qqmusic', 'active');
  const sent = server.requests.filter((r) => r.op === 'app').map((r) => `${r.method} ${r.path}?${r.rawQuery.replace(/^token=[^&]+&/, '')}`);
  expect(sent).toEqual([
    `POST /TotalControl/v1/devices/${HUAWEI.id}/apps/com.tencent.qqmusic?state=inactive`,
    `POST /TotalControl/v1/devices/${HUAWEI.id}/apps/com.tencent.qqmusic?state=active`,
  ]);
  // The server may have acted before the connection dropped: the act is not sent again.
  server.handle('app', 'reset');
  expect(await failure(() => client.setAppState(HUAWEI.id, 'com.example.chat', 'active'))).toMatchObject({ code: 'PW_UNREACHABLE' });
  expect(server.count('app')).toBe(3);
  // The server's failure, in the interface's shape, names the phone.
  server.handle('app', { json: { status: null, value: 'device not found' } });
  expect(await failure(() => client.setAppState(HUAWEI.id, 'com.example.chat', 'active'))).toMatchObject({ reason: 'phone-missing' });
  expect((await failure(() => client.setAppState(HUAWEI.id, 'chat; rm -rf', 'active'))).message).toBe('invalid package name "chat; rm -rf": expected an Android package such as com.example.chat');
  expect(server.count('app'), 'bad input: nothing sent').toBe(4);
});

test('a server of the interface only refuses starting and closing apps with one line, and is asked once', async ({ serve, connect }) => {
  const server = await serve({ devices: [HUAWEI.id] });
  const client = connect(server);
  const lacks = `this server does not offer starting and closing apps (a route beyond the device-control interface): ${server.url}`;
  expect((await failure(() => client.setAppState(HUAWEI.id, 'com.example.chat', 'active'))).message).toBe(lacks);
  expect((await failure(() => client.setAppState(HUAWEI.id, 'com.example.chat', 'inactive'))).message).toBe(lacks);
  expect([server.count('app'), server.count('apps'), server.count('settings')], 'the act, the foreground read that would show the route is there, one interface read').toEqual([1, 1, 1]);
});
