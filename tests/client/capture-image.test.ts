// captureImage, the capture a film takes: the image in the type asked where the server gives it, its type read from
// its bytes (the recorder's fallback to PNG on a server that refuses JPEG: tests/video/recorder.test.ts).
import { decode as decodeJpeg } from 'jpeg-js';
import { expect, test } from './harness.js';

const PHONE = 'device@1116106541';

test('a JPEG where asked, a PNG where asked, each of the rectangle asked', async ({ startSim, connect }) => {
  const client = connect((await startSim()).url);
  const rect = { x: 0, y: 0, width: 1080, height: 1920 };
  const jpeg = await client.extensions.captureImage(PHONE, rect, 'jpg', {});
  expect(jpeg.type).toBe('jpg');
  const decoded = decodeJpeg(jpeg.bytes, { useTArray: true });
  expect([decoded.width, decoded.height]).toEqual([1080, 1920]);
  const png = await client.extensions.captureImage(PHONE, rect, 'png', {});
  expect(png.type).toBe('png');
  expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([1080, 1920]);
});
