// Bad answers from a server: truncated JSON, wrong types in every field of every operation, answers too
// large to be the interface, wrong content types, no `status`. The client (what the CLI and the fixtures
// show) names the operation, what is wrong, the request with its token redacted, and an excerpt; it retries
// only what may be transient, sends nothing twice otherwise, and never echoes a token it was handed.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DeviceClient, type PhonewrightError } from '../../src/index.js';
import type { AnswerReply, Op } from '../helpers/fake-server.js';
import { expect, test } from '../helpers/bad-input.js';

const MAIN = 'device@1116106541';
const TOKEN = '270eq7lXQK8bXYsJ';
const PIXEL = { r: 37, g: 66, b: 92, rgb: '0x25425c' };
const SETTINGS = { display_mode: 1, display_quality: 2, display_accl: 2, display_hw_decode: 1, display_resolution_mode: 2, display_orientation: 1, display_resolution: '1080*1920' };
const NOTE = { app: 'com.example.chat', text: 'hi', time: 1_700_000_000_000, id: MAIN };

type Call = (client: DeviceClient, dir: string) => Promise<unknown>;
const CALLS: Record<Exclude<Op, 'unknown'>, Call> = {
  login: (c) => c.login(),
  mainDevice: (c) => c.mainDevice(),
  pixel: (c) => c.pixel(MAIN, 5, 5),
  settings: (c) => c.settings(MAIN),
  notifications: (c) => c.notifications({ position: 1, count: 10 }),
  upload: async (c, dir) => {
    const file = path.join(dir, 'app.apk');
    await writeFile(file, 'PK\u0003\u0004 an app');
    return c.upload(file, 'apk');
  },
  devices: (c) => c.devices(),
  deviceInfo: (c) => c.deviceInfo(MAIN),
  capture: (c) => c.capture(MAIN, { x: 1, y: 2, width: 3, height: 4 }),
  inputs: (c) => c.tap(MAIN, 5, 6),
  texts: (c) => c.type(MAIN, 'hi'),
  script: (c) => c.press(MAIN, 'KEY_VOLUME_UP'),
  app: (c) => c.setAppState(MAIN, 'com.example.chat', 'active'),
  apps: (c) => c.extensions.foregroundApp(MAIN, {}),
  aai: (c) => c.extensions.elements.count(MAIN, 'T:OK', {}),
};
/** The request each operation sends, as the error names it (`{url}`: the server's). */
const REQUEST: Record<Exclude<Op, 'unknown'>, string> = {
  login: 'GET {url}/TotalControl/v1/login',
  mainDevice: 'GET {url}/TotalControl/v1/devices/main?token=***',
  pixel: `GET {url}/TotalControl/v1/devices/${MAIN}/screen/colors?token=***&q=color&x=5&y=5`,
  settings: `GET {url}/TotalControl/v1/devices/${MAIN}/settings?token=***`,
  notifications: 'GET {url}/TotalControl/v1/notifications?token=***&position=1&count=10',
  upload: 'POST {url}/TotalControl/v1/storage?token=***',
  devices: 'GET {url}/TotalControl/v1/devices?q=all&token=***',
  deviceInfo: `GET {url}/TotalControl/v1/devices/${MAIN}?token=***`,
  capture: `GET {url}/TotalControl/v1/devices/${MAIN}/screen/images?token=***&type=png&location=pc&rect=[1,2,4,6]`,
  inputs: `POST {url}/TotalControl/v1/devices/${MAIN}/screen/inputs`,
  texts: `POST {url}/TotalControl/v1/devices/${MAIN}/screen/texts`,
  script: `POST {url}/TotalControl/v1/devices/${MAIN}/scripts?token=***&cmd=send&param=sigmaConst.KEY_VOLUME_UP`,
  app: `POST {url}/TotalControl/v1/devices/${MAIN}/apps/com.example.chat?token=***&state=active`,
  apps: `GET {url}/TotalControl/v1/devices/${MAIN}/apps?token=***&q=foreground_app`,
  aai: `POST {url}/TotalControl/v1/devices/${MAIN}/sendAai`,
};

interface Case {
  name: string;
  op: Exclude<Op, 'unknown'>;
  reply: AnswerReply;
  /** The message, `{request}` standing for the request as above and `{excerpt}` for the answer's excerpt; or a regex of the request (escaped). */
  error: string | ((request: string) => RegExp);
  code?: PhonewrightError['code'];
  /** Requests of the operation the client sent: 1 unless the answer may be transient (then 5 attempts). */
  sent?: number;
}

