// The six operations against the interface and the vendor's verbatim example bodies (as its documentation gives them).
import { MAIN, T0, VENDOR_AUTH, authed, call, curl, expect, login, test } from './harness.js';

test.describe('login', () => {
  test('the vendor\'s header without a scheme word gets a 16-character token', async ({ sim }) => {
    const answer = await call(sim, '/login', { headers: { authorization: VENDOR_AUTH } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: true, value: { token: expect.stringMatching(/^[A-Za-z0-9]{16}$/) } });
  });

  test('the vendor\'s curl example works verbatim (curl, a client no one here wrote)', async ({ sim }) => {
    const out = await curl(['-H', `Authorization: ${VENDOR_AUTH}`, `${sim.url}/TotalControl/v1/login`]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ status: true, value: { token: expect.stringMatching(/^[A-Za-z0-9]{16}$/) } });
  });

  test('"Basic" before the credentials is accepted too', async ({ sim }) => {
    const answer = await call(sim, '/login', { headers: { authorization: `Basic ${VENDOR_AUTH}` } });
    expect((answer.json as { status: boolean }).status).toBe(true);
  });

  for (const [what, header] of [
    ['a wrong password', Buffer.from('sigma:nope').toString('base64')],
    ['a wrong user', Buffer.from('root:3D391497').toString('base64')],
    ['no header', undefined],
    ['garbage', '%%%'],
  ] as const) {
    test(`${what} answers {"status": null}, as the vendor documents a failure`, async ({ sim }) => {
      const answer = await call(sim, '/login', { headers: header === undefined ? {} : { authorization: header } });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ status: null, value: 'wrong user name or password' });
    });
  }

  test('each login hands out a different token, and all of them work', async ({ sim }) => {
    const a = await login(sim);
    const b = await login(sim);
    expect(a).not.toBe(b);
    expect((await authed(sim, a, '/devices/main')).json).toEqual({ id: MAIN });
    expect((await authed(sim, b, '/devices/main')).json).toEqual({ id: MAIN });
  });

  test.describe('with credentials of one\'s own', () => {
    test.use({ simOptions: { user: 'qa', password: 's3cret!' } });
    test('they work and the vendor\'s do not', async ({ sim }) => {
      expect((await call(sim, '/login', { headers: { authorization: VENDOR_AUTH } })).json).toEqual({ status: null, value: 'wrong user name or password' });
      const token = await login(sim, Buffer.from('qa:s3cret!').toString('base64'));
      expect(token).toMatch(/^[A-Za-z0-9]{16}$/);
    });
  });
});

test.describe('tokens', () => {
  for (const [what, query] of [
    ['missing', ''],
    ['wrong', '?token=AAAAAAAAAAAAAAAA'],
    ['too short', '?token=abc'],
    ['badly encoded', '?token=%E0%A4%A'],
  ] as const) {
    test(`a ${what} token answers {"status": null, "value": "invalid token"} on every operation`, async ({ sim }) => {
      for (const path of ['/devices/main', `/devices/${MAIN}/settings`, `/devices/${MAIN}/screen/colors`, '/notifications']) {
        const sep = query && path.includes('?') ? '&' : '';
        const answer = await call(sim, `${path}${sep}${query}`);
        expect(answer.status, path).toBe(200);
        expect(answer.json, path).toEqual({ status: null, value: 'invalid token' });
      }
    });
  }

  test('a token stops working after expireTokens(); logging in again works', async ({ sim }) => {
    const token = await login(sim);
    sim.expireTokens();
    expect((await authed(sim, token, '/devices/main')).json).toEqual({ status: null, value: 'invalid token' });
    expect((await authed(sim, await login(sim), '/devices/main')).json).toEqual({ id: MAIN });
  });
});

test.describe('main device', () => {
  test('answers {"id": "device@1116106541"} with no status key', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), '/devices/main');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"id":"device@1116106541"}');
  });
});

test.describe('settings', () => {
  test('the main phone answers the vendor\'s sample body (display_hw_decode as a number by default)', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), `/devices/${MAIN}/settings`);
    expect(answer.json).toEqual({
      status: true,
      value: { display_mode: 1, display_quality: 2, display_accl: 2, display_hw_decode: 1, display_resolution_mode: 2, display_orientation: 1, display_resolution: '1080*1920' },
    });
    // Field order as in the sample body.
    expect(Object.keys((answer.json as { value: object }).value)).toEqual(['display_mode', 'display_quality', 'display_accl', 'display_hw_decode', 'display_resolution_mode', 'display_orientation', 'display_resolution']);
  });

  test('a landscape phone with a negative id reports its own size and orientation', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), '/devices/device@-230441652/settings');
    expect(answer.json).toMatchObject({ status: true, value: { display_orientation: 2, display_resolution: '1280*720', display_hw_decode: 0 } });
  });

  test('the device id may be percent-encoded in the path', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), `/devices/device%401116106541/settings`);
    expect(answer.json).toMatchObject({ status: true });
  });

  test('an unknown or offline phone answers "device not found"', async ({ sim }) => {
    const token = await login(sim);
    expect((await authed(sim, token, '/devices/device@42/settings')).json).toEqual({ status: null, value: 'device not found' });
    sim.setOnline(MAIN, false);
    expect((await authed(sim, token, `/devices/${MAIN}/settings`)).json).toEqual({ status: null, value: 'device not found' });
    sim.setOnline(MAIN, true);
    expect((await authed(sim, token, `/devices/${MAIN}/settings`)).json).toMatchObject({ status: true });
  });
});

