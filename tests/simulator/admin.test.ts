// The admin API under /_sim/: refused without the key; screens, notifications, settings, online, reset.
import { PNG } from 'pngjs';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { MAIN, T0, admin, authed, call, expect, login, test } from './harness.js';

function png(width: number, height: number, rgb: [number, number, number], spot?: { x: number; y: number; rgb: [number, number, number] }): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...rgb, 255], i * 4);
  if (spot) image.data.set([...spot.rgb, 255], (spot.y * width + spot.x) * 4);
  return PNG.sync.write(image);
}
async function pixel(sim: SimulatorHandle, x: number, y: number, device = MAIN): Promise<unknown> {
  return (await authed(sim, await login(sim), `/devices/${device}/screen/colors?q=color&x=${x}&y=${y}`)).json;
}

test('every admin route is refused with 403 without the key, or with a wrong one', async ({ sim }) => {
  for (const [method, path] of [['GET', 'state'], ['POST', 'reset'], ['PUT', 'faults'], ['POST', `phones/${MAIN}/offline`], ['POST', 'notifications'], ['GET', 'nothing']]) {
    for (const key of [null, 'wrong-key-123', `${sim.adminKey}x`]) {
      const answer = await admin(sim, method!, path!, undefined, key);
      expect(answer.status, `${method} ${path} ${key}`).toBe(403);
      expect(answer.json).toEqual({ ok: false, error: expect.stringContaining('x-sim-admin-key') });
    }
  }
  // Nothing happened: the phone is still online.
  expect(sim.phones.find((p) => p.id === MAIN)!.online).toBe(true);
});

test('the admin key is random per start unless given', async ({ sim }) => {
  expect(sim.adminKey).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  const { startSimulator } = await import('../../src/simulator/index.js');
  const other = await startSimulator({ port: 0, adminKey: 'given-key-1' });
  try {
    expect(other.adminKey).toBe('given-key-1');
    expect(other.adminKey).not.toBe(sim.adminKey);
    expect((await admin(other, 'GET', 'state', undefined, 'given-key-1')).status).toBe(200);
  } finally {
    await other.close();
  }
});

test('the admin API is not under the API root', async ({ sim }) => {
  const answer = await call(sim, '/_sim/state', { headers: { 'x-sim-admin-key': sim.adminKey } });
  expect(answer.status).toBe(404);
});

test('GET state lists the phones, the main one, behaviour and counters', async ({ sim }) => {
  const answer = await admin(sim, 'GET', 'state');
  expect(answer.json).toMatchObject({
    ok: true,
    main: MAIN,
    phones: expect.arrayContaining([{ id: MAIN, name: 'galaxy-s9', width: 1080, height: 1920, orientation: 'portrait', main: true, online: true, clockOffsetMs: 0, frozen: false, finger: null, screen: null }]),
    behaviour: { notificationOrder: 'oldest-first' },
    lab: false,
    startMs: T0,
  });
});

test('PUT a PNG screen: pixels come from it, and a new size changes the reported resolution', async ({ sim }) => {
  const answer = await admin(sim, 'PUT', `phones/${MAIN}/screen`, png(300, 200, [1, 2, 3], { x: 10, y: 20, rgb: [250, 0, 128] }));
  expect(answer.json).toMatchObject({ ok: true, phone: { width: 300, height: 200, orientation: 'landscape' } });
  expect(await pixel(sim, 10, 20)).toEqual({ status: true, value: { r: 250, g: 0, b: 128, rgb: '0xfa0080' } });
  expect(await pixel(sim, 0, 0)).toEqual({ status: true, value: { r: 1, g: 2, b: 3, rgb: '0x010203' } });
  expect(await pixel(sim, 300, 0)).toEqual({ status: false });
  const settings = (await authed(sim, await login(sim), `/devices/${MAIN}/settings`)).json;
  expect(settings).toMatchObject({ value: { display_resolution: '300*200', display_orientation: 2 } });
});

test('PUT a screen that is not a PNG is refused with 400 and changes nothing', async ({ sim }) => {
  const answer = await admin(sim, 'PUT', `phones/${MAIN}/screen`, Buffer.from('not a png'));
  expect(answer.status).toBe(400);
  expect(await pixel(sim, 100, 100)).toMatchObject({ value: { rgb: '0x25425c' } });
});

