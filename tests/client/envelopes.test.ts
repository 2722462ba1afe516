// Strict envelopes: the server's failures become service errors that carry its message and the operation;
// anything off the interface becomes a protocol error with a short excerpt in which no secret appears.
import { writeFile } from 'node:fs/promises';
import type { DeviceClient } from '../../src/client/client.js';
import { ServiceError } from '../../src/core/errors.js';
import { inOrder, VENDOR, VENDOR_MAIN_DEVICE, type FakeReply, type FakeRequest, type Op } from '../helpers/fake-server.js';
import { VENDOR_OPS } from '../helpers/missing-routes.js';
import { expect, failure, test } from './harness.js';

type Call = (c: DeviceClient, file: string) => Promise<unknown>;
const CALLS: Record<Exclude<Op, 'login' | 'unknown'>, { operation: string; call: Call }> = {
  pixel: { operation: 'pixel', call: (c) => c.pixel(VENDOR_MAIN_DEVICE, 3, 4) },
  settings: { operation: 'settings', call: (c) => c.settings(VENDOR_MAIN_DEVICE) },
  notifications: { operation: 'notifications', call: (c) => c.notifications({ position: 1, count: 10 }) },
  mainDevice: { operation: 'main-device', call: (c) => c.mainDevice() },
  upload: { operation: 'upload', call: (c, file) => c.upload(file, 'image') },
  devices: { operation: 'devices', call: (c) => c.devices() },
  deviceInfo: { operation: 'device-info', call: (c) => c.deviceInfo(VENDOR_MAIN_DEVICE) },
  capture: { operation: 'screen capture', call: (c) => c.capture(VENDOR_MAIN_DEVICE, { x: 0, y: 0, width: 2, height: 2 }) },
  inputs: { operation: 'press', call: (c) => c.press(VENDOR_MAIN_DEVICE, 'back') },
  texts: { operation: 'type', call: (c) => c.type(VENDOR_MAIN_DEVICE, 'hello') },
  script: { operation: 'press', call: (c) => c.press(VENDOR_MAIN_DEVICE, 'KEY_VOLUME_UP') },
  app: { operation: 'close app', call: (c) => c.setAppState(VENDOR_MAIN_DEVICE, 'com.example.chat', 'inactive') },
  apps: { operation: 'foreground app', call: (c) => c.extensions.foregroundApp(VENDOR_MAIN_DEVICE, {}) },
  aai: { operation: 'UI elements', call: (c) => c.extensions.elements.count(VENDOR_MAIN_DEVICE, 'T:OK', {}) },
};

test.describe('{"status": null, "value": <message>} → ServiceError with the server\'s message and the operation', () => {
  for (const [op, { operation, call }] of Object.entries(CALLS)) {
    test(`${operation} (${op})`, async ({ serve, connect }, testInfo) => {
      const server = await serve();
      const envelope = { json: { status: null, value: 'the phone client is not running' } };
      // A route beyond the interface that has answered once: before, its envelope is weighed against a read of
      // the interface (tests/client/not-offered.test.ts).
      const beyond = VENDOR_OPS.includes(op as Op);
      server.handle(op as Op, beyond ? inOrder({ json: { status: true } }, envelope) : envelope);
      const file = testInfo.outputPath('a.png');
      await writeFile(file, 'png');
      const client = connect(server);
      if (beyond) await call(client, file).catch(() => undefined);
      const error = await failure(() => call(client, file));
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'failed', operation, serverMessage: 'the phone client is not running' });
      expect(error.message).toContain(`${operation} failed`);
      expect(error.message).toContain('"the phone client is not running"');
      // A failure the server stated is not retried.
      expect(server.count(op as Op)).toBe(beyond ? 2 : 1);
    });
  }
});

test('settings of an unknown phone → names the phone, reason phone-missing', async ({ serve, connect }) => {
  const server = await serve();
  const error = await failure(() => connect(server).settings('device@42'));
  expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'phone-missing', operation: 'settings', serverMessage: 'device not found' });
  expect(error.message).toContain('device@42');
});

