import type { DeviceId } from '../core/device-id.js';
import { ProtocolError, ServiceError } from '../core/errors.js';
import type { CallOptions, CaptureRect, DeviceClient } from '../client/index.js';
import { encodePng, type Image } from '../image/png.js';
import { readPng } from '../image/png-read.js';
import { RegionGrid, type Rect } from '../image/region.js';
import { sampleRegion, type SampleOptions } from './sample.js';

/** What a region read needs of the client: pixel reads, and the screen capture where the server has it. */
export type RegionClient = Pick<DeviceClient, 'pixel' | 'capture' | 'extensions'>;

/**
 * Captures a rectangle of a phone's screen (the vendor's screen capture) as an image of exactly its size. The
 * server's image is checked against the rectangle: one a pixel wider or taller (a server whose bottom-right
 * corner is inclusive) is cropped; any other size is refused, as is an image that is not a PNG.
 * @param client the logged-in client
 * @param device the phone
 * @param rect the rectangle, in screen pixels
 */
export async function captureImage(client: Pick<DeviceClient, 'capture'>, device: DeviceId, rect: CaptureRect, options: CallOptions = {}): Promise<Image> {
  const capture = await client.capture(device, rect, options);
  const { width, height } = rect;
  const wider = capture.width - width;
  const taller = capture.height - height;
  if (wider < 0 || wider > 1 || taller < 0 || taller > 1) {
    throw new ProtocolError('screen capture', `screen capture: the server sent a ${capture.width}×${capture.height} image for the ${width}×${height} rectangle at (${rect.x}, ${rect.y}) of ${device}`, {
      hint: 'the server may have captured another part of the screen; check the phone and the server release',
    });
  }
  let png: Image;
  try {
    png = readPng(capture.png);
  } catch (e) {
    throw new ProtocolError('screen capture', `screen capture: the image of ${device} is not a readable PNG (${(e as Error).message})`);
  }
  // The image as it came, or cropped to the rectangle (a server whose corner is inclusive sent a pixel more).
  let data = png.data;
  if (png.width !== width || png.height !== height) {
    data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) data.set(png.data.subarray(y * png.width * 4, (y * png.width + width) * 4), y * width * 4);
  }
  // A phone's screen is opaque; an alpha channel in the file says nothing about it.
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width, height, data };
}

/** {@link captureImage} as PNG bytes, for a file: exactly the rectangle's pixels, opaque. */
export async function captureScreenshot(client: Pick<DeviceClient, 'capture'>, device: DeviceId, rect: CaptureRect, options: CallOptions = {}): Promise<Buffer> {
  return encodePng(await captureImage(client, device, rect, options));
}

/**
 * Reads a region as the image its grid describes (step, mask): from one screen capture where the server
 * offers it, pixel by pixel where it does not. Both give the same image, so a golden written one way
 * matches the other way. A server found to lack the capture is not asked again.
 */
export async function readRegion(client: RegionClient, device: DeviceId, rect: Rect, options: SampleOptions = {}): Promise<Image> {
  if (!client.extensions.lacks('capture')) {
    const { resume, step, mask, maskColor } = options;
    const grid = resume?.grid ?? new RegionGrid(rect, { step, mask, maskColor });
    try {
      return gridImage(await captureImage(client, device, rect, options), grid);
    } catch (error) {
      if (!(error instanceof ServiceError && error.reason === 'not-offered')) throw error;
    }
  }
  return sampleRegion(client, device, rect, options);
}

/** The grid's image out of a capture of its whole rectangle: every `step`-th pixel, the masked ones painted. */
function gridImage(full: Image, grid: RegionGrid): Image {
  const data = new Uint8Array(grid.width * grid.height * 4);
  const { r, g, b } = grid.maskColor;
  for (let i = 0, o = 0; i < grid.width * grid.height; i++, o += 4) {
    if (grid.masked?.[i]) {
      data.set([r, g, b, 255], o);
      continue;
    }
    const { x, y } = grid.point(i);
    const from = ((y - grid.rect.y) * full.width + (x - grid.rect.x)) * 4;
    data.set(full.data.subarray(from, from + 4), o);
  }
  return { width: grid.width, height: grid.height, data };
}
