// The lab's latency: per operation, added to the faults' latency, never on the admin API, cleared on close;
// one phone's screen reads one at a time while other phones' overlap. Real time, lower bounds only: a busy
// machine makes answers later, never sooner. The bookkeeping itself is checked without a clock.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { LabLatency, labLatency } from '../../src/simulator/lab.js';
import { LAB_PRESET } from '../../src/simulator/index.js';
import { A, admin, authed, B, expect, login, pixelPath, test, TWO_PHONES as SCENARIO, upload } from './harness.js';


test.describe('latency per operation (real time)', () => {
  const MS = 120;
  test.use({ simOptions: { scenario: SCENARIO } });

  for (const op of ['login', 'mainDevice', 'notifications', 'settings', 'pixel', 'upload', 'download', 'inputs', 'texts', 'apps'] as const) {
    test(`${op} is answered no sooner than its latency`, async ({ sim }) => {
      const token = await login(sim);
      const stored = ((await upload(sim, token, 'image', 'BM', 'a.bmp')).json as { file_url: string }).file_url;
      sim.setLab({ latencyMs: { [op]: [MS, MS + 20] } });
      const send: Record<typeof op, () => Promise<unknown>> = {
        login: () => login(sim),
        mainDevice: () => authed(sim, token, '/devices/main'),
        notifications: () => authed(sim, token, '/notifications?position=1&count=1'),
        settings: () => authed(sim, token, `/devices/${A}/settings`),
        pixel: () => authed(sim, token, pixelPath(A)),
        upload: () => upload(sim, token, 'image', 'BM', 'b.bmp'),
        download: () => request(stored).then((r) => r.body.text()),
        inputs: () => authed(sim, token, `/devices/${A}/screen/inputs?x=1&y=1`, { method: 'POST' }),
        texts: () => authed(sim, token, `/devices/${A}/screen/texts`, { method: 'POST', body: '{"text": "hi"}' }),
        apps: () => authed(sim, token, `/devices/${A}/apps?q=foreground_app`),
      };
      const started = performance.now();
      await send[op]();
      expect(performance.now() - started).toBeGreaterThanOrEqual(MS);
      expect(sim.stats().operations[op]).toBeGreaterThanOrEqual(1);
    });
  }

  test('adds to the faults\' latency', async ({ sim }) => {
    const token = await login(sim);
    sim.setFaults({ latencyMs: 100 });
    sim.setLab({ latencyMs: { pixel: 100 } });
    const started = performance.now();
    expect((await authed(sim, token, pixelPath(A))).json).toMatchObject({ status: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  test('never delays the admin API; close() does not wait for answers held back', async ({ sim }) => {
    const token = await login(sim);
    sim.setLab({ latencyMs: { pixel: 60_000, login: 60_000, mainDevice: 60_000, notifications: 60_000, settings: 60_000 } });
    let answered = false;
    const held = authed(sim, token, pixelPath(A)).then(() => (answered = true), (e: Error) => e);
    await expect.poll(() => sim.stats().operations.pixel).toBe(1);
    expect((await admin(sim, 'GET', 'state')).json).toMatchObject({ ok: true, lab: { latencyMs: { pixel: 60_000 } } });
    expect((await admin(sim, 'POST', 'notifications', { device: A, app: 'x', text: 'y' })).status).toBe(200);
    expect(answered).toBe(false);
    const started = performance.now();
    await sim.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await held).toBeInstanceOf(Error);
  });
});

test.describe('serial screen reads (real time)', () => {
  const MS = 100;
  test.use({ simOptions: { scenario: SCENARIO, lab: { latencyMs: { pixel: MS }, serialScreenReads: true } } });

  test('N reads of one phone at once take at least N × the latency', async ({ sim }) => {
    const token = await login(sim);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => authed(sim, token, pixelPath(A))));
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * MS);
    for (const a of answers) expect(a.json).toMatchObject({ status: true, value: { rgb: '0x25425c' } });
  });

  test('a read of another phone does not wait for them', async ({ sim }) => {
    const token = await login(sim);
    const order: string[] = [];
    const reads = Array.from({ length: 5 }, (_, i) => authed(sim, token, pixelPath(A)).then(() => order.push(`a${i}`)));
    // Every read of A is booked (they end 100, 200, … 500 ms after the first) before B's is sent.
    await expect.poll(() => sim.stats().operations.pixel, { intervals: [5] }).toBe(5);
    await authed(sim, token, pixelPath(B)).then(() => order.push('b'));
    await Promise.all(reads);
    expect(order.indexOf('b')).toBeLessThan(order.length - 1);
    expect(order.length - 1 - order.indexOf('b')).toBeGreaterThanOrEqual(2);
  });

  test('settings reads are not serial', async ({ sim }) => {
    sim.setLab({ latencyMs: { settings: 400 }, serialScreenReads: true });
    const token = await login(sim);
    const order: string[] = [];
    const slow = authed(sim, token, `/devices/${A}/settings`).then(() => order.push('settings'));
    await expect.poll(() => sim.stats().operations.settings, { intervals: [5] }).toBe(1);
    await authed(sim, token, pixelPath(A)).then(() => order.push('pixel'));
    await slow;
    expect(order).toEqual(['pixel', 'settings']);
  });
});

