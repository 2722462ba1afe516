// The simulator serves the vendor's routes beyond the interface as the reference describes them: the device
// list (the phones connected now) and each phone's properties, with the model and size its scenario gives;
// with capabilities "seed", neither is there, as on a server of the interface only.
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

test.describe('capabilities "seed"', () => {
  test.use({ simOptions: { capabilities: 'seed' } });
  test('the routes beyond the interface are not there; the interface is', async ({ sim }) => {
    const token = await login(sim);
    for (const path of ['/devices?q=all', `/devices/${MAIN}`]) expect((await authed(sim, token, path)).status, path).toBe(404);
    expect((await authed(sim, token, `/devices/${MAIN}/settings`)).json).toMatchObject({ status: true });
  });
});
