import type { DeviceId } from '../core/device-id.js';
import type { CallOptions } from '../client/index.js';
import { NEIGHBOURHOOD, neighbourhoodOrigin, type Neighbourhood } from '../image/neighbourhood.js';
import { captureImage, type RegionClient } from './capture.js';

/**
 * Reads the {@link NEIGHBOURHOOD}² pixels around a point within the caller's deadline: by one screen capture
 * where the server offers it, else all at once pixel by pixel (81 reads, which a busy machine may not finish
 * in the evidence's moment). A pixel that cannot be read (off the right or bottom edge of the screen, out of
 * time) leaves its cell empty: evidence never fails.
 * @param options.screen the phone's screen size, where known: a window past its right or bottom edge is
 *   captured up to the edge (a server refuses a rectangle off its screen, which would cost the 81 reads)
 */
export async function readNeighbourhood(client: RegionClient, device: DeviceId, x: number, y: number, options: CallOptions & { screen?: { width: number; height: number } } = {}): Promise<Neighbourhood> {
  const { x0, y0 } = neighbourhoodOrigin(x, y);
  const { screen, ...call } = options;
  const width = Math.min(NEIGHBOURHOOD, (screen?.width ?? Infinity) - x0);
  const height = Math.min(NEIGHBOURHOOD, (screen?.height ?? Infinity) - y0);
  if (!client.extensions.lacks('capture') && width > 0 && height > 0) {
    try {
      const { data } = await captureImage(client, device, { x: x0, y: y0, width, height }, call);
      const cells = Array.from({ length: NEIGHBOURHOOD * NEIGHBOURHOOD }, (_, i) => {
        const [col, row] = [i % NEIGHBOURHOOD, Math.floor(i / NEIGHBOURHOOD)];
        if (col >= width || row >= height) return undefined;
        const o = (row * width + col) * 4;
        return { r: data[o]!, g: data[o + 1]!, b: data[o + 2]! };
      });
      return { x0, y0, x, y, cells };
    } catch {
      // Not offered, a window past the screen's edge, or a capture that failed: the pixels one by one.
    }
  }
  const cells = await Promise.all(
    Array.from({ length: NEIGHBOURHOOD * NEIGHBOURHOOD }, (_, i) =>
      client.pixel(device, x0 + (i % NEIGHBOURHOOD), y0 + Math.floor(i / NEIGHBOURHOOD), call).then(
        ({ r, g, b }) => ({ r, g, b }),
        () => undefined,
      ),
    ),
  );
  return { x0, y0, x, y, cells };
}
