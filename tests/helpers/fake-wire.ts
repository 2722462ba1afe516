// The fake device-control server's wire (fake-server.ts): reading a request's body as it arrives, its uploads
// through a real multipart parser, and sending a scripted reply (an answer, a reset, a close, a hang).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';
import type { FakeReply, FakeRequest, FakeUpload, Handler } from './fake-server-types.js';

/** A handler that gives these replies to the first requests, in order, and the default answer after. */
export function inOrder(...replies: FakeReply[]): Handler {
  let i = 0;
  return (_req, next) => (i < replies.length ? replies[i++]! : next());
}

/**
 * Ports that no server of the suite can be given: below the range a listener on port 0 gets its port from. A port
 * freed a moment ago by a probe could be handed straight to another test's server, and a login to the "closed
 * port" then succeeded (once in about a dozen runs of the suite).
 */
const OUTSIDE_EPHEMERAL = [1, 3, 7, 9, 13, 17, 19];

/** A port on 127.0.0.1 that nothing listens on, now or later in the run: a connection to it is refused. */
export async function closedPort(): Promise<number> {
  for (const port of OUTSIDE_EPHEMERAL) if (await refused(port)) return port;
  throw new Error(`every port of ${OUTSIDE_EPHEMERAL.join(', ')} on 127.0.0.1 accepts connections: stop what listens on one of them`);
}

/**
 * A port on 127.0.0.1 free a moment ago, for a test that starts its own server there later (a closed port, for
 * now): another server may be given it in between, so a test that only wants a refusal takes {@link closedPort}.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Whether a connection to the port is refused (rather than accepted, or failing otherwise). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    // A refusal on this machine is immediate; a port that neither accepts nor refuses is not what the tests want.
    socket.setTimeout(2_000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

/** The sha256 of some bytes, hex. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function send(raw: IncomingMessage, res: ServerResponse, reply: FakeReply): Promise<void> {
  const socket = raw.socket;
  if (reply === 'hang') return;
  if (reply === 'reset') return void socket.resetAndDestroy();
  if (reply === 'close') return void socket.destroy();
  if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
  if (socket.destroyed) return;
  const body = Buffer.from(reply.body ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), ...reply.headers });
  if (!reply.partial) return void res.end(body);
  res.write(body.subarray(0, reply.partial.bytes));
  if (reply.partial.then === 'reset') setImmediate(() => socket.resetAndDestroy());
}

/** Reads the body as it arrives, so handlers can act mid-upload. */
export function bodyOf(raw: IncomingMessage): Pick<FakeRequest, 'body' | 'received'> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let ended = false;
  const listeners = new Set<() => void>();
  const wake = () => listeners.forEach((l) => l());
  raw.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    bytes += chunk.length;
    wake();
  });
  raw.on('end', () => {
    ended = true;
    wake();
  });
  raw.on('error', () => undefined);
  const when = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      if (ready()) return resolve();
      const check = () => {
        if (!ready()) return;
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
    });
  return {
    body: async () => {
      await when(() => ended);
      return Buffer.concat(chunks);
    },
    received: (n) => when(() => ended || bytes >= n),
  };
}

/** A request's form body (`application/x-www-form-urlencoded`), parsed as a browser would. */
export async function formOf(req: Pick<FakeRequest, 'body'>): Promise<URLSearchParams> {
  return new URLSearchParams((await req.body()).toString('utf8'));
}

/** The file parts of a multipart body, through a real multipart parser (busboy). */
export async function parseMultipart(req: FakeRequest): Promise<FakeUpload[]> {
  const body = await req.body();
  const files: Promise<FakeUpload>[] = [];
  await new Promise<void>((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: req.headers as BusboyHeaders, limits: { fieldNameSize: 1000 } });
    } catch (e) {
      return reject(e as Error);
    }
    parser.on('file', (part: string, stream: BusboyFileStream, filename: string) => {
      const hash = createHash('sha256');
      let size = 0;
      files.push(
        new Promise((done) => {
          stream.on('data', (c: Buffer) => {
            hash.update(c);
            size += c.length;
          });
          stream.on('end', () => done({ part, filename, size, sha256: hash.digest('hex') }));
        }),
      );
    });
    parser.on('finish', () => resolve());
    parser.on('error', (e: unknown) => reject(e as Error));
    Readable.from([body]).pipe(parser);
  }).catch(() => undefined);
  return Promise.all(files);
}

export function alnum(length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((b) => chars[b % chars.length]).join('');
}