test.describe('pixel colour', () => {
  test('pixel (100, 100) of the main phone is the vendor\'s example, verbatim', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), `/devices/${MAIN}/screen/colors?q=color&x=100&y=100`);
    expect(answer.text).toBe('{"status":true,"value":{"r":37,"g":66,"b":92,"rgb":"0x25425c"}}');
  });

  test('the status bar and an app icon have their own colours', async ({ sim }) => {
    const token = await login(sim);
    const rgb = async (x: number, y: number) => ((await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=${x}&y=${y}`)).json as { value: { rgb: string } }).value.rgb;
    expect(await rgb(5, 5)).toBe('0x101820');
    expect(await rgb(20, 20)).toBe('0xffffff');
    expect(await rgb(1079, 1919)).toBe('0x1c2b36');
    const icon = await rgb(100 + 72, 324 + 72);
    expect(icon).not.toBe('0x25425c');
  });

  for (const [what, query] of [
    ['x past the right edge', 'q=color&x=1080&y=0'],
    ['y past the bottom edge', 'q=color&x=0&y=1920'],
    ['a negative x', 'q=color&x=-1&y=0'],
    ['x not a number', 'q=color&x=ten&y=0'],
    ['no y', 'q=color&x=1'],
    ['q missing', 'x=1&y=1'],
  ] as const) {
    test(`${what} answers {"status": false}`, async ({ sim }) => {
      const answer = await authed(sim, await login(sim), `/devices/${MAIN}/screen/colors?${query}`);
      expect(answer.text).toBe('{"status":false}');
    });
  }

  test('an unknown or offline phone answers {"status": false}', async ({ sim }) => {
    const token = await login(sim);
    expect((await authed(sim, token, '/devices/device@42/screen/colors?q=color&x=1&y=1')).text).toBe('{"status":false}');
    sim.setOnline(MAIN, false);
    expect((await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=1&y=1`)).text).toBe('{"status":false}');
  });
});

test.describe('notifications', () => {
  test('the vendor\'s example message is held on the Pixel 7 from the start, Unicode text and ms time', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), '/notifications?position=1&count=10');
    expect(answer.json).toEqual({ status: true, value: [{ app: 'com.sigma_rt.totalcontrol', text: '点击进入程序', time: T0, id: 'device@1174886816' }] });
  });
});

test.describe('routes', () => {
  test('an unknown route answers a JSON 404', async ({ sim }) => {
    for (const path of ['//', '//favicon.ico', '/nope', '/devices/device@1/nothing', '//TotalControl/v3/login', '//TotalControl/login']) {
      const answer = await call(sim, path);
      expect(answer.status, path).toBe(404);
      expect(answer.json, path).toMatchObject({ status: null, value: expect.stringContaining('no such route') });
    }
  });

  test('a write to a read operation answers 405', async ({ sim }) => {
    const answer = await authed(sim, await login(sim), '/devices/main', { method: 'DELETE' });
    expect(answer.status).toBe(405);
  });

  test.describe('under another API root', () => {
    test.use({ simOptions: { apiRoot: '/Service/v1' } });
    test('the interface document\'s prefix works and the default one is gone', async ({ sim }) => {
      expect(sim.apiRoot).toBe('/Service/v1');
      const token = await login(sim);
      expect((await call(sim, `//Service/v1/devices/main?token=${token}`)).json).toEqual({ id: MAIN });
      expect((await call(sim, `//TotalControl/v1/devices/main?token=${token}`)).status).toBe(404);
      // Its sibling root is served too, with the same token.
      expect((await call(sim, `//Service/v2/devices/main?token=${token}`)).json).toEqual({ id: MAIN });
      expect(sim.apiRoots).toEqual(['/Service/v1', '/Service/v2']);
    });
  });

  test('stats count the requests per operation', async ({ sim }) => {
    const token = await login(sim);
    await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=1&y=1`);
    await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=2&y=1`);
    await authed(sim, token, '/devices/main');
    await call(sim, '/nope');
    const stats = sim.stats();
    expect(stats.operations).toMatchObject({ login: 1, pixel: 2, mainDevice: 1, settings: 0 });
    expect(stats.notFound).toBe(1);
    expect(stats.total).toBe(4);
  });
});