test.describe('the lab\'s bookkeeping (no clock: each call says when it is)', () => {
  test('serial reads of one phone start when the previous one ends; other phones and settings overlap', () => {
    const lab = new LabLatency({ latencyMs: { pixel: 10, settings: 10 }, serialScreenReads: true });
    expect([0, 0, 0].map(() => lab.delay('pixel', A, 0))).toEqual([10, 20, 30]);
    expect(lab.delay('pixel', B, 0)).toBe(10);
    expect(lab.delay('settings', A, 0)).toBe(10);
    expect(lab.delay('pixel', A, 25)).toBe(15);
    expect(lab.delay('pixel', A, 100)).toBe(10);
    expect(lab.delay('mainDevice', undefined, 0)).toBe(0);
  });

  test('with a frame grab, only the grab is serial: the round trip comes on top and overlaps', () => {
    const lab = new LabLatency({ latencyMs: { pixel: 50 }, serialScreenReads: true, screenGrabMs: 5 });
    // Three reads at once: grabs end at 5, 10, 15; each answer leaves 50 ms after its grab.
    expect([0, 0, 0].map(() => lab.delay('pixel', A, 0))).toEqual([55, 60, 65]);
    // 200 reads at once end 5 ms apart: the phone serves 200 a second, however long each round trip is.
    const many = Array.from({ length: 200 }, () => lab.delay('pixel', B, 0));
    expect(many.at(-1)! - many[0]!).toBe(199 * 5);
  });

  test('without serial reads every read waits its own latency', () => {
    const lab = new LabLatency({ latencyMs: { pixel: 10 } });
    expect([0, 0, 0].map(() => lab.delay('pixel', A, 0))).toEqual([10, 10, 10]);
  });

  test('a range is drawn uniformly in whole ms, both ends included, the same for a seed', () => {
    const draws = (seed: number) => {
      const lab = new LabLatency({ latencyMs: { pixel: [2, 8] }, seed });
      return Array.from({ length: 2_000 }, () => lab.delay('pixel', undefined, 0));
    };
    const first = draws(7);
    expect(new Set(first)).toEqual(new Set([2, 3, 4, 5, 6, 7, 8]));
    expect(draws(7)).toEqual(first);
    expect(draws(8)).not.toEqual(first);
  });

  test('a lab without latency costs the hot path nothing', () => {
    expect(labLatency(undefined)).toBeUndefined();
    expect(labLatency({ clockOffsetMs: { a: 5 }, serialScreenReads: true, latencyMs: { pixel: 0 } })).toBeUndefined();
    expect(labLatency(LAB_PRESET)).toBeInstanceOf(LabLatency);
  });

  test('a serial frame grab alone holds reads back: no latency per operation is needed beside it', () => {
    const lab = labLatency({ serialScreenReads: true, screenGrabMs: 20 });
    expect(lab).toBeInstanceOf(LabLatency);
    // Three reads of one phone arriving at once: the grabs one after another.
    expect([0, 0, 0].map((now) => lab!.delay('pixel', 'device@1', now))).toEqual([20, 40, 60]);
    // A grab that is not serial, or of 0 ms, holds nothing back.
    expect(labLatency({ serialScreenReads: false, screenGrabMs: 20 })).toBeUndefined();
    expect(labLatency({ serialScreenReads: true, screenGrabMs: 0 })).toBeUndefined();
  });
});
