// Login and the token: the header's exact form, refusals, laziness, sharing, renewal, expiry mid-run.
import type { DeviceClient as Client } from '../../src/client/client.js';
import { isPhonewrightError } from '../../src/core/errors.js';
import { VENDOR_MAIN_DEVICE, type Refusal } from '../helpers/fake-server.js';
import { expect, failure, test } from './harness.js';

const PIXEL = { r: 37, g: 66, b: 92, rgb: '0x25425c' };

test('login sends the base64 of user:password with no scheme word, and nothing else secret', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server, { user: 'sigma', password: '3D391497' });
  expect(await client.login()).toBe('270eq7lXQK8bXYsJ');
  const [login] = server.requests;
  expect(login).toMatchObject({ op: 'login', method: 'GET', path: '/TotalControl/v1/login', rawQuery: '' });
  expect(login!.headers.authorization).toBe('c2lnbWE6M0QzOTE0OTc=');
});

const WRONG_CREDENTIALS: { name: string; rejectLogin: Refusal; says: RegExp }[] = [
  { name: '{"status": false}', rejectLogin: 'false', says: /status": false/ },
  { name: '{"status": null, "value": "…"}', rejectLogin: 'null', says: /wrong user name or password/ },
  { name: 'HTTP 401', rejectLogin: 401, says: /HTTP 401/ },
];

for (const { name, rejectLogin, says } of WRONG_CREDENTIALS) {
  test(`wrong credentials answered ${name} → AuthError naming the user, never the password`, async ({ serve, connect }) => {
    const server = await serve({ rejectLogin, password: 'right-password' });
    const client = connect(server, { user: 'qa-lead', password: 'Wr0ng-Secret' });
    const error = await failure(() => client.pixel(VENDOR_MAIN_DEVICE, 1, 1));
    expect(isPhonewrightError(error, 'PW_AUTH')).toBe(true);
    expect(error.message).toContain('"qa-lead"');
    expect(error.message).toMatch(says);
    expect(error.message).not.toContain('Wr0ng-Secret');
    expect(error.message).not.toContain(Buffer.from('qa-lead:Wr0ng-Secret').toString('base64'));
    // A refused login is not retried, and the operation is never attempted.
    expect(server.count('login')).toBe(1);
    expect(server.count('pixel')).toBe(0);
  });
}

test('a refused login is not remembered: the next call logs in again', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('login', (_req, next) => (server.count('login') === 1 ? { json: { status: false } } : next()));
  const client = connect(server);
  await failure(() => client.mainDevice());
  expect(await client.mainDevice()).toBe(VENDOR_MAIN_DEVICE);
  expect(server.count('login')).toBe(2);
});

test('the token is fetched lazily: no request before the first call, then one login', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  expect(server.count()).toBe(0);
  expect(await client.pixel(VENDOR_MAIN_DEVICE, 10, 10)).toEqual(PIXEL);
  expect(server.requests.map((r) => r.op)).toEqual(['login', 'pixel']);
  expect(server.requests[1]!.token).toBe('270eq7lXQK8bXYsJ');
});

test('50 concurrent calls share one login', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.pixel(VENDOR_MAIN_DEVICE, i, i)));
  expect(results).toEqual(Array(50).fill(PIXEL));
  expect(server.count('login')).toBe(1);
  expect(server.count('pixel')).toBe(50);
  expect(new Set(server.requests.filter((r) => r.op === 'pixel').map((r) => r.token))).toEqual(new Set(['270eq7lXQK8bXYsJ']));
});

const REJECTIONS: Refusal[] = ['null', 'false', 401];

