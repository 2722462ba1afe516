// Fault injection: connection resets, bodies that are not JSON, 5xx bursts and rates (seeded), latency.
import { performance } from 'node:perf_hooks';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { MAIN, admin, authed, call, expect, login, test, upload } from './harness.js';

const PIXEL = `/devices/${MAIN}/screen/colors?q=color&x=100&y=100`;

async function statuses(sim: SimulatorHandle, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await authed(sim, token, PIXEL)).status);
  return out;
}

test('resetRate 1 destroys the connection before any answer, only for the operations named', async ({ sim }) => {
  sim.setFaults({ resetRate: 1, operations: ['pixel'] });
  const token = await login(sim);
  await expect(authed(sim, token, PIXEL)).rejects.toThrow(/other side closed|ECONNRESET|socket/i);
  expect((await authed(sim, token, '/devices/main')).json).toEqual({ id: MAIN });
  expect(sim.stats().operations.pixel).toBe(1);
});

test('notJsonRate 1 answers 200 with an HTML body', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ notJsonRate: 1 });
  const answer = await authed(sim, token, PIXEL);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/text\/html/);
  expect(answer.json).toBeUndefined();
  expect(answer.text).toContain('<html>');
});

test('an error burst answers the chosen status to the next N requests, then recovers', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ errorBurst: 2, errorStatus: 502 });
  expect(await statuses(sim, token, 4)).toEqual([502, 502, 200, 200]);
  expect(sim.stats().operations.pixel).toBe(4);
});

test('an error burst on uploads stores nothing', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ errorBurst: 1, operations: ['upload'] });
  expect((await upload(sim, token, 'image', 'x', 'a.png')).status).toBe(503);
  expect((await upload(sim, token, 'image', 'x', 'a.png')).json).toMatchObject({ status: true });
});

test('the acts and the app list take faults too: a burst on them records nothing, the rest still answers', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ errorBurst: 3, errorStatus: 502, operations: ['inputs', 'texts', 'apps'] });
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  const sent = [
    authed(sim, token, `/devices/${MAIN}/screen/inputs`, { ...form, body: 'x=1&y=1' }),
    authed(sim, token, `/devices/${MAIN}/screen/texts`, { ...form, body: 'text=hi' }),
    authed(sim, token, `/devices/${MAIN}/apps?q=foreground_app`),
  ];
  expect((await Promise.all(sent)).map((a) => a.status)).toEqual([502, 502, 502]);
  expect(sim.acts()).toEqual([]);
  expect((await authed(sim, token, `/devices/${MAIN}/screen/inputs`, { ...form, body: 'x=1&y=1' })).json).toEqual({ status: true });
  expect(sim.stats().operations).toMatchObject({ inputs: 2, texts: 1, apps: 1, pixel: 0 });
});

test('an error rate is deterministic for a seed', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ errorRate: 0.5, seed: 42 });
  const first = await statuses(sim, token, 40);
  sim.setFaults({ errorRate: 0.5, seed: 42 });
  expect(await statuses(sim, token, 40)).toEqual(first);
  const failures = first.filter((s) => s === 503).length;
  expect(failures).toBeGreaterThan(8);
  expect(failures).toBeLessThan(32);
  sim.setFaults({ errorRate: 0.5, seed: 7 });
  expect(await statuses(sim, token, 40)).not.toEqual(first);
});

test('latency delays the answer by at least the amount set', async ({ sim }) => {
  const token = await login(sim);
  sim.setFaults({ latencyMs: 250 });
  const started = performance.now();
  const answer = await authed(sim, token, PIXEL);
  expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  expect(answer.json).toMatchObject({ status: true });
});

test('close() does not wait for an answer held back by latency', async () => {
  const sim = await startSimulator({ port: 0, faults: { latencyMs: 60_000, operations: ['mainDevice'] } });
  const token = await login(sim);
  const pending = authed(sim, token, '/devices/main').catch((e: Error) => e);
  await expect.poll(() => sim.stats().operations.mainDevice).toBe(1);
  const started = performance.now();
  await sim.close();
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(await pending).toBeInstanceOf(Error);
});

test('faults never touch the admin API; PUT and DELETE /_sim/faults set and clear them', async ({ sim }) => {
  const token = await login(sim);
  expect((await admin(sim, 'PUT', 'faults', { errorRate: 1, errorStatus: 500 })).json).toMatchObject({ ok: true, faults: { errorRate: 1 } });
  expect((await admin(sim, 'GET', 'state')).status).toBe(200);
  expect((await authed(sim, token, PIXEL)).status).toBe(500);
  expect((await admin(sim, 'DELETE', 'faults')).json).toEqual({ ok: true });
  expect((await authed(sim, token, PIXEL)).status).toBe(200);
});

test('bad fault settings are refused with what to write', async ({ sim }) => {
  const answer = await admin(sim, 'PUT', 'faults', { resetRate: 2 });
  expect(answer.status).toBe(400);
  expect(answer.json).toEqual({ ok: false, error: 'faults.resetRate is 2; write a share from 0 to 1' });
  expect(() => sim.setFaults({ operations: ['teleport'] } as never)).toThrow(/faults.operations/);
  expect(() => sim.setFaults({ errorStatus: 404 })).toThrow(/500 to 599/);
});

test.describe('faults given at start', () => {
  test.use({ simOptions: { faults: { errorBurst: 1, operations: ['login'] } } });
  test('come back after a reset', async ({ sim }) => {
    expect((await call(sim, '/login')).status).toBe(503);
    await login(sim);
    sim.reset();
    expect((await call(sim, '/login')).status).toBe(503);
  });
});