test('PUT a drawn screen as JSON', async ({ sim }) => {
  await admin(sim, 'PUT', `phones/${MAIN}/screen`, { width: 1080, height: 1920, fill: '#00ff00', rects: [{ x: 0, y: 0, width: 48, height: 48, color: '0x0000ff' }] });
  expect(await pixel(sim, 47, 47)).toMatchObject({ value: { rgb: '0x0000ff' } });
  expect(await pixel(sim, 48, 48)).toMatchObject({ value: { rgb: '0x00ff00' } });
});

test('GET the screen as a PNG of the phone\'s size', async ({ sim }) => {
  const res = await fetch(`${sim.url}/_sim/phones/${MAIN}/screen`, { headers: { 'x-sim-admin-key': sim.adminKey } });
  expect(res.headers.get('content-type')).toBe('image/png');
  const image = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  expect([image.width, image.height]).toEqual([1080, 1920]);
  const o = (100 * 1080 + 100) * 4;
  expect([...image.data.subarray(o, o + 3)]).toEqual([0x25, 0x42, 0x5c]);
});

test('POST a rectangle paints it', async ({ sim }) => {
  const answer = await admin(sim, 'POST', `phones/${MAIN}/rect`, { x: 90, y: 90, width: 20, height: 20, color: '0xabcdef' });
  expect(answer.json).toEqual({ ok: true });
  expect(await pixel(sim, 100, 100)).toMatchObject({ value: { rgb: '0xabcdef' } });
  expect(await pixel(sim, 110, 110)).toMatchObject({ value: { rgb: '0x25425c' } });
});

test('POST a rectangle with a bad colour is refused with what to write', async ({ sim }) => {
  const answer = await admin(sim, 'POST', `phones/${MAIN}/rect`, { x: 0, y: 0, width: 1, height: 1, color: 'blue' });
  expect(answer.status).toBe(400);
  expect(answer.json).toEqual({ ok: false, error: 'rect.color is "blue"; write a colour such as "0x25425c"' });
});

test('POST a notification: it is read back with the clock\'s time', async ({ sim }) => {
  const answer = await admin(sim, 'POST', 'notifications', { device: MAIN, app: 'com.example.chat', text: 'Your code is 123456' });
  expect(answer.json).toEqual({ ok: true, notification: { app: 'com.example.chat', text: 'Your code is 123456', time: T0, id: MAIN } });
  const read = await authed(sim, await login(sim), `/notifications?position=1&count=5&device=${MAIN}`);
  expect(read.json).toEqual({ status: true, value: [{ app: 'com.example.chat', text: 'Your code is 123456', time: T0, id: MAIN }] });
});

test('PATCH settings changes what the phone reports', async ({ sim }) => {
  const answer = await admin(sim, 'PATCH', `phones/${MAIN}/settings`, { display_quality: 3, display_hw_decode: 0 });
  expect(answer.json).toMatchObject({ ok: true, settings: { display_quality: 3, display_hw_decode: 0 } });
  expect((await authed(sim, await login(sim), `/devices/${MAIN}/settings`)).json).toMatchObject({ value: { display_quality: 3, display_hw_decode: 0, display_mode: 1 } });
  expect((await admin(sim, 'PATCH', `phones/${MAIN}/settings`, { display_quality: 9 })).status).toBe(400);
});

test('POST offline and online', async ({ sim }) => {
  await admin(sim, 'POST', `phones/${MAIN}/offline`);
  expect(await pixel(sim, 1, 1)).toEqual({ status: false });
  await admin(sim, 'POST', `phones/${MAIN}/online`);
  expect(await pixel(sim, 1, 1)).toMatchObject({ status: true });
});

test('POST tokens/expire ends every session', async ({ sim }) => {
  const token = await login(sim);
  await admin(sim, 'POST', 'tokens/expire');
  expect((await authed(sim, token, '/devices/main')).json).toEqual({ status: null, value: 'invalid token' });
});

test('POST reset puts phones, messages, faults and tokens back', async ({ sim }) => {
  const token = await login(sim);
  sim.fillRect(MAIN, { x: 0, y: 0, width: 1080, height: 1920, color: '0x000000' });
  sim.setOnline('device@-230441652', false);
  sim.postNotification({ device: MAIN, app: 'a', text: 'b' });
  sim.setFaults({ errorBurst: 100 });
  expect((await admin(sim, 'POST', 'reset')).json).toEqual({ ok: true });
  expect((await authed(sim, token, '/devices/main')).json).toEqual({ status: null, value: 'invalid token' });
  expect(await pixel(sim, 100, 100)).toMatchObject({ value: { rgb: '0x25425c' } });
  expect(sim.phones.every((p) => p.online)).toBe(true);
  const notes = (await authed(sim, await login(sim), '/notifications?position=1&count=10')).json as { value: unknown[] };
  expect(notes.value).toHaveLength(1);
});