test.describe('pixel answered {"status": false}', () => {
  test('outside the screen → names the point and the screen size', async ({ serve, connect }) => {
    const server = await serve();
    const error = await failure(() => connect(server).pixel(VENDOR_MAIN_DEVICE, 1080, 7));
    expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'outside-screen', operation: 'pixel' });
    expect(error.message).toContain('(1080, 7)');
    expect(error.message).toContain('1080×1920');
    expect(error.message).toContain(VENDOR_MAIN_DEVICE);
    expect(error.message).toMatch(/try: x from 0 to 1079, y from 0 to 1919/);
  });

  test('unknown phone → names the phone, reason phone-missing', async ({ serve, connect }) => {
    const server = await serve();
    const error = await failure(() => connect(server).pixel('device@-230441652', 5, 5));
    expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'phone-missing', operation: 'pixel' });
    expect(error.message).toContain('device@-230441652');
    expect(error.message).toContain('(5, 5)');
  });

  test('inside the screen of a known phone → names the point, the phone and its size', async ({ serve, connect }) => {
    const server = await serve();
    server.handle('pixel', { json: { status: false } });
    const error = await failure(() => connect(server).pixel(VENDOR_MAIN_DEVICE, 10, 20));
    expect(error).toMatchObject({ code: 'PW_SERVICE', reason: 'bare-false', operation: 'pixel' });
    expect(error.message).toContain(`pixel (10, 20) on ${VENDOR_MAIN_DEVICE} (1080*1920)`);
    expect(server.count('login')).toBe(1);
    // No cause left to name: read once more (the phone may have reconnected in between), then it counts.
    expect(server.count('pixel')).toBe(2);
  });
});

/** Echoes the request's token into a body: the client must never repeat it. */
const echo = (make: (token: string) => string) => (req: FakeRequest): FakeReply => ({ body: make(req.token ?? '') });
const settingsWith = (patch: Record<string, unknown>) => JSON.stringify({ status: true, value: { ...JSON.parse(VENDOR.settings).value, ...patch } });

interface Malformed {
  name: string;
  op: Op;
  reply: (req: FakeRequest) => FakeReply;
  says: RegExp;
  /** Non-JSON answers are transient: tried again (retries: 1 here). */
  attempts?: number;
}

