import type { ServerResponse } from 'node:http';
import type { Behaviour } from './behaviour.js';
import { IMAGE_FORMATS, type ImageFormat } from './image-formats.js';
import type { Query } from './query.js';
import { BODY, failure, sendText } from './respond.js';
import type { SimulatorState } from './state.js';

const NOT_FOUND = '{"status":null,"value":"file not found"}';
const RECT = /^\[\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*\]$/;
const LOCATIONS = new Set(['pc', 'device']);

/**
 * The vendor's screen capture: `type=png|jpg|bmp&location=pc|device&rect=[x1,y1,x2,y2]&file=<path>`.
 * `location=pc` keeps the image of the rectangle (PNG, JPEG, or a 24-bit BMP) and answers its URL in the
 * form the behaviour names, the file name ending in the type; `location=device` (the vendor's default) saves
 * it "on the phone" and answers `{"status": true}`. `file` (where the vendor's server writes the image) is
 * taken and nothing is written there: the image is served from its URL. The bottom-right corner of `rect` is
 * outside the image, or inside it with `captureRect: 'inclusive'`; without `rect`, the whole screen.
 * @param port the port the simulator listens on, for the absolute URL (which names `localhost`, as the vendor's does)
 */
export function capture(state: SimulatorState, device: string, query: Query, port: number): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const format = query.type as ImageFormat;
  if (!IMAGE_FORMATS.includes(format)) return failure(`type ${JSON.stringify(query.type ?? null)} is not offered here: this simulator captures type=png, jpg or bmp`);
  const location = query.location ?? 'device';
  if (!LOCATIONS.has(location)) return failure(`location ${JSON.stringify(location)} is not pc (keep the image on the server) or device (save it on the phone)`);
  const screen = state.screenOf(phone);
  let x1 = 0;
  let y1 = 0;
  let x2 = screen.width;
  let y2 = screen.height;
  if (query.rect !== undefined) {
    const m = RECT.exec(query.rect);
    if (!m) return failure(`bad rect ${JSON.stringify(query.rect.slice(0, 60))}: write [topLeftX,topLeftY,bottomRightX,bottomRightY]`);
    [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
    if (state.behaviour.captureRect === 'inclusive') {
      x2++;
      y2++;
    }
  }
  if (x2 <= x1 || y2 <= y1 || x2 > screen.width || y2 > screen.height) {
    return failure(`bad rect ${query.rect ?? ''}: not inside the screen (${screen.width}×${screen.height})`);
  }
  if (location === 'device') return '{"status":true}';
  const number = state.numberOf(phone);
  const file = state.captures.add(number, format, screen.toImage(format, { x1, y1, x2, y2 }));
  return answer(state.behaviour.captureUrl, `/${file}`, port);
}

/** Serves a kept capture image with its content type (no token: the vendor's example URL has none). */
export function serveCaptureFile(res: ServerResponse, state: SimulatorState, file: string): void {
  const kept = state.captures.get(file);
  if (!kept) return sendText(res, 404, NOT_FOUND);
  res.writeHead(200, { 'content-type': kept.contentType, 'content-length': kept.bytes.length });
  res.end(kept.bytes);
}

function answer(form: Behaviour['captureUrl'], path: string, port: number): string {
  const absolute = `http://localhost:${port}${path}`;
  if (form === 'file_url') return JSON.stringify({ status: true, file_url: absolute });
  return JSON.stringify({ status: true, value: form === 'value-relative' ? path : absolute });
}