const j = (json: unknown): AnswerReply => ({ json });
const ok = (value: unknown): AnswerReply => j({ status: true, value });
const settings = (field: string, value: unknown) => ok({ ...SETTINGS, [field]: value });
const note = (field: string, value: unknown) => ok([{ ...NOTE, [field]: value }]);
const pixel = (field: string, value: unknown) => ok({ ...PIXEL, [field]: value });
/** The excerpt the client appends: ` — answered: "<the body, cut at 160 characters>"`. */
const answered = '{excerpt}';

const CASES: Case[] = [
  // login
  { name: 'login: value is the token itself', op: 'login', reply: ok(TOKEN), error: 'login: the login answer has no "value.token": {request} — answered: "{\\"status\\":true,\\"value\\":\\"***\\"}"' },
  { name: 'login: token is a number', op: 'login', reply: ok({ token: 12345 }), error: 'login: the login answer has no "value.token": {request} — answered: "{\\"status\\":true,\\"value\\":{\\"token\\":12345}}"' },
  { name: 'login: token is empty', op: 'login', reply: ok({ token: '' }), error: 'login: the login answer has no "value.token": {request} — answered: "{\\"status\\":true,\\"value\\":{\\"token\\":\\"***\\"}}"' },
  { name: 'login: status is a string', op: 'login', reply: j({ status: 'true', value: { token: TOKEN } }), error: 'login: "status" is "true", not true, false or null: {request} — answered: "{\\"status\\":\\"***\\",\\"value\\":{\\"token\\":\\"***\\"}}"' },
  { name: 'login: status missing', op: 'login', reply: j({ value: { token: TOKEN } }), error: 'login: the answer has no "status": {request} — answered: "{\\"value\\":{\\"token\\":\\"***\\"}}"' },
  // main device
  { name: 'main device: id is a number', op: 'mainDevice', reply: j({ id: 3 }), error: `main-device: the answer has no device id in "id": {request}${answered}` },
  { name: 'main device: id is not a device id', op: 'mainDevice', reply: j({ id: 'phone-1' }), error: `main-device: the answer has no device id in "id": {request}${answered}` },
  { name: 'main device: no id', op: 'mainDevice', reply: j({}), error: `main-device: the answer has no device id in "id": {request}${answered}` },
  { name: 'main device: status is a string', op: 'mainDevice', reply: j({ status: 'yes', id: MAIN }), error: `main-device: "status" is "yes", not true, false or null: {request}${answered}` },
  // pixel
  { name: 'pixel: value is null', op: 'pixel', reply: ok(null), error: `pixel: the pixel answer has no {r, g, b, rgb} in "value": {request}${answered}` },
  { name: 'pixel: value is an array', op: 'pixel', reply: ok([37, 66, 92]), error: `pixel: the pixel answer has no {r, g, b, rgb} in "value": {request}${answered}` },
  { name: 'pixel: value is a colour name', op: 'pixel', reply: ok('blue'), error: `pixel: the pixel answer has no {r, g, b, rgb} in "value": {request}${answered}` },
  { name: 'pixel: r is a string', op: 'pixel', reply: pixel('r', '37'), error: `pixel: the pixel channels r, g, b are not integers from 0 to 255: {request}${answered}` },
  { name: 'pixel: g past 255', op: 'pixel', reply: pixel('g', 256), error: `pixel: the pixel channels r, g, b are not integers from 0 to 255: {request}${answered}` },
  { name: 'pixel: b negative', op: 'pixel', reply: pixel('b', -1), error: `pixel: the pixel channels r, g, b are not integers from 0 to 255: {request}${answered}` },
  { name: 'pixel: r fractional', op: 'pixel', reply: pixel('r', 1.5), error: `pixel: the pixel channels r, g, b are not integers from 0 to 255: {request}${answered}` },
  { name: 'pixel: rgb is a number', op: 'pixel', reply: pixel('rgb', 2441820), error: `pixel: the pixel's "rgb" 2441820 disagrees with r, g, b (0x25425c): {request}${answered}` },
  { name: 'pixel: rgb disagrees', op: 'pixel', reply: pixel('rgb', '0x000000'), error: `pixel: the pixel's "rgb" "0x000000" disagrees with r, g, b (0x25425c): {request}${answered}` },
  { name: 'pixel: status missing', op: 'pixel', reply: j({ value: PIXEL }), error: `pixel: the answer has no "status": {request}${answered}` },
  // settings: every field
  { name: 'settings: value is a string', op: 'settings', reply: ok('1080*1920'), error: `settings: settings value is "1080*1920", expected an object with the seven display fields: {request}${answered}` },
  { name: 'settings: display_mode is a word', op: 'settings', reply: settings('display_mode', 'HA1'), error: `settings: settings field display_mode is "HA1", expected a positive integer: {request}${answered}` },
  { name: 'settings: display_quality is 0', op: 'settings', reply: settings('display_quality', 0), error: `settings: settings field display_quality is 0, expected a positive integer: {request}${answered}` },
  { name: 'settings: display_accl is null', op: 'settings', reply: settings('display_accl', null), error: `settings: settings field display_accl is null, expected a positive integer: {request}${answered}` },
  { name: 'settings: display_hw_decode is "yes"', op: 'settings', reply: settings('display_hw_decode', 'yes'), error: `settings: settings field display_hw_decode is "yes", expected 0 or 1 (number or string): {request}${answered}` },
  { name: 'settings: display_resolution_mode is fractional', op: 'settings', reply: settings('display_resolution_mode', 1.5), error: `settings: settings field display_resolution_mode is 1.5, expected a positive integer: {request}${answered}` },
  { name: 'settings: display_orientation is a word', op: 'settings', reply: settings('display_orientation', 'portrait'), error: `settings: settings field display_orientation is "portrait", expected a positive integer: {request}${answered}` },
  { name: 'settings: display_resolution is a number', op: 'settings', reply: settings('display_resolution', 1080), error: `settings: settings field display_resolution is 1080, expected "W*H" or {"w": W, "h": H}: {request}${answered}` },
  { name: 'settings: status is a string', op: 'settings', reply: j({ status: 'ok', value: SETTINGS }), error: `settings: "status" is "ok", not true, false or null: {request}${answered}` },
  // notifications: every field
  { name: 'notifications: value is an object', op: 'notifications', reply: ok(NOTE), error: `notifications: "value" is not an array of notifications: {request}${answered}` },
  { name: 'notifications: an item is a string', op: 'notifications', reply: ok(['hi']), error: `notifications: a notification is not an object: {request}${answered}` },
  { name: 'notifications: app is a number', op: 'notifications', reply: note('app', 7), error: `notifications: notification field app is not a string: {request}${answered}` },
  { name: 'notifications: text is null', op: 'notifications', reply: note('text', null), error: `notifications: notification field text is not a string: {request}${answered}` },
  { name: 'notifications: time is a string', op: 'notifications', reply: note('time', '1539833828000'), error: `notifications: notification field time is not a number: {request}${answered}` },
  { name: 'notifications: id is not a device id', op: 'notifications', reply: note('id', 'phone-1'), error: `notifications: notification field id is not a device id: {request}${answered}` },
  { name: 'notifications: failure without a message', op: 'notifications', reply: j({ status: null }), code: 'PW_SERVICE', error: 'notifications failed: the server said "(no message)" — {request}' },
  // upload: every field
  { name: 'upload: file_url is a number', op: 'upload', reply: j({ status: true, file_url: 1527558556026 }), error: `upload: the answer has no "file_url": {request}${answered}` },
  { name: 'upload: file_url is empty', op: 'upload', reply: j({ status: true, file_url: '' }), error: `upload: the answer has no "file_url": {request}${answered}` },
  { name: 'upload: no file_url', op: 'upload', reply: j({ status: true, value: 'apk/1527558556026.apk' }), error: `upload: the answer has no "file_url": {request}${answered}` },
  // the envelope
  { name: 'truncated JSON', op: 'pixel', reply: { body: '{"status": true, "value": {"r": 37' }, sent: 7, error: (r) => new RegExp(`^pixel: the answer is not JSON: ${r} — answered: "\\{\\\\"status\\\\": true, \\\\"value\\\\": \\{\\\\"r\\\\": 37" \\(after 7 attempts in \\d+ ms\\)$`) },
  { name: 'an HTML page', op: 'settings', reply: { body: '<html><body>Bad Gateway</body></html>', headers: { 'content-type': 'text/html' } }, sent: 7, error: (r) => new RegExp(`^settings: the answer is not JSON: ${r} — answered: "<html><body>Bad Gateway</body></html>" \\(after 7 attempts in \\d+ ms\\)$`) },
  { name: 'an empty body', op: 'mainDevice', reply: { body: '' }, sent: 7, error: (r) => new RegExp(`^main-device: the answer is not JSON: ${r} \\(empty body\\) \\(after 7 attempts in \\d+ ms\\)$`) },
  { name: 'a JSON array', op: 'settings', reply: { body: '[]' }, error: 'settings: the answer is not a JSON object: {request} — answered: "[]"' },
  { name: 'HTTP 404', op: 'pixel', reply: { status: 404, body: 'Not Found' }, error: 'pixel: the server has no such route (HTTP 404): {request}; try: check the API root (--api-root or PHONEWRIGHT_API_ROOT; default /TotalControl/v1) and the URL' },
  { name: 'HTTP 418', op: 'notifications', reply: { status: 418, body: "I'm a teapot" }, error: 'notifications: unexpected HTTP 418 from {request} — answered: "I\'m a teapot"' },
  {
    name: 'an answer over 32 MiB',
    op: 'notifications',
    reply: { body: Buffer.alloc(33 * 1024 * 1024, 0x20) },
    error: 'notifications: the answer is larger than 32 MiB, not an answer of the interface: {request}; try: check the URL and API root point at the device-control service',
  },
];

