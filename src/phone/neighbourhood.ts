import type { DeviceId } from '../core/device-id.js';
import type { CallOptions } from '../client/index.js';
import { NEIGHBOURHOOD, neighbourhoodOrigin, type Neighbourhood } from '../image/neighbourhood.js';
import { captureImage, type RegionClient } from './capture.js';

/**
 * Reads the {@link NEIGHBOURHOOD}² pixels around a point within the caller's deadline: by one screen capture
 * where the server offers it, else all at once pixel by pixel (81 reads, which a busy machine may not finish
 * in the evidence's moment). A pixel that cannot be read (off the right or bottom edge of the screen, out of
 * time) leaves its cell empty: evidence never fails.
 */
export async function readNeighbourhood(client: RegionClient, device: DeviceId, x: number, y: number, options: CallOptions = {}): Promise<Neighbourhood> {
  const { x0, y0 } = neighbourhoodOrigin(x, y);
  if (!client.extensions.lacks('capture')) {
    try {
      const { data } = await captureImage(client, device, { x: x0, y: y0, width: NEIGHBOURHOOD, height: NEIGHBOURHOOD }, options);
      const cells = Array.from({ length: NEIGHBOURHOOD * NEIGHBOURHOOD }, (_, i) => ({ r: data[i * 4]!, g: data[i * 4 + 1]!, b: data[i * 4 + 2]! }));
      return { x0, y0, x, y, cells };
    } catch {
      // Not offered, a window past the screen's edge, or a capture that failed: the pixels one by one.
    }
  }
  const cells = await Promise.all(
    Array.from({ length: NEIGHBOURHOOD * NEIGHBOURHOOD }, (_, i) =>
      client.pixel(device, x0 + (i % NEIGHBOURHOOD), y0 + Math.floor(i / NEIGHBOURHOOD), options).then(
        ({ r, g, b }) => ({ r, g, b }),
        () => undefined,
      ),
    ),
  );
  return { x0, y0, x, y, cells };
}
