// Every operation's documented success body, verbatim and in the variants of the field notes, and a custom
// API root used on every route.
import { writeFile } from 'node:fs/promises';
import type { DeviceClient } from '../../src/client/client.js';
import { VENDOR, VENDOR_MAIN_DEVICE, type FakeReply, type Op } from '../helpers/fake-server.js';
import { expect, test } from './harness.js';

const SETTINGS = {
  display_mode: 1,
  display_quality: 2,
  display_accl: 2,
  display_hw_decode: 1,
  display_resolution_mode: 2,
  display_orientation: 1,
  display_resolution: { w: 1080, h: 1920 },
};
const settingsBody = (patch: Record<string, unknown>) => ({ json: { status: true, value: { ...JSON.parse(VENDOR.settings).value, ...patch } } });

interface Case {
  name: string;
  op: Op;
  reply: FakeReply;
  call: (c: DeviceClient) => Promise<unknown>;
  expect: unknown;
}

const CASES: Case[] = [
  { name: 'pixel, verbatim', op: 'pixel', reply: { body: VENDOR.pixel }, call: (c) => c.pixel(VENDOR_MAIN_DEVICE, 100, 100), expect: { r: 37, g: 66, b: 92, rgb: '0x25425c' } },
  {
    name: 'pixel, value as the string the field table types it as',
    op: 'pixel',
    reply: { json: { status: true, value: '0x25425C' } },
    call: (c) => c.pixel(VENDOR_MAIN_DEVICE, 1, 1),
    expect: { r: 37, g: 66, b: 92, rgb: '0x25425c' },
  },
  {
    name: 'pixel, rgb in upper case and black',
    op: 'pixel',
    reply: { json: { status: true, value: { r: 0, g: 0, b: 0, rgb: '0x000000' } } },
    call: (c) => c.pixel(VENDOR_MAIN_DEVICE, 0, 0),
    expect: { r: 0, g: 0, b: 0, rgb: '0x000000' },
  },
  { name: 'settings, verbatim ("1" and "1080*1920")', op: 'settings', reply: { body: VENDOR.settings }, call: (c) => c.settings(VENDOR_MAIN_DEVICE), expect: SETTINGS },
  {
    name: 'settings, {w, h} resolution and numeric display_hw_decode',
    op: 'settings',
    reply: settingsBody({ display_hw_decode: 0, display_resolution: { w: 720, h: 1280 }, display_orientation: 2 }),
    call: (c) => c.settings(VENDOR_MAIN_DEVICE),
    expect: { ...SETTINGS, display_hw_decode: 0, display_resolution: { w: 720, h: 1280 }, display_orientation: 2 },
  },
  {
    name: 'settings, display_hw_decode "0" and numeric 1',
    op: 'settings',
    reply: settingsBody({ display_hw_decode: '0' }),
    call: (c) => c.settings(VENDOR_MAIN_DEVICE),
    expect: { ...SETTINGS, display_hw_decode: 0 },
  },
  { name: 'main device, verbatim without status', op: 'mainDevice', reply: { body: VENDOR.mainDevice }, call: (c) => c.mainDevice(), expect: VENDOR_MAIN_DEVICE },
  {
    name: 'main device, in an envelope, negative id',
    op: 'mainDevice',
    reply: { json: { status: true, value: { id: 'device@-230441652' } } },
    call: (c) => c.mainDevice(),
    expect: 'device@-230441652',
  },
  {
    name: 'notifications, verbatim with Unicode text',
    op: 'notifications',
    reply: { body: VENDOR.notifications },
    call: (c) => c.notifications({ position: 1, count: 1 }),
    expect: [{ app: 'com.sigma_rt.totalcontrol', text: '点击进入程序', time: 1539833828000, id: 'device@1174886816' }],
  },
  {
    name: 'notifications, empty list',
    op: 'notifications',
    reply: { json: { status: true, value: [] } },
    call: (c) => c.notifications({ position: 1, count: 50 }),
    expect: [],
  },
];

for (const c of CASES) {
  test(`decodes ${c.name}`, async ({ serve, connect }) => {
    const server = await serve();
    server.handle(c.op, (_req, next) => next().then(() => c.reply));
    expect(await c.call(connect(server))).toEqual(c.expect);
    expect(server.count(c.op)).toBe(1);
  });
}

test('a custom API root /Service/v1 is used on every route', async ({ serve, connect }, testInfo) => {
  const server = await serve({ apiRoot: '/Service/v1' });
  server.post({ app: 'com.example', text: 'x', time: 1, id: VENDOR_MAIN_DEVICE });
  server.handle('upload', (_req, next) => next().then(() => ({ body: VENDOR.uploadRelative })));
  const client = connect(server, { apiRoot: '/Service/v1' });
  const file = testInfo.outputPath('1.bmp');
  await writeFile(file, 'BM');
  expect(await client.mainDevice()).toBe(VENDOR_MAIN_DEVICE);
  await client.pixel(VENDOR_MAIN_DEVICE, 1, 2);
  await client.settings(VENDOR_MAIN_DEVICE);
  expect(await client.notifications({ position: 1, count: 5 })).toHaveLength(1);
  expect(await client.upload(file, 'image')).toEqual({ fileUrl: `${server.url}/Service/v1/storage/images/1527558556026.bmp` });
  expect(server.requests.map((r) => r.op)).toEqual(['login', 'mainDevice', 'pixel', 'settings', 'notifications', 'upload']);
  for (const r of server.requests) expect(r.path).toMatch(/^\/Service\/v1\//);
});

test('the wrong API root → a protocol error that names the API root setting, not retried', async ({ serve, connect }) => {
  const server = await serve({ apiRoot: '/Service/v1' });
  const client = connect(server);
  const error = await client.mainDevice().catch((e: Error & { code: string }) => e);
  expect(error).toMatchObject({ code: 'PW_PROTOCOL' });
  expect((error as Error).message).toMatch(/HTTP 404.*api-root/i);
  expect(server.count()).toBe(1);
});

test('a base URL with a path prefix (a reverse proxy) goes before the API root', async ({ serve, connect }) => {
  const server = await serve({ apiRoot: '/proxy/TotalControl/v1' });
  const client = connect(`${server.url}/proxy/`);
  expect(await client.mainDevice()).toBe(VENDOR_MAIN_DEVICE);
  expect(server.requests.map((r) => r.path)).toEqual(['/proxy/TotalControl/v1/login', '/proxy/TotalControl/v1/devices/main']);
});
