// Requests taken and never answered: a frozen phone's own routes, and the hangRate fault. Nothing here
// sleeps: "no answer" is seen as other requests being answered meanwhile, then the client gives up.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { FaultInjector } from '../../src/simulator/faults.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { A, admin, authed, B, expect, login, pixelPath, test, TWO_PHONES as SCENARIO } from './harness.js';


/** A request the test can give up on; `settled` tells whether any answer (or error) came. */
function pending(sim: SimulatorHandle, token: string, path: string) {
  const controller = new AbortController();
  const state = { settled: false };
  const url = `${sim.url}${sim.apiRoot}${path}${path.includes('?') ? '&' : '?'}token=${token}`;
  const outcome = request(url, { signal: controller.signal })
    .then((res) => res.body.text())
    .then(
      (text) => ({ text }),
      (error: Error) => ({ error }),
    )
    .finally(() => (state.settled = true));
  return { outcome, abort: () => controller.abort(), state };
}

const log: string[] = [];
test.use({ simOptions: { scenario: SCENARIO, verbose: (line) => log.push(line) } });
test.beforeEach(() => void (log.length = 0));

test('a frozen phone takes its pixel and settings requests and never answers; the rest of the server does', async ({ sim }) => {
  const token = await login(sim);
  sim.freeze(A);
  expect(sim.phones.find((p) => p.id === A)).toMatchObject({ frozen: true });
  const pixel = pending(sim, token, pixelPath(A));
  const settings = pending(sim, token, `/devices/${A}/settings`);
  await expect.poll(() => sim.stats().operations.pixel + sim.stats().operations.settings).toBe(2);
  // Everything else answers meanwhile: the other phone, the main device, the server-wide list.
  sim.postNotification({ device: A, app: 'com.x', text: 'still listed' });
  expect((await authed(sim, token, pixelPath(B))).json).toMatchObject({ status: true, value: { rgb: '0x101820' } });
  expect((await authed(sim, token, `/devices/${B}/settings`)).json).toMatchObject({ status: true });
  expect((await authed(sim, token, `/notifications?position=1&count=5&device=${A}`)).json).toMatchObject({ status: true, value: [{ text: 'still listed' }] });
  expect((await authed(sim, token, '/devices/main')).json).toEqual({ id: A });
  expect([pixel.state.settled, settings.state.settled]).toEqual([false, false]);
  // The client gives up: its request fails on its side, and the server lets go of it.
  pixel.abort();
  settings.abort();
  expect(await pixel.outcome).toMatchObject({ error: { name: 'AbortError' } });
  expect(await settings.outcome).toMatchObject({ error: { name: 'AbortError' } });
  await expect.poll(() => log.filter((l) => / no answer /.test(l)).length).toBe(2);
});

test('after thaw, new requests are answered; close() with a request still held resolves promptly', async ({ sim }) => {
  const token = await login(sim);
  sim.freeze(A);
  const held = pending(sim, token, pixelPath(A));
  await expect.poll(() => sim.stats().operations.pixel).toBe(1);
  sim.thaw(A);
  expect(sim.phones.find((p) => p.id === A)).toMatchObject({ frozen: false });
  expect((await authed(sim, token, pixelPath(A))).json).toMatchObject({ status: true, value: { rgb: '0x25425c' } });
  expect(held.state.settled).toBe(false);
  const started = performance.now();
  await sim.close();
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(await held.outcome).toMatchObject({ error: expect.any(Error) });
});

test('POST /_sim/phones/<id>/freeze and thaw; GET state shows it; reset() thaws', async ({ sim }) => {
  expect((await admin(sim, 'POST', `phones/${B}/freeze`)).json).toMatchObject({ ok: true, phone: { id: B, frozen: true } });
  expect((await admin(sim, 'GET', 'state')).json).toMatchObject({ phones: [{ id: A, frozen: false }, { id: B, frozen: true }] });
  expect((await admin(sim, 'POST', `phones/${B}/thaw`)).json).toMatchObject({ ok: true, phone: { id: B, frozen: false } });
  expect((await admin(sim, 'GET', `phones/${B}/freeze`)).status).toBe(405);
  expect((await admin(sim, 'POST', 'phones/device@5/freeze')).status).toBe(404);
  sim.freeze(A);
  sim.freeze(A);
  sim.reset();
  expect(sim.phones.every((p) => !p.frozen)).toBe(true);
  expect((await authed(sim, await login(sim), pixelPath(A))).json).toMatchObject({ status: true });
});

test('hangRate 1 on notifications is a stuck list; the other operations answer', async ({ sim }) => {
  const token = await login(sim);
  expect((await admin(sim, 'PUT', 'faults', { hangRate: 1, operations: ['notifications'] })).json).toMatchObject({ ok: true, faults: { hangRate: 1 } });
  const stuck = pending(sim, token, '/notifications?position=1&count=5');
  await expect.poll(() => sim.stats().operations.notifications).toBe(1);
  expect((await authed(sim, token, pixelPath(A))).json).toMatchObject({ status: true });
  expect((await authed(sim, token, '/devices/main')).json).toEqual({ id: A });
  expect(stuck.state.settled).toBe(false);
  stuck.abort();
  expect(await stuck.outcome).toMatchObject({ error: { name: 'AbortError' } });
  sim.setFaults(undefined);
  expect((await authed(sim, token, '/notifications?position=1&count=5')).json).toEqual({ status: true, value: [] });
});

test('a hung upload reads and drops its body, and stores nothing', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ hangRate: 1, operations: ['upload'] });
  const body = Buffer.alloc(256 * 1024, 1);
  const controller = new AbortController();
  const sent = request(`${sim.url}${sim.apiRoot}/storage?token=${token}`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body: Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="image"; filename="a.bmp"\r\n\r\n'), body, Buffer.from('\r\n--b--\r\n')]),
    signal: controller.signal,
  }).catch((e: Error) => e);
  await expect.poll(() => sim.stats().operations.upload).toBe(1);
  controller.abort();
  expect(await sent).toMatchObject({ name: 'AbortError' });
});

test('hangRate is drawn from the seed like the other rates, after them', () => {
  const decide = (spec: Parameters<FaultInjector['set']>[0]) => {
    const faults = new FaultInjector();
    faults.set(spec);
    return Array.from({ length: 40 }, () => faults.decide('pixel')?.action ?? 'none');
  };
  const first = decide({ hangRate: 0.5, seed: 3 });
  expect(new Set(first)).toEqual(new Set(['hang', 'none']));
  expect(decide({ hangRate: 0.5, seed: 3 })).toEqual(first);
  // A spec without hangRate draws as it did before hangRate existed.
  expect(decide({ errorRate: 0.5, seed: 3 }).map((a) => a === 'error')).toEqual(decide({ errorRate: 0.5, hangRate: 0, seed: 3 }).map((a) => a === 'error'));
  expect(decide({ resetRate: 1, hangRate: 1 })).toEqual(Array(40).fill('reset'));
});

for (const [value, message] of [
  [2, 'faults.hangRate is 2; write a share from 0 to 1'],
  ['all', 'faults.hangRate is "all"; write a share from 0 to 1'],
] as const) {
  test(`hangRate ${JSON.stringify(value)} is refused with what to write`, async ({ sim }) => {
    const answer = await admin(sim, 'PUT', 'faults', { hangRate: value });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ ok: false, error: message });
    expect(() => sim.setFaults({ hangRate: value as number })).toThrow(message);
  });
}
