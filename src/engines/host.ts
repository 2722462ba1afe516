// The host's engines, in one process per host and user: OpenCV (template search) and the OCR engine (reads of text),
// loaded once here instead of once in each worker of a matrix (about 125 MiB and 200–300 MiB a worker). Workers
// send images over a local socket (client.ts) and wait for the answer; reads of text run side by side (ONNX
// Runtime works off the event loop), searches one at a time. The host's cores are still handed out by the
// workers' lock folders (src/phone/host-cores.ts). It ends on its own once no worker has been connected for
// IDLE_MS. Started as `node host.js <socket>` by the first worker that finds no host answering.
import { rmSync } from 'node:fs';
import net from 'node:net';
import { isPhonewrightError } from '../core/errors.js';
import { loadOcr } from '../image/ocr.js';
import { loadOpenCv } from '../image/opencv.js';
import type { Image } from '../image/png.js';
import { searchTemplate } from '../image/template.js';
import { frame, FrameReader, type EngineAnswer, type EngineRequest, type ImageSize } from './protocol.js';

/** How long the host stays with no worker connected: a run's next worker (a retry, the next file) finds it warm. */
const IDLE_MS = 30_000;

const socketPath = process.argv[2] ?? '';
if (!socketPath) throw new Error('usage: node host.js <socket path>');

let connections = 0;
let idle: NodeJS.Timeout | undefined;
const server = net.createServer((socket) => {
  connections++;
  clearTimeout(idle);
  const reader = new FrameReader((header, bytes) => {
    void answer(header as EngineRequest, bytes).then((reply) => {
      if (!socket.destroyed) for (const part of reply) socket.write(part);
    });
  });
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    connections--;
    if (connections === 0) idleFor();
  });
});

function idleFor(): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (connections > 0) return;
    server.close();
    // A socket file left behind would make the next worker's connect fail on it rather than start a host.
    rmSync(socketPath, { force: true });
  }, IDLE_MS);
  idle.unref();
}

// Another host listening there already (two workers started one each): this one leaves it that host's.
server.on('error', () => server.close());
server.listen(socketPath, idleFor);

/** Searches one at a time: OpenCV runs on this thread, and a search in flight holds its matrices. */
let searches: Promise<unknown> = Promise.resolve();

async function answer(req: EngineRequest, bytes: Buffer): Promise<Buffer[]> {
  let reply: EngineAnswer;
  try {
    if (req.op === 'load') {
      await (req.engine === 'read' ? loadOcr() : loadOpenCv());
      reply = { id: req.id, loaded: req.engine };
    } else if (req.op === 'read') {
      const ocr = await loadOcr();
      const { lines } = await ocr.read(image(req.image, bytes, 0), req.languages);
      reply = { id: req.id, lines };
    } else {
      const cv = await loadOpenCv();
      const screen = image(req.screen, bytes, 0);
      const template = image(req.template, bytes, req.screen.width * req.screen.height * 4);
      const turn = searches.then(() => searchTemplate(cv, screen, template, req.options));
      searches = turn.catch(() => undefined);
      reply = { id: req.id, result: await turn };
    }
  } catch (error) {
    const e = error as Error;
    reply = { id: req.id, error: { message: e.message, ...(isPhonewrightError(error) ? { code: error.code, ...(error.hint ? { hint: error.hint } : {}) } : {}) } };
  }
  return frame(reply);
}

/** An image of the frame's bytes, from `offset`: copied, so that its pixels start on a word (the engines read them as 32-bit words). */
function image(size: ImageSize, bytes: Buffer, offset: number): Image {
  return { width: size.width, height: size.height, data: new Uint8Array(bytes.subarray(offset, offset + size.width * size.height * 4)) };
}
