// The simulator serves the vendor's routes beyond the interface as the reference describes them: the device
// list (the phones connected now), each phone's properties, with the model and size its scenario gives, and
// the screen capture with its image; with capabilities "seed", none is there, as on a server of the
// interface only, answering in the form `missingRoutes` names (HTTP 404, 405 or 501, or the failure envelope).
import { PNG } from 'pngjs';
import { request } from 'undici';
import { startSimulator } from '../../src/simulator/index.js';
import { MAIN, authed, expect, login, test } from './harness.js';

test('the device list and the default phones\' properties: model, maker, size, Android', async ({ sim }) => {
  const token = await login(sim);
  expect((await authed(sim, token, '/devices?q=all')).json).toEqual({ ids: ['device@1116106541', 'device@1174886816', 'device@24681357', 'device@-230441652'] });
  const s9 = (await authed(sim, token, `/devices/${MAIN}`)).json as { status: boolean; value: Record<string, unknown> };
  expect(s9.status).toBe(true);
  expect(s9.value).toMatchObject({ id: MAIN, name: 'galaxy-s9', model: 'SM-G960F', manufacturer: 'samsung', width: 1080, height: 1920, androidVersionRelease: '10', androidVersionSdkInt: 29, orientation: 0 });
  const moto = (await authed(sim, token, '/devices/device@-230441652')).json as { value: Record<string, unknown> };
  expect(moto.value).toMatchObject({ model: 'Moto G (5)', width: 1280, height: 720, orientation: 1 });
  // A phone unplugged leaves the list, and its properties answer as the interface's reads do.
  sim.setOnline(MAIN, false);
  expect(((await authed(sim, token, '/devices?q=all')).json as { ids: string[] }).ids).not.toContain(MAIN);
  expect((await authed(sim, token, `/devices/${MAIN}`)).json).toEqual({ status: null, value: 'device not found' });
  // The token is wanted here too.
  expect((await authed(sim, 'not-a-token', '/devices?q=all')).json).toMatchObject({ status: null });
});

for (const form of [404, 405, 501, 'envelope'] as const) {
  test.describe(`capabilities "seed", missing routes answering ${form === 'envelope' ? 'the failure envelope' : `HTTP ${form}`}`, () => {
    test.use({ simOptions: { capabilities: 'seed', ...(form === 404 ? {} : { missingRoutes: form }) } });
    test('the routes beyond the interface are not there, in that form; the interface is', async ({ sim }) => {
      const token = await login(sim);
      const gets = ['/devices?q=all', `/devices/${MAIN}`, `/devices/${MAIN}/screen/images?type=png&location=pc`];
      const posts = [`/devices/${MAIN}/scripts?cmd=click&param=[1,1]`, `/devices/${MAIN}/apps/com.example.chat?state=active`];
      const answers = [...(await Promise.all(gets.map((path) => authed(sim, token, path)))), ...(await Promise.all(posts.map((path) => authed(sim, token, path, { method: 'POST' }))))];
      for (const [i, answer] of answers.entries()) {
        const path = [...gets, ...posts][i]!;
        expect(answer.status, path).toBe(form === 'envelope' ? 200 : form);
        expect(answer.json, path).toEqual({ status: null, value: expect.stringMatching(/^no such route: (GET|POST) \/TotalControl\/v1\/devices/) });
      }
      expect(sim.acts()).toEqual([]);
      expect(sim.stats()).toMatchObject({ notFound: 5, operations: { deviceList: 0, capture: 0, script: 0 } });
      expect((await authed(sim, token, `/devices/${MAIN}/settings`)).json).toMatchObject({ status: true });
      // A path that is no route at all is not found, whatever the form.
      expect((await authed(sim, token, '/nothing/here')).status).toBe(404);
    });
  });
}

test('missingRoutes takes only the four forms', async () => {
  await expect(startSimulator({ port: 0, capabilities: 'seed', missingRoutes: 502 as never })).rejects.toThrow(
    'invalid missingRoutes 502: expected 404, 405, 501 (the HTTP status a lacking route answers) or "envelope" (HTTP 200 with {"status": null, …})',
  );
});

