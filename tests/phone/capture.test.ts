// The vendor's screen capture (docs/capabilities.md) against a server that answers with the bodies the
// reference text and an older client show: the image URL in `value` or in `file_url`, absolute (naming
// `localhost`, which means the server's host) or relative; the image checked against the rectangle asked
// for. And a server of the interface only, on which a region is sampled instead, whichever form its lacking
// route answers in.
import { Deadline } from '../../src/client/deadline.js';
import { decodePng } from '../../src/image/index.js';
import { captureImage, captureScreenshot, readRegion } from '../../src/phone/screen.js';
import { expect, failure, test } from '../client/harness.js';
import { lacking, MISSING_FORMS } from '../helpers/missing-routes.js';
import { capturing, CAPTURE_FORMS as FORMS, colorAt, screenPng } from '../helpers/vendor-capture.js';

const PHONE = 'device@1116106541';

/** Every pixel of an image against the screen it shows, from (x, y). */
function expectShows(image: { width: number; height: number; data: Uint8Array }, x: number, y: number): void {
  const wrong: string[] = [];
  for (let j = 0; j < image.height; j++) {
    for (let i = 0; i < image.width; i++) {
      const o = (j * image.width + i) * 4;
      const got = [image.data[o], image.data[o + 1], image.data[o + 2], image.data[o + 3]].join();
      const want = [...colorAt(x + i, y + j), 255].join();
      if (got !== want) wrong.push(`(${x + i}, ${y + j}): ${got}, not ${want}`);
    }
  }
  expect(wrong.slice(0, 5), `${wrong.length} of ${image.width * image.height} pixels differ`).toEqual([]);
}

for (const [form, answer] of FORMS) {
  test(`a capture answered with ${form}: exactly the rect's pixels`, async ({ serve, connect }) => {
    const server = await serve();
    capturing(server, answer(server));
    const client = connect(server);
    const png = await captureScreenshot(client, PHONE, { x: 10, y: 20, width: 30, height: 40 });
    const image = decodePng(png, 'the capture');
    expect([image.width, image.height]).toEqual([30, 40]);
    expectShows(image, 10, 20);
    const asked = server.requests.find((r) => r.op === 'capture')!;
    expect(asked.rawQuery).toMatch(/^token=[^&]+&type=png&location=pc&rect=\[10,20,40,60\]$/);
    // `localhost` in the answer means the server's host: the image is asked of the host the client talks to.
    expect(server.requests.at(-1)!.headers.host).toBe(`127.0.0.1:${server.port}`);
  });
}

test('a server whose rect takes the bottom-right corner in: the one pixel more is cropped', async ({ serve, connect }) => {
  const server = await serve();
  capturing(server, (path) => ({ status: true, value: path }), true);
  const image = await captureImage(connect(server), PHONE, { x: 5, y: 7, width: 3, height: 2 });
  expect([image.width, image.height]).toEqual([3, 2]);
  expectShows(image, 5, 7);
});

test('a capture recovers from resets, 5xx answers and pages that are not JSON, on the capture and on its image', async ({ serve, connect }) => {
  const server = await serve();
  const page = { status: 200, body: '<html>502 Bad Gateway</html>', headers: { 'content-type': 'text/html' } };
  capturing(server, (path) => ({ status: true, value: path }), false, { capture: ['reset', { status: 503 }, page], image: ['reset', { status: 502 }] });
  const image = await captureImage(connect(server), PHONE, { x: 2, y: 3, width: 16, height: 9 });
  expectShows(image, 2, 3);
  expect([server.count('capture'), server.count('unknown')]).toEqual([4, 3]);
});

test('an image of another size, or not a PNG, is refused with what came', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  server.handle('capture', { json: { status: true, value: '/1/2.png' } });
  server.handle('unknown', { body: screenPng(0, 0, 32, 40) });
  expect((await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).message).toContain(
    `screen capture: the server sent a 32×40 image for the 30×40 rectangle at (0, 0) of ${PHONE}; try: `,
  );
  server.handle('unknown', { body: 'BM6\u0000\u0000\u0000 a bitmap' });
  expect((await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).message).toMatch(/^screen capture: the image is not a PNG \(\d+ bytes, starting "BM6/);
  server.handle('unknown', { status: 404, body: 'gone' });
  expect((await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).message).toBe(
    `screen capture download: the file the server named is not there (HTTP 404): GET ${server.url}/1/2.png`,
  );
  server.handle('capture', { json: { status: true } });
  expect((await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).message).toContain('the answer names no image in "value" or "file_url"');
  server.handle('capture', { json: { status: true, value: 'C:\\TotalControl\\1.png' } });
  expect((await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).message).toContain('is not an http URL');
  server.handle('capture', { json: { status: null, value: 'device not found' } });
  expect(await failure(() => captureImage(client, PHONE, { x: 0, y: 0, width: 30, height: 40 }))).toMatchObject({ reason: 'phone-missing' });
});

test('a server of the interface only: a capture fails with one line, a region is sampled, and the capture is not asked again', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  expect((await failure(() => captureScreenshot(client, PHONE, { x: 0, y: 0, width: 4, height: 4 }))).message).toBe(
    `this server does not offer screen capture (a route beyond the device-control interface): ${server.url}`,
  );
  const sampled = await readRegion(client, PHONE, { x: 0, y: 0, width: 4, height: 3 });
  expect([sampled.width, sampled.height]).toEqual([4, 3]);
  expect(server.count('pixel')).toBe(12);
  await readRegion(client, PHONE, { x: 0, y: 0, width: 2, height: 2 });
  expect(server.count('capture'), 'probed once (the capture and its 1×1 at 0,0), then remembered').toBe(2);
});

