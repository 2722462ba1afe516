// Screen captures in the three formats the vendor's reference lists: each downloaded image decodes back to
// the phone's pixels (a BMP exactly, a JPEG within a few levels, decoded by jpeg-js, a decoder other than the encoder),
// served with its content type under a name that ends in its type.
import { decode as decodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ScenarioInput, SimulatorHandle } from '../../src/simulator/index.js';
import { authed, expect, login, test } from './harness.js';
import { rawRequest } from './wire.js';

const PHONE = 'device@1116106541';
/** A phone screen of flat rectangles, as apps draw them: bars, cards, an odd-sized one so BMP rows need padding. */
const SCENARIO: ScenarioInput = {
  phones: [
    {
      id: PHONE,
      screen: {
        width: 721,
        height: 1280,
        fill: '0x25425c',
        rects: [
          { x: 0, y: 0, width: 721, height: 48, color: '0x101010' },
          { x: 40, y: 140, width: 300, height: 200, color: '0xe53935' },
          { x: 381, y: 140, width: 300, height: 200, color: '0xfdd835' },
          { x: 40, y: 400, width: 641, height: 120, color: '0xffffff' },
          { x: 0, y: 1140, width: 721, height: 140, color: '0x00acc1' },
        ],
      },
    },
  ],
};

test.use({ simOptions: { scenario: SCENARIO } });

/** Captures a rectangle (or the whole screen) as `type`, and downloads its image. */
async function capture(sim: SimulatorHandle, token: string, type: string, rect?: string): Promise<{ url: string; contentType: string | undefined; bytes: Buffer }> {
  const answer = (await authed(sim, token, `/devices/${PHONE}/screen/images?type=${type}&location=pc${rect ? `&rect=${rect}` : ''}`)).json as { status: boolean; value: string };
  expect(answer.status).toBe(true);
  const image = await rawRequest(sim.port, { method: 'GET', target: new URL(answer.value).pathname });
  expect(image.status).toBe(200);
  return { url: answer.value, contentType: image.headers['content-type'], bytes: image.body };
}

/** The phone's screen as RGBA, from the PNG the handle gives. */
function screen(sim: SimulatorHandle): PNG {
  return PNG.sync.read(sim.screenshot(PHONE));
}

/** Reads a 24-bit bottom-up BMP by its headers, independently of the simulator's writer. */
function readBmp(bytes: Buffer): { width: number; height: number; rgb: (x: number, y: number) => [number, number, number] } {
  expect(bytes.toString('latin1', 0, 2)).toBe('BM');
  expect(bytes.readUInt32LE(2)).toBe(bytes.length);
  const offset = bytes.readUInt32LE(10);
  const width = bytes.readInt32LE(18);
  const height = bytes.readInt32LE(22);
  expect([bytes.readUInt16LE(26), bytes.readUInt16LE(28), bytes.readUInt32LE(30)]).toEqual([1, 24, 0]);
  const row = Math.ceil((width * 3) / 4) * 4;
  return {
    width,
    height,
    rgb: (x, y) => {
      const o = offset + (height - 1 - y) * row + x * 3;
      return [bytes[o + 2]!, bytes[o + 1]!, bytes[o]!];
    },
  };
}

test('BMP: every pixel of the capture is the screen\'s, rows padded, bottom-up', async ({ sim }) => {
  const token = await login(sim);
  const shot = screen(sim);
  for (const rect of [undefined, '[35,130,390,350]']) {
    const { url, contentType, bytes } = await capture(sim, token, 'bmp', rect);
    expect(url).toMatch(/\/1\/\d+\.bmp$/);
    expect(contentType).toBe('image/bmp');
    const bmp = readBmp(bytes);
    const [x0, y0] = rect ? [35, 130] : [0, 0];
    expect([bmp.width, bmp.height]).toEqual(rect ? [355, 220] : [721, 1280]);
    let wrong = 0;
    for (let y = 0; y < bmp.height; y++) {
      for (let x = 0; x < bmp.width; x++) {
        const o = ((y + y0) * shot.width + x + x0) * 4;
        const [r, g, b] = bmp.rgb(x, y);
        if (r !== shot.data[o] || g !== shot.data[o + 1] || b !== shot.data[o + 2]) wrong++;
      }
    }
    expect(wrong, rect ?? 'whole screen').toBe(0);
  }
});

test('JPEG: the capture decodes to the screen\'s pixels within a few levels', async ({ sim }) => {
  const token = await login(sim);
  const shot = screen(sim);
  const { url, contentType, bytes } = await capture(sim, token, 'jpg', '[0,100,721,600]');
  expect(url).toMatch(/\/1\/\d+\.jpg$/);
  expect(contentType).toBe('image/jpeg');
  const jpeg = decodeJpeg(bytes, { useTArray: true });
  expect([jpeg.width, jpeg.height]).toEqual([721, 500]);
  let sum = 0;
  let far = 0;
  for (let y = 0; y < jpeg.height; y++) {
    for (let x = 0; x < jpeg.width; x++) {
      const o = (y * jpeg.width + x) * 4;
      const s = ((y + 100) * shot.width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(jpeg.data[o + c]! - shot.data[s + c]!);
        sum += d;
        // Ringing at a sharp edge may go further; away from edges a flat colour comes back almost exactly.
        if (d > 48) far++;
      }
    }
  }
  expect(sum / (jpeg.width * jpeg.height * 3)).toBeLessThan(2);
  expect(far).toBe(0);
  // Inside the red card (y 240 on the screen, 140 in the capture), away from its edges: its colour, to within a few levels.
  const o = (140 * jpeg.width + 190) * 4;
  for (const [c, want] of [0xe5, 0x39, 0x35].entries()) expect(Math.abs(jpeg.data[o + c]! - want)).toBeLessThanOrEqual(4);
});

test('a capture kept is served under its own type; a PNG capture is unchanged', async ({ sim }) => {
  const token = await login(sim);
  const png = await capture(sim, token, 'png', '[0,0,10,10]');
  const bmp = await capture(sim, token, 'bmp', '[0,0,10,10]');
  expect(png.contentType).toBe('image/png');
  expect(PNG.sync.read(png.bytes)).toMatchObject({ width: 10, height: 10 });
  expect(bmp.contentType).toBe('image/bmp');
  // Each capture has its own file: the PNG is still there after the BMP.
  expect((await rawRequest(sim.port, { method: 'GET', target: new URL(png.url).pathname })).headers['content-type']).toBe('image/png');
});