for (const c of CASES) {
  test(c.name, async ({ server, dir }) => {
    const client = new DeviceClient({ url: server.url, backoffBase: 1, backoffMax: 5 });
    try {
      if (c.op !== 'login') await client.login();
      server.handle(c.op, c.reply);
      const error = await CALLS[c.op](client, dir).then(
        () => undefined,
        (e: unknown) => e as PhonewrightError,
      );
      const body = typeof c.reply.body === 'string' || c.reply.body === undefined ? (c.reply.body ?? JSON.stringify(c.reply.json)) : '';
      const request = REQUEST[c.op].replaceAll('{url}', server.url);
      expect(error, 'the call fails').toBeDefined();
      expect(error!.code).toBe(c.code ?? 'PW_PROTOCOL');
      const excerpt = ` — answered: ${JSON.stringify(body.length > 160 ? `${body.slice(0, 160)}… (${body.length} bytes)` : body)}`;
      if (typeof c.error === 'string') expect(error!.message).toBe(c.error.replaceAll('{request}', request).replaceAll('{excerpt}', excerpt));
      else expect(error!.message).toMatch(c.error(escapeRegExp(request)));
      expect(error!.message, 'no token in the message').not.toContain(TOKEN);
      expect(server.count(c.op), 'requests sent').toBe(c.sent ?? 1);
      expect(server.uploads, 'files stored').toEqual([]);
    } finally {
      await client.close();
    }
  });
}