test('a region by one capture is the image sampling gives, step and mask included', async ({ serve, connect }) => {
  const server = await serve();
  capturing(server, (path) => ({ status: true, value: path }));
  // Sampling on the same screen: the fake's pixel route answers from the same drawing.
  server.handle('pixel', (req) => {
    const [r, g, b] = colorAt(Number(req.query.get('x')), Number(req.query.get('y')));
    return { json: { status: true, value: { r, g, b } } };
  });
  const rect = { x: 3, y: 4, width: 9, height: 7 };
  const options = { step: 2, mask: [{ x: 5, y: 4, width: 2, height: 3 }] };
  const captured = await readRegion(connect(server), PHONE, rect, options);
  expect(server.count('pixel')).toBe(0);
  const seedOnly = connect(server);
  server.handle('capture', undefined);
  const sampled = await readRegion(seedOnly, PHONE, rect, options);
  expect(server.count('pixel')).toBeGreaterThan(0);
  expect([captured.width, captured.height]).toEqual([5, 4]);
  expect(Buffer.from(captured.data).equals(Buffer.from(sampled.data))).toBe(true);
  // The masked pixel (5, 4) is magenta in both; (3, 4) is the screen's.
  expect([...captured.data.subarray(4, 8)]).toEqual([255, 0, 255, 255]);
  expect([...captured.data.subarray(0, 4)]).toEqual([...colorAt(3, 4), 255]);
});

/** A small phone of the simulator: a yellow block on a dark screen. */
const SIM_PHONE = 'device@6101';
const SIM_SCENARIO = { phones: [{ id: SIM_PHONE, name: 'small', screen: { width: 16, height: 16, fill: '0x101820', rects: [{ x: 2, y: 2, width: 3, height: 3, color: '0xffd600' }] } }] };

for (const form of MISSING_FORMS) {
  test(`a capture answered with ${form.name}: the region is sampled at once, the capture asked once, an unplugged phone is missing`, async ({ serve, startSim, connect }) => {
    // The fixtures' wait for a phone that is away (10 s): a region that took the answer for a phone gone would
    // ask for the capture again and again, and sample nothing before its deadline.
    const wait = { phoneReconnectMs: 10_000 };
    const server = await serve();
    lacking(server, form.reply);
    server.handle('pixel', (req) => {
      const [r, g, b] = colorAt(Number(req.query.get('x')), Number(req.query.get('y')));
      return { json: { status: true, value: { r, g, b } } };
    });
    const client = connect(server, wait);
    expectShows(await readRegion(client, PHONE, { x: 3, y: 5, width: 6, height: 4 }, { deadline: Deadline.in(5_000) }), 3, 5);
    await readRegion(client, PHONE, { x: 0, y: 0, width: 2, height: 2 });
    // The capture and its 1×1 probe (a refusal of the rectangle would have the probe answer), the settings once.
    expect([server.count('capture'), server.count('settings'), server.count('pixel')], 'capture and settings once, then every pixel').toEqual([2, 1, 6 * 4 + 2 * 2]);

    const sim = await startSim({ scenario: SIM_SCENARIO, capabilities: 'seed', missingRoutes: form.sim });
    const simClient = connect(sim.url, wait);
    sim.setOnline(SIM_PHONE, false);
    const missing = await failure(() => readRegion(simClient, SIM_PHONE, { x: 0, y: 0, width: 6, height: 6 }, { deadline: Deadline.in(600) }));
    expect(missing, 'an unplugged phone is missing, not a capture the server lacks').toMatchObject({ code: 'PW_SERVICE', reason: 'phone-missing' });
    expect([simClient.extensions.lacks('capture'), sim.stats().operations.pixel]).toEqual([false, 0]);
    sim.setOnline(SIM_PHONE, true);
    const before = sim.stats();
    const image = await readRegion(simClient, SIM_PHONE, { x: 0, y: 0, width: 6, height: 6 }, { deadline: Deadline.in(5_000) });
    const after = sim.stats();
    expect([after.notFound - before.notFound, after.operations.settings - before.operations.settings, after.operations.pixel - before.operations.pixel]).toEqual([2, 1, 36]);
    const at = (x: number, y: number) => [...image.data.subarray((y * 6 + x) * 4, (y * 6 + x) * 4 + 3)];
    expect([at(0, 0), at(2, 2), at(4, 4), at(5, 5)]).toEqual([[0x10, 0x18, 0x20], [0xff, 0xd6, 0x00], [0xff, 0xd6, 0x00], [0x10, 0x18, 0x20]]);
  });
}