/** Downloads a capture's image (no token, as in the vendor's example) and decodes it. */
async function image(url: string): Promise<PNG> {
  const res = await request(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  return PNG.sync.read(Buffer.from(await res.body.arrayBuffer()));
}

test('a screen capture: its URL on localhost, the image the rect\'s pixels as reads give them', async ({ sim }) => {
  const token = await login(sim);
  const answer = (await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc&rect=[0,0,48,30]`)).json as { status: boolean; value: string };
  expect(answer.status).toBe(true);
  expect(answer.value).toMatch(new RegExp(`^http://localhost:${sim.port}/1/\\d+\\.png$`));
  const png = await image(answer.value.replace('localhost', '127.0.0.1'));
  expect([png.width, png.height]).toEqual([48, 30]);
  for (const [x, y] of [[0, 0], [47, 29], [20, 10]] as const) {
    const read = ((await authed(sim, token, `/devices/${MAIN}/screen/colors?q=color&x=${x}&y=${y}`)).json as { value: { r: number; g: number; b: number } }).value;
    const o = (y * 48 + x) * 4;
    expect([png.data[o], png.data[o + 1], png.data[o + 2]], `(${x}, ${y})`).toEqual([read.r, read.g, read.b]);
  }
  // Without a rect, the whole screen; saved "on the phone" (the vendor's default location), no image to fetch.
  const whole = (await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc`)).json as { value: string };
  expect([(await image(whole.value.replace('localhost', '127.0.0.1'))).width]).toEqual([1080]);
  expect((await authed(sim, token, `/devices/${MAIN}/screen/images?type=png`)).json).toEqual({ status: true });
  // What it cannot do, in the interface's failure shape.
  expect((await authed(sim, token, `/devices/${MAIN}/screen/images?type=gif&location=pc`)).json).toMatchObject({ status: null, value: expect.stringContaining('type=png, jpg or bmp') });
  expect((await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc&rect=[0,0,1081,10]`)).json).toMatchObject({ status: null, value: expect.stringContaining('not inside the screen (1080×1920)') });
  expect((await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc&rect=0,0,1,1`)).json).toMatchObject({ status: null, value: expect.stringMatching(/^bad rect /) });
  expect((await authed(sim, 'not-a-token', `/devices/${MAIN}/screen/images?type=png&location=pc`)).json).toMatchObject({ status: null, value: 'invalid token' });
});

test.describe('captures in the other forms the vendor\'s pages show', () => {
  test.use({ simOptions: { behaviour: { captureUrl: 'file_url', captureRect: 'inclusive' } } });
  test('file_url, and a rect that takes its bottom-right corner in', async ({ sim }) => {
    const token = await login(sim);
    const answer = (await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc&rect=[10,10,20,15]`)).json as { file_url: string };
    const png = await image(answer.file_url.replace('localhost', '127.0.0.1'));
    expect([png.width, png.height]).toEqual([11, 6]);
    sim.setBehaviour({ captureUrl: 'value-relative' });
    const relative = (await authed(sim, token, `/devices/${MAIN}/screen/images?type=png&location=pc&rect=[0,0,1,1]`)).json as { value: string };
    expect(relative.value).toMatch(/^\/1\/\d+\.png$/);
  });
});

test('acts: taps, keys and apps are recorded in order, an app launched is in front, the token is wanted', async ({ sim }) => {
  const token = await login(sim);
  const post = (path: string) => authed(sim, token, path, { method: 'POST' });
  expect((await post(`/devices/${MAIN}/scripts?cmd=click&param=[540,1200]`)).json).toEqual({ status: true, value: '0' });
  expect((await post(`/devices/${MAIN}/scripts?cmd=click&param=[0.5,0.25]`)).json).toEqual({ status: true, value: '0' });
  expect((await post(`/devices/${MAIN}/scripts?cmd=send&param=sigmaConst.KEY_BACK`)).json).toEqual({ status: true, value: '0' });
  expect((await post(`/devices/${MAIN}/apps/com.example.chat?state=active`)).json).toEqual({ status: true, value: 'make it active' });
  expect(((await authed(sim, token, `/devices/${MAIN}`)).json as { value: { foregroundapp: string } }).value.foregroundapp).toBe('com.example.chat');
  expect((await post(`/devices/${MAIN}/apps/com.example.chat?state=inactive`)).json).toEqual({ status: true, value: 'make it inactive' });
  expect(sim.acts().map(({ at: _, ...act }) => act)).toEqual([
    { device: MAIN, via: 'script', kind: 'tap', x: 540, y: 1200 },
    { device: MAIN, via: 'script', kind: 'tap', x: 540, y: 480 },
    { device: MAIN, via: 'script', kind: 'key', key: 'KEY_BACK' },
    { device: MAIN, via: 'apps', kind: 'app', app: 'com.example.chat', state: 'active' },
    { device: MAIN, via: 'apps', kind: 'app', app: 'com.example.chat', state: 'inactive' },
  ]);
  // What it cannot do, in the interface's failure shape, and nothing recorded.
  for (const path of [`/devices/${MAIN}/scripts?cmd=click&param=[5000,5]`, `/devices/${MAIN}/scripts?cmd=swipe&param=[1,2]`, `/devices/${MAIN}/scripts?cmd=send&param=BACK`, `/devices/${MAIN}/apps/com.example.chat?state=paused`]) {
    expect((await post(path)).json, path).toMatchObject({ status: null });
  }
  expect((await post('/devices/device@1/scripts?cmd=click&param=[1,1]')).json).toEqual({ status: null, value: 'device not found' });
  expect((await authed(sim, 'not-a-token', `/devices/${MAIN}/scripts?cmd=click&param=[1,1]`, { method: 'POST' })).json).toMatchObject({ value: 'invalid token' });
  expect(sim.acts()).toHaveLength(5);
  expect((await authed(sim, token, `/devices/${MAIN}/scripts?cmd=click&param=[1,1]`)).status, 'an act is a POST: a GET finds no route').toBe(404);
});
