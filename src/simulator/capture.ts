import type { ServerResponse } from 'node:http';
import type { Behaviour } from './behaviour.js';
import type { Query } from './query.js';
import { BODY, failure, sendText } from './respond.js';
import type { SimulatorState } from './state.js';

const NOT_FOUND = '{"status":null,"value":"file not found"}';
const RECT = /^\[\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*\]$/;

/**
 * The vendor's screen capture (docs/capabilities.md): `type=png&location=pc&rect=[x1,y1,x2,y2]` keeps a
 * PNG of the rectangle and answers its URL in the form the behaviour names; `location=device` (the vendor's
 * default) saves it "on the phone" and answers `{"status": true}`. The bottom-right corner is outside the
 * image, or inside it with `captureRect: 'inclusive'`; without `rect`, the whole screen.
 * @param port the port the simulator listens on, for the absolute URL (which names `localhost`, as the vendor's does)
 */
export function capture(state: SimulatorState, device: string, query: Query, port: number): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  if (query.type !== 'png') return failure(`type ${JSON.stringify(query.type ?? null)} is not offered here: this simulator captures type=png`);
  if ((query.location ?? 'device') !== 'pc') return '{"status":true}';
  const screen = state.screenOf(phone);
  let x1 = 0;
  let y1 = 0;
  let x2 = screen.width;
  let y2 = screen.height;
  if (query.rect !== undefined) {
    const m = RECT.exec(query.rect);
    if (!m) return failure(`rect ${JSON.stringify(query.rect)} is not [topLeftX,topLeftY,bottomRightX,bottomRightY]`);
    [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
    if (state.behaviour.captureRect === 'inclusive') {
      x2++;
      y2++;
    }
  }
  if (x2 <= x1 || y2 <= y1 || x2 > screen.width || y2 > screen.height) {
    return failure(`rect ${query.rect ?? ''} is not inside the screen (${screen.width}×${screen.height})`);
  }
  const number = state.numberOf(phone);
  const file = state.captures.add(number, screen.toPng({ x1, y1, x2, y2 }));
  return answer(state.behaviour.captureUrl, `/${file}`, port);
}

/** Serves a kept capture image (no token: the vendor's example URL has none). */
export function serveCaptureFile(res: ServerResponse, state: SimulatorState, file: string): void {
  const png = state.captures.get(file);
  if (!png) return sendText(res, 404, NOT_FOUND);
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  res.end(png);
}

function answer(form: Behaviour['captureUrl'], path: string, port: number): string {
  const absolute = `http://localhost:${port}${path}`;
  if (form === 'file_url') return JSON.stringify({ status: true, file_url: absolute });
  return JSON.stringify({ status: true, value: form === 'value-relative' ? path : absolute });
}