const MALFORMED: Malformed[] = [
  { name: 'status missing', op: 'pixel', reply: echo((t) => `{"value": {"r": 1, "g": 2, "b": 3}, "token": "${t}"}`), says: /no "status"/ },
  { name: 'status as a string', op: 'pixel', reply: echo(() => '{"status": "true", "value": {"r": 1, "g": 2, "b": 3}}'), says: /"status" is "true"/ },
  { name: 'status as a number', op: 'settings', reply: echo(() => '{"status": 1, "value": {}}'), says: /"status" is 1/ },
  { name: 'a JSON array', op: 'pixel', reply: echo((t) => `["${t}"]`), says: /not a JSON object/ },
  { name: 'pixel channel as a string', op: 'pixel', reply: echo(() => '{"status": true, "value": {"r": "37", "g": 66, "b": 92}}'), says: /channels/ },
  { name: 'pixel channel out of range', op: 'pixel', reply: echo(() => '{"status": true, "value": {"r": 256, "g": 66, "b": 92}}'), says: /channels/ },
  { name: 'pixel rgb disagreeing with r, g, b', op: 'pixel', reply: echo(() => '{"status": true, "value": {"r": 37, "g": 66, "b": 92, "rgb": "0x000000"}}'), says: /disagrees/ },
  { name: 'pixel without value', op: 'pixel', reply: echo(() => '{"status": true}'), says: /no \{r, g, b, rgb\}/ },
  { name: 'settings enum as a word', op: 'settings', reply: echo(() => settingsWith({ display_mode: 'HA1' })), says: /display_mode/ },
  { name: 'settings resolution unreadable', op: 'settings', reply: echo(() => settingsWith({ display_resolution: 'big' })), says: /display_resolution/ },
  { name: 'settings hw decode 2', op: 'settings', reply: echo(() => settingsWith({ display_hw_decode: 2 })), says: /display_hw_decode/ },
  { name: 'settings value an array', op: 'settings', reply: echo(() => '{"status": true, "value": []}'), says: /expected an object/ },
  { name: 'notifications value an object', op: 'notifications', reply: echo(() => '{"status": true, "value": {}}'), says: /not an array/ },
  { name: 'notification time a string', op: 'notifications', reply: echo(() => VENDOR.notifications.replace('1539833828000', '"1539833828000"')), says: /time/ },
  { name: 'notification id not a device id', op: 'notifications', reply: echo(() => VENDOR.notifications.replace('device@1174886816', 'phone-1')), says: /field id/ },
  { name: 'main device id a serial number', op: 'mainDevice', reply: echo(() => '{"id": 3}'), says: /no device id/ },
  { name: 'login without value.token', op: 'login', reply: echo(() => '{"status": true, "value": {}}'), says: /value\.token/ },
  ...['display_mode', 'display_quality', 'display_accl', 'display_hw_decode', 'display_resolution_mode', 'display_orientation', 'display_resolution'].map((field) => ({
    name: `settings ${field} null`,
    op: 'settings' as const,
    reply: echo(() => settingsWith({ [field]: null })),
    says: new RegExp(`${field} is null`),
  })),
  ...(['app', 'text'] as const).map((field) => ({
    name: `notification ${field} not a string`,
    op: 'notifications' as const,
    reply: echo(() => JSON.stringify({ status: true, value: [{ ...JSON.parse(VENDOR.notifications).value[0], [field]: 7 }] })),
    says: new RegExp(`field ${field} is not a string`),
  })),
  { name: 'upload without file_url', op: 'upload', reply: echo(() => '{"status": true, "value": "images/1.png"}'), says: /no "file_url"/ },
  { name: 'upload file_url a number', op: 'upload', reply: echo(() => '{"status": true, "file_url": 1527558556026}'), says: /no "file_url"/ },
  { name: 'login token a number', op: 'login', reply: echo(() => '{"status": true, "value": {"token": 270}}'), says: /value\.token/ },
  { name: 'truncated JSON', op: 'pixel', reply: echo((t) => `{"status": true, "token": "${t}", "value": {"r": 37, "g"`), says: /not JSON/, attempts: 2 },
  { name: 'an HTML page', op: 'settings', reply: echo((t) => `<html><body>Service Unavailable ${t}</body></html>`), says: /not JSON.*<html>/, attempts: 2 },
  { name: 'an empty body', op: 'mainDevice', reply: echo(() => ''), says: /not JSON.*\(empty body\)/, attempts: 2 },
  { name: 'a huge body', op: 'notifications', reply: echo((t) => `<pre>${`${t} `.repeat(200_000)}</pre>`), says: /not JSON.*… \(3400011 bytes\)/, attempts: 2 },
];

test.describe('answers off the interface → ProtocolError with a redacted excerpt', () => {
  for (const m of MALFORMED) {
    test(m.name, async ({ serve, connect }, testInfo) => {
      const server = await serve();
      server.handle(m.op, (req, next) => (m.op === 'login' ? m.reply(req) : next().then(() => m.reply(req))));
      const client = connect(server, { retries: 1 });
      const file = testInfo.outputPath('a.png');
      await writeFile(file, 'png');
      const error = await failure(() => (m.op === 'login' ? client.login() : CALLS[m.op as keyof typeof CALLS].call(client, file)));
      expect(error.code).toBe('PW_PROTOCOL');
      expect(error.message).toMatch(m.says);
      expect(error.message).toContain(`${server.url}/TotalControl/v1/`);
      expect(error.message.length).toBeLessThan(700);
      for (const token of server.tokens) expect(error.message).not.toContain(token);
      expect(server.count(m.op)).toBe(m.attempts ?? 1);
    });
  }
});

test('a malformed login answer that carries the token never shows it', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('login', { body: '{"status": true, "value": "Zq81kLmN0pQrStUv"}' });
  const error = await failure(() => connect(server).login());
  expect(error.code).toBe('PW_PROTOCOL');
  expect(error.message).not.toContain('Zq81kLmN0pQrStUv');
});