test('an answer over 32 MiB with no length, streamed: refused once it passes the limit, not read to the end', async () => {
  let sent = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (req.url?.endsWith('/login')) return void res.end(JSON.stringify({ status: true, value: { token: TOKEN } }));
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && sent < 256 * chunk.length && res.write(chunk)) sent += chunk.length;
      if (sent >= 256 * chunk.length) res.end();
    };
    res.on('drain', pump);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DeviceClient({ url });
  try {
    const error = (await client.settings(MAIN).catch((e: unknown) => e)) as PhonewrightError;
    expect(error.code).toBe('PW_PROTOCOL');
    expect(error.message).toBe(`settings: the answer is larger than 32 MiB, not an answer of the interface: GET ${url}/TotalControl/v1/devices/${MAIN}/settings?token=***; try: check the URL and API root point at the device-control service`);
    expect(requests, 'login and one settings read: not retried').toBe(2);
    expect(sent, 'the client stopped reading well before the 256 MiB the server had').toBeLessThan(128 * 1024 * 1024);
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a JSON answer under another content type is the answer: servers label it text/html or text/plain', async ({ server }) => {
  const client = new DeviceClient({ url: server.url });
  server.handle('pixel', { body: JSON.stringify({ status: true, value: PIXEL }), headers: { 'content-type': 'text/html; charset=gbk' } });
  expect(await client.pixel(MAIN, 5, 5)).toEqual(PIXEL);
  await client.close();
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
