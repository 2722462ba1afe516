// Hostile and odd input never crashes the simulator; verbose logging never shows a token.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { MAIN, authed, call, expect, login, multipart, rawGet, test } from './harness.js';

/** Sends raw bytes on a new connection; resolves with everything the server sent until it closed. */
function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

test.afterEach(async ({ sim }) => {
  // Whatever the test sent, the simulator still answers.
  expect((await authed(sim, await login(sim), '/devices/main')).json).toEqual({ id: MAIN });
});

test('10,000 query parameters', async ({ sim }) => {
  const token = await login(sim);
  const junk = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&');
  const answer = await call(sim, `/devices/${MAIN}/screen/colors?q=color&x=100&y=100&${junk}&token=${token}`);
  expect(answer.json).toMatchObject({ status: true, value: { rgb: '0x25425c' } });
});

test('the first of repeated parameters counts', async ({ sim }) => {
  const token = await login(sim);
  const answer = await call(sim, `/devices/${MAIN}/screen/colors?token=${token}&q=color&x=100&y=100&x=5000&token=nope`);
  expect(answer.json).toMatchObject({ status: true });
});

test('headers larger than Node allows answer a JSON 431', async ({ sim }) => {
  const reply = await rawExchange(sim.port, `GET /TotalControl/v1/login HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(400_000)}\r\n\r\n`);
  expect(reply).toMatch(/^HTTP\/1\.1 431/);
  expect(reply).toContain('"status":null');
});

test('a request line that is not HTTP answers a JSON 400', async ({ sim }) => {
  const reply = await rawExchange(sim.port, 'HELLO THERE\r\n\r\n');
  expect(reply).toMatch(/^HTTP\/1\.1 400/);
});

test('bad percent-encoding in the path and the query', async ({ sim }) => {
  const token = await login(sim);
  expect((await rawGet(sim, `/TotalControl/v1/devices/%E0%A4%A/settings?token=${token}`)).status).toBe(404);
  const answer = await rawGet(sim, `/TotalControl/v1/notifications?token=${token}&position=%ZZ&app=%`);
  expect(JSON.parse(answer.body.toString())).toMatchObject({ status: null });
  const pixel = await rawGet(sim, `/TotalControl/v1/devices/${MAIN}/screen/colors?token=${token}&q=col%or&x=%&y=1`);
  expect(JSON.parse(pixel.body.toString())).toEqual({ status: false });
});

test('odd paths answer JSON', async ({ sim }) => {
  for (const path of ['/TotalControl/v1/devices//settings', '/TotalControl/v1/storage', '/_sim', '/TotalControl/v1/devices/device@1/screen/colors/../settings', '*']) {
    const answer = await rawGet(sim, path);
    expect(answer.status, path).toBe(404);
    expect(JSON.parse(answer.body.toString()), path).toMatchObject({ status: null, value: expect.stringContaining('no such route') });
  }
  const token = await login(sim);
  const nul = await rawGet(sim, `/TotalControl/v1/devices/%00/settings?token=${token}`);
  expect(JSON.parse(nul.body.toString())).toEqual({ status: null, value: 'device not found' });
});

test('malformed multipart bodies answer the failure envelope', async ({ sim }) => {
  const token = await login(sim);
  const bodies: { body: Buffer; type: string }[] = [
    { body: randomBytes(50_000), type: 'multipart/form-data; boundary=xyz' },
    { body: multipart([{ name: 'image', filename: 'a.png', data: 'x' }], 'right').body, type: 'multipart/form-data; boundary=wrong' },
    { body: Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n'), type: 'multipart/form-data; boundary=b' },
    { body: Buffer.alloc(0), type: 'multipart/form-data; boundary=b' },
  ];
  for (const [i, { body, type }] of bodies.entries()) {
    const answer = await authed(sim, token, '/storage', { method: 'POST', headers: { 'content-type': type }, body });
    expect(answer.status, `body ${i}`).toBe(200);
    expect(answer.json, `body ${i}`).toEqual({ status: null, value: expect.any(String) });
  }
  // 10,000 header lines in a part: busboy keeps the first 100 and the upload goes through.
  const manyHeaders = Buffer.from(`--b\r\nContent-Disposition: form-data; name="image"; filename="a"\r\n${'X-Header: value\r\n'.repeat(10_000)}\r\nx\r\n--b--\r\n`);
  const answer = await authed(sim, token, '/storage', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: manyHeaders });
  expect(answer.json).toEqual({ status: true, file_url: expect.any(String) });
});

test('random bytes on the socket', async ({ sim }) => {
  for (let i = 0; i < 20; i++) await rawExchange(sim.port, randomBytes(2_000));
});

test.describe('verbose', () => {
  const lines: string[] = [];
  test.use({ simOptions: { verbose: (line) => lines.push(line) } });
  test('logs method, path with the token redacted, status and milliseconds', async ({ sim }) => {
    const token = await login(sim);
    await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=1&y=2`);
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^sim GET \/TotalControl\/v1\/login 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^sim GET \/TotalControl\/v1\/devices\/device@1116106541\/screen\/colors\?q=color&x=1&y=2&token=\*\*\* 200 \d+\.\dms$/);
    expect(lines.join('\n')).not.toContain(token);
  });
});