for (const rejectToken of REJECTIONS) {
  test.describe(`a token rejected as ${rejectToken === 'null' ? '{"status": null, "value": "invalid token"}' : rejectToken === 'false' ? '{"status": false}' : 'HTTP 401'}`, () => {
    const OPERATIONS = [
      { name: 'pixel', call: (c: Client) => c.pixel(VENDOR_MAIN_DEVICE, 5, 5), expected: PIXEL },
      { name: 'settings', call: (c: Client) => c.settings(VENDOR_MAIN_DEVICE), expected: expect.objectContaining({ display_hw_decode: 1 }) },
      { name: 'main device', call: (c: Client) => c.mainDevice(), expected: VENDOR_MAIN_DEVICE },
      { name: 'notifications', call: (c: Client) => c.notifications({ position: 1, count: 10 }), expected: [expect.objectContaining({ app: 'com.example.chat' })] },
    ];
    for (const { name, call, expected } of OPERATIONS) {
      test(`${name}: renewed once, the call succeeds`, async ({ serve, connect }) => {
        const server = await serve({ rejectToken });
        server.post({ app: 'com.example.chat', text: 'hi', time: 1_700_000_000_000, id: 'device@1174886816' });
        const client = connect(server);
        await client.login();
        server.expireTokens();
        expect(await call(client)).toEqual(expected);
        expect(server.count('login')).toBe(2);
      });
    }

    test('50 concurrent calls on an expired token share one renewal', async ({ serve, connect }) => {
      const server = await serve({ rejectToken });
      const client = connect(server);
      await client.login();
      server.expireTokens();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.pixel(VENDOR_MAIN_DEVICE, i, 2 * i)));
      expect(results).toEqual(Array(50).fill(PIXEL));
      expect(server.count('login')).toBe(2);
    });

    test('a server that refuses even fresh tokens → AuthError after exactly one renewal', async ({ serve, connect }) => {
      const server = await serve({ rejectToken, tokenUses: 0 });
      const client = connect(server, { user: 'sigma' });
      const error = await failure(() => client.pixel(VENDOR_MAIN_DEVICE, 5, 5));
      expect(error.code).toBe('PW_AUTH');
      expect(error.message).toContain('"sigma"');
      expect(error.message).toMatch(/freshly issued token/);
      expect(server.count('login')).toBe(2);
    });
  });
}

test('a burst on a server whose tokens serve 20 calls: every call answered, each spent token renewed once for all the calls that saw it rejected', async ({ serve, connect }) => {
  const server = await serve({ tokenUses: 20 });
  const client = connect(server);
  await client.login();
  // 90 at once: most tokens are spent within a millisecond of their login, by the burst, not refused.
  const results = await Promise.all(Array.from({ length: 90 }, (_, i) => client.pixel(VENDOR_MAIN_DEVICE, i, i)));
  expect(results).toEqual(Array(90).fill(PIXEL));
  // Each token serves 20 of the 90 calls and their retries: about five, never one per rejected call.
  expect(server.count('login')).toBeLessThanOrEqual(10);
});

test('a token that expires after N calls: every call succeeds, one login per expiry', async ({ serve, connect }) => {
  const server = await serve({ tokenUses: 5 });
  const client = connect(server);
  for (let i = 0; i < 12; i++) expect(await client.pixel(VENDOR_MAIN_DEVICE, i, i)).toEqual(PIXEL);
  // 5 calls per token: 12 calls need 3 tokens.
  expect(server.count('login')).toBe(3);
  expect(server.count('pixel')).toBe(12 + 2);
});

test('a token that expires after a time (server clock): calls keep succeeding with one re-login', async ({ serve, connect }) => {
  const server = await serve({ tokenTtl: 60_000, rejectToken: 'null' });
  const client = connect(server);
  for (let i = 0; i < 5; i++) await client.settings(VENDOR_MAIN_DEVICE);
  server.advance(60_000);
  for (let i = 0; i < 5; i++) await client.settings(VENDOR_MAIN_DEVICE);
  expect(server.count('login')).toBe(2);
  expect(server.tokens).toHaveLength(2);
  const used = server.requests.filter((r) => r.op === 'settings').map((r) => r.token);
  expect(used.at(-1)).toBe(server.tokens[1]);
});

test('a token probe that says the token is fine: a bare {"status": false} is the operation\'s own failure', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('settings', { json: { status: false } });
  const client = connect(server);
  const error = await failure(() => client.settings(VENDOR_MAIN_DEVICE));
  expect(error.code).toBe('PW_SERVICE');
  expect(error.message).toContain(VENDOR_MAIN_DEVICE);
  expect(server.count('login')).toBe(1);
});
