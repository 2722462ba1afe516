// A fake server's screen capture, as the vendor's reference text and an older client show it: every pixel
// of the fake phone's screen tells where it is, so an image shifted or cropped by a pixel shows.
import { PNG } from 'pngjs';
import type { FakeReply, FakeServer } from './fake-server.js';

/** The colour of screen pixel (x, y) on the fake phone: every pixel tells where it is. */
export const colorAt = (x: number, y: number) => [x & 0xff, y & 0xff, (x + y) & 0xff] as const;

/** A PNG of the screen's rectangle from (x, y), `width`×`height`, drawn with {@link colorAt}. */
export function screenPng(x: number, y: number, width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const o = (j * width + i) * 4;
      [png.data[o], png.data[o + 1], png.data[o + 2]] = colorAt(x + i, y + j);
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/**
 * Makes `server` capture like the vendor's: the rect of the query drawn into a PNG kept at `/<n>/<ms>.png`,
 * its URL answered by `answer`; `inclusive` takes the bottom-right corner in (one pixel larger). `faults`
 * answer the first requests of the capture and of its image instead, in order.
 */
export function capturing(server: FakeServer, answer: (path: string) => unknown, inclusive = false, faults: { capture?: FakeReply[]; image?: FakeReply[] } = {}): void {
  const files = new Map<string, Buffer>();
  const { capture = [], image = [] } = faults;
  server.handle('capture', (req) => {
    if (capture.length) return capture.shift()!;
    const [x1, y1, x2, y2] = JSON.parse(req.query.get('rect')!) as number[];
    const path = `/867924024124417/${1523049073460 + files.size}.png`;
    files.set(path, screenPng(x1!, y1!, x2! - x1! + (inclusive ? 1 : 0), y2! - y1! + (inclusive ? 1 : 0)));
    return { json: answer(path) };
  });
  server.handle('unknown', (req) => (image.length ? image.shift()! : files.has(req.path) ? { body: files.get(req.path)!, headers: { 'content-type': 'image/png' } } : { status: 404, body: 'not found' }));
}

/** The answer forms: where the image's URL stands, and how it is written. */
export const CAPTURE_FORMS: [string, (server: FakeServer) => (path: string) => unknown][] = [
  ['value, absolute on localhost (the reference text)', (s) => (path) => ({ status: true, value: `http://localhost:${s.port}${path}` })],
  ['file_url, absolute on localhost (the older docstring, verbatim shape)', (s) => (path) => ({ status: true, file_url: `http://localhost:${s.port}${path}` })],
  ['value, a path on the server', () => (path) => ({ status: true, value: path })],
  ['file_url, relative to the server', () => (path) => ({ status: true, file_url: path.slice(1) })],
];

