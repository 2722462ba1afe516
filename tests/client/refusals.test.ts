// A server's refusal of a call's own arguments is never taken for a route it lacks: a capture refused for its
// rectangle, on a server that captures, fails with the server's message and decides nothing, and the next
// capture is made; a rectangle off a screen whose size the client has read is refused before it is sent.
import { capturing } from '../helpers/vendor-capture.js';
import { VENDOR_MAIN_DEVICE as PHONE } from '../helpers/fake-server.js';
import { expect, failure, test } from './harness.js';

const SMALL = { id: 'device@795844152', name: 'phone-b' };
const SCENARIO = { phones: [{ ...SMALL, screen: { width: 720, height: 1280, fill: '0x25425c' } }] };

test('on the simulator: a rectangle off the screen, the screen not yet read, is the server\'s refusal; the next capture is made', async ({ startSim, connect }) => {
  const sim = await startSim({ scenario: SCENARIO });
  const client = connect(sim.url);
  const refused = await failure(() => client.capture(SMALL.id, { x: 700, y: 1270, width: 50, height: 50 }));
  expect(refused).toMatchObject({ code: 'PW_SERVICE', reason: 'failed', operation: 'screen capture' });
  expect(refused.message).toMatch(/^screen capture failed for device@795844152: the server said "bad rect \[700,1270,750,1320\]: not inside the screen \(720×1280\)"/);
  expect(client.extensions.known('capture'), 'the 1×1 capture answered: the route is there').toBe('offered');
  const { width, height } = await client.capture(SMALL.id, { x: 0, y: 0, width: 64, height: 48 });
  expect([width, height]).toEqual([64, 48]);
  // Once the phone's size is read, such a rectangle is refused before anything is sent.
  await client.settings(SMALL.id);
  const before = sim.stats().operations.capture;
  expect(await failure(() => client.capture(SMALL.id, { x: 700, y: 1270, width: 50, height: 50 }))).toMatchObject({ code: 'PW_USAGE' });
  expect(sim.stats().operations.capture).toBe(before);
});

test('a server that refuses every rectangle but the 1×1 at 0,0: each refusal is the server\'s, and the route stays offered', async ({ serve, connect }) => {
  const server = await serve();
  capturing(server, (path) => ({ status: true, value: path }));
  const client = connect(server);
  await client.capture(PHONE, { x: 0, y: 0, width: 1, height: 1 });
  server.handle('capture', { json: { status: null, value: 'capture failed: screen locked' } });
  for (const round of [1, 2]) {
    expect(await failure(() => client.capture(PHONE, { x: 5, y: 5, width: 10, height: 10 })), `round ${round}`).toMatchObject({ reason: 'failed', serverMessage: 'capture failed: screen locked' });
  }
  expect([server.count('settings'), client.extensions.known('capture')], 'no interface read once the route has answered').toEqual([0, 'offered']);
});

test('a refusal whose 1×1 probe is refused too, while the phone answers: the route is missing', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('capture', { json: { status: null, value: 'Unsupported request' } });
  const client = connect(server);
  expect(await failure(() => client.capture(PHONE, { x: 5, y: 5, width: 10, height: 10 }))).toMatchObject({ reason: 'not-offered' });
  expect(server.requests.filter((r) => r.op === 'capture').map((r) => r.query.get('rect'))).toEqual(['[5,5,15,15]', '[0,0,1,1]']);
});

test('the image formats: a 1×1 capture in each, none downloaded; a refused format on a server that captures is the server\'s word', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('capture', (req) => ({ json: req.query.get('type') === 'bmp' ? { status: null, value: 'type bmp is not supported' } : { status: true, value: '/1/1.img' } }));
  const client = connect(server);
  await client.extensions.captureFormat(PHONE, 'jpg', {});
  await client.extensions.captureFormat(PHONE, 'png', {});
  expect(await failure(() => client.extensions.captureFormat(PHONE, 'bmp', {}))).toMatchObject({ reason: 'failed', serverMessage: 'type bmp is not supported' });
  expect(server.requests.filter((r) => r.op === 'capture').map((r) => r.query.get('type'))).toEqual(['jpg', 'png', 'bmp']);
  expect(server.count('unknown'), 'no image fetched').toBe(0);
});