test('mistakes: unknown phone 404, unknown route 404, wrong method 405, bad JSON 400', async ({ sim }) => {
  expect((await admin(sim, 'POST', 'phones/device@5/offline')).status).toBe(404);
  expect((await admin(sim, 'GET', 'nothing/here')).status).toBe(404);
  expect((await admin(sim, 'GET', 'reset')).status).toBe(405);
  const bad = await call(sim, '//_sim/notifications', { method: 'POST', headers: { 'x-sim-admin-key': sim.adminKey, 'content-type': 'application/json' }, body: '{nope' });
  expect(bad.status).toBe(400);
  expect(bad.json).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
});

// Each JSON body is checked into the type its state method takes: a value of the wrong type, a stray key or
// a value out of range is refused with 400 and a message that names the field and what to write.
const BAD_BODIES: { method: string; path: string; body: unknown; error: string | RegExp }[] = [
  { method: 'PUT', path: 'faults', body: { errorBurst: 'two' }, error: 'faults.errorBurst is "two"; write an integer from 0 to 1000000' },
  { method: 'PUT', path: 'faults', body: [1], error: /^faults must be an object/ },
  { method: 'PATCH', path: 'behaviour', body: { tokenFailure: 'maybe' }, error: /^behaviour\.tokenFailure is "maybe"; write one of "message", "false", "http401"$/ },
  { method: 'PUT', path: 'lab', body: 'yes', error: /^lab is "yes"; write true/ },
  { method: 'POST', path: 'notifications', body: { device: MAIN, app: 7, text: 'hi' }, error: 'notification.app must be a package name, e.g. "com.example.chat"' },
  { method: 'POST', path: 'notifications', body: { device: MAIN, app: 'a', text: 'hi', sender: 'x' }, error: /^notification\.sender is not a known key/ },
  { method: 'POST', path: 'notifications', body: { device: 12, app: 'a', text: 'hi' }, error: /^notification\.device must be the id of a phone/ },
  { method: 'POST', path: 'notifications', body: { device: MAIN, app: 'a', text: 'hi', time: 'now' }, error: 'notification.time must be milliseconds since the epoch' },
  { method: 'POST', path: `phones/${MAIN}/rect`, body: { x: '0', y: 0, width: 1, height: 1, color: '0x000000' }, error: 'rect.x must be an integer number of pixels' },
  { method: 'POST', path: `phones/${MAIN}/rect`, body: { x: -1, y: 0, width: 1, height: 1, color: '0x000000' }, error: /^rect\.x is -1; write an integer from 0 to/ },
  { method: 'PUT', path: `phones/${MAIN}/screen`, body: { width: 10, height: 10, rects: [{ x: 0, y: 0, width: 1, height: 1, color: 5 }] }, error: 'screen.rects[0].color must be a colour such as "0x25425c"' },
  { method: 'PUT', path: `phones/${MAIN}/screen`, body: { width: 10, height: 10, rects: {} }, error: /^screen\.rects must be a list/ },
  { method: 'PATCH', path: `phones/${MAIN}/settings`, body: { display_quality: 'high' }, error: /^settings\.display_quality is "high"; write one of/ },
  { method: 'PATCH', path: `phones/${MAIN}/clock`, body: { offsetMs: '5m' }, error: /^offsetMs is "5m"; write the clock offset in milliseconds/ },
];

test('every JSON body is checked into its type: a bad one is refused with 400 naming the field, and changes nothing', async ({ sim }) => {
  // The state without its request counters, which count these requests too.
  const state = async () => ({ ...((await admin(sim, 'GET', 'state')).json as object), stats: undefined });
  const before = await state();
  for (const { method, path, body, error } of BAD_BODIES) {
    const answer = await admin(sim, method, path, body);
    expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
    expect(answer.json, `${method} ${path} ${JSON.stringify(body)}`).toEqual({ ok: false, error: typeof error === 'string' ? error : expect.stringMatching(error) });
  }
  expect(await state()).toEqual(before);
});
