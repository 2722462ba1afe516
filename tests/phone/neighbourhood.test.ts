// The screen around a point (the zoom beside a pixel check's failure, read within the evidence's moment; the
// spread of the inspector's click): near the right or bottom edge, a phone whose screen size is known is
// captured up to the edge, in one request, instead of 81 pixel reads that a busy machine may not finish
// (cells past the edge stay empty).
import { DeviceClient } from '../../src/client/index.js';
import { readPoint } from '../../src/inspector/reads.js';
import { readNeighbourhood } from '../../src/phone/screen.js';
import { expect, openSim, test } from '../helpers/inline.js';

const PHONE = 'device@3001';
const WALL = 0x25425c;
const EDGE = 0xd500f9;
// 64×48, its last column in its own colour.
const SCENARIO = { phones: [{ id: PHONE, screen: { width: 64, height: 48, fill: '0x25425c', rects: [{ x: 63, y: 0, width: 1, height: 48, color: '0xd500f9' }] } }] };

test('near the right edge: one capture up to the edge where the screen size is known, 81 reads where it is not; the same cells either way', async () => {
  const sim = await openSim({ scenario: SCENARIO });
  const client = new DeviceClient({ url: sim.url, user: sim.user, password: sim.password, apiRoot: sim.apiRoot });
  try {
    await client.login();
    const hex = (c: { r: number; g: number; b: number } | undefined) => c && (c.r << 16) | (c.g << 8) | c.b;
    // The window of (60, 40) is x 56..64, y 36..44: its last column is past the screen.
    const expected = Array.from({ length: 81 }, (_, i) => (i % 9 === 8 ? undefined : i % 9 === 7 ? EDGE : WALL));

    const known = await readNeighbourhood(client, PHONE, 60, 40, { screen: { width: 64, height: 48 } });
    expect([known.x0, known.y0]).toEqual([56, 36]);
    expect(known.cells.map(hex)).toEqual(expected);
    expect(sim.stats().operations).toMatchObject({ capture: 1, pixel: 0 });

    const unknown = await readNeighbourhood(client, PHONE, 60, 40);
    expect(unknown.cells.map(hex)).toEqual(expected);
    // The 9×9 capture is refused (off the screen), then every pixel is asked for.
    expect(sim.stats().operations).toMatchObject({ capture: 2, pixel: 81 });

    // The inspector's click near the edge: the point's own read, and the neighbourhood in one capture.
    const clicked = await readPoint(client, PHONE, 60, 40, {}, { width: 64, height: 48 });
    expect(clicked.cells).toEqual(expected.map((c) => (c === undefined ? null : `0x${c.toString(16).padStart(6, '0')}`)));
    expect(sim.stats().operations).toMatchObject({ capture: 3, pixel: 82 });
  } finally {
    await client.close();
    await sim.close();
  }
});
