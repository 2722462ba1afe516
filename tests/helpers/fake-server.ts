/**
 * A scriptable fake device-control server for the framework's tests: real HTTP (node:http) on 127.0.0.1,
 * port 0 unless told otherwise. It is a test oracle written from the interface and the field notes, not
 * from the client or the simulator, so it shares no code with either.
 *
 * By default it answers the way the vendor's documentation does (the verbatim bodies in {@link VENDOR}): it
 * checks the login header exactly (base64 of `user:password`, no scheme word), issues 16-character tokens,
 * rejects unknown or expired tokens in the configured shape, holds notifications per phone (order, position
 * semantics and cap configurable) and parses uploads with a real multipart parser.
 *
 * Any operation's answer can be scripted with {@link FakeServer.handle}: a handler answers, resets or closes
 * the connection, hangs, or delegates to the default with `next()`.
 *
 * ```ts
 * const server = await startFakeServer({ rejectToken: 401 });
 * server.handle('pixel', inOrder({ status: 503 }, 'reset'));   // two failures, then the default answer
 * // … a client against server.url …
 * expect(server.count('login')).toBe(1);
 * await server.close();
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';

/**
 * The interface's operations, the vendor's routes beyond it (`devices`, `deviceInfo`, `capture`, `script`,
 * `app`: 404 unless handled), or neither (`unknown`: any other path, a capture's image among them).
 */
export type Op = 'login' | 'mainDevice' | 'pixel' | 'settings' | 'notifications' | 'upload' | 'devices' | 'deviceInfo' | 'capture' | 'script' | 'app' | 'unknown';

const NOT_FOUND: FakeReply = { status: 404, body: '<html><body><h1>404 Not Found</h1></body></html>', headers: { 'content-type': 'text/html' } };

/** How the server says no: `{"status": null, "value": "…"}`, `{"status": false}`, or HTTP 401. */
export type Refusal = 'null' | 'false' | 401;

/**
 * An answer. An object is an HTTP answer (default 200 with `json` serialized, or `body` as given); strings
 * drop the connection: `'reset'` with a TCP RST (the client sees ECONNRESET), `'close'` with a FIN and no
 * answer, `'hang'` never answers.
 */
export type FakeReply = AnswerReply | 'reset' | 'close' | 'hang';

export interface AnswerReply {
  /** @default 200 */
  status?: number;
  /** Serialized with JSON.stringify. */
  json?: unknown;
  /** Sent as it is (takes precedence over `json`). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Wait this many ms before answering (a slow server). */
  delay?: number;
  /** Send the headers (with the full Content-Length) and only this many bytes of the body, then `then`. */
  partial?: { bytes: number; then: 'hang' | 'reset' };
}

/** One request as the server saw it. */
export interface FakeRequest {
  op: Op;
  method: string;
  /** The path without the query, as sent (not decoded). */
  path: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  /** The decoded query. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The `token` query parameter, when there is one. */
  token: string | undefined;
  /** The device id of the path (pixel, settings), decoded. */
  device: string | undefined;
  /** The whole body, once it has arrived. */
  body(): Promise<Buffer>;
  /** Resolves once at least `bytes` bytes of the body have arrived (or the body ended). */
  received(bytes: number): Promise<void>;
}

/** Answers one operation; `next()` is the server's default answer (token check included). */
export type Handler = (req: FakeRequest, next: () => Promise<FakeReply>) => FakeReply | Promise<FakeReply>;

/** A notification as the interface carries it. */
export interface FakeNotification {
  app: string;
  text: string;
  time: number;
  id: string;
}

/** One file the server received. */
export interface FakeUpload {
  /** The multipart part name: the storage target. */
  part: string;
  filename: string;
  size: number;
  sha256: string;
}

export interface FakeServerOptions {
  /** @default '/TotalControl/v1' */
  apiRoot?: string;
  /** @default 'sigma' */
  user?: string;
  /** @default '3D391497' */
  password?: string;
  /** Wrong credentials at login. @default 'false' */
  rejectLogin?: Refusal;
  /** A missing, wrong or expired token. @default 'null' (`"invalid token"`) */
  rejectToken?: Refusal;
  /** A token stops working after this many calls (0: every token is refused). @default Infinity */
  tokenUses?: number;
  /** A token stops working this many ms after login, on the fake clock ({@link FakeServer.advance}). @default Infinity */
  tokenTtl?: number;
  /** Phones the server knows; each has a 1080×1920 screen. @default [VENDOR_MAIN_DEVICE, 'device@1174886816'] */
  devices?: string[];
  /** Notification list order. @default 'oldest-first' */
  order?: 'oldest-first' | 'newest-first';
  /** What `position` indexes. @default 'filtered' */
  positionIndexes?: 'filtered' | 'unfiltered';
  /** `position` past the end of the list. @default 'empty' (`{"status": true, "value": []}`) */
  pastEnd?: 'empty' | 'false';
  /** Messages held per phone; older ones fall off. @default 1000 */
  held?: number;
  /** @default 0 (any free port) */
  port?: number;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order of arrival. */
  readonly requests: FakeRequest[];
  /** Every token issued, in order. */
  readonly tokens: string[];
  /** Every file received by the default upload answer. */
  readonly uploads: FakeUpload[];
  /** Requests of one operation so far (all requests without `op`). */
  count(op?: Op): number;
  /** Resolves with the `n`-th request of `op` once it has arrived. */
  waitFor(op: Op, n?: number): Promise<FakeRequest>;
  /** Replaces the answer of `op` (a fixed reply, or a handler); `undefined` restores the default. */
  handle(op: Op, handler: Handler | FakeReply | undefined): void;
  /** Adds notifications, in order of arrival (the list keeps each phone's newest `held`). */
  post(...messages: FakeNotification[]): void;
  /** Makes every token issued so far invalid (a restart, an expiry). */
  expireTokens(): void;
  /** Moves the fake clock that token lifetimes run on. */
  advance(ms: number): void;
  /** Drops every open connection and stops listening. */
  close(): Promise<void>;
}

/** The main device of the vendor's examples. */
export const VENDOR_MAIN_DEVICE = 'device@1116106541';

/** The vendor's documented success bodies, byte for byte (field notes). */
export const VENDOR = {
  login: (token: string) => `{"status": true, "value": {"token": "${token}"}}`,
  mainDevice: `{"id": "${VENDOR_MAIN_DEVICE}"}`,
  pixel: '{"status": true, "value": {"r": 37, "g": 66, "b": 92, "rgb": "0x25425c"}}',
  settings:
    '{"status": true, "value": {"display_mode": 1, "display_quality": 2, "display_accl": 2, "display_hw_decode": "1", "display_resolution_mode": 2, "display_orientation": 1, "display_resolution": "1080*1920"}}',
  notifications:
    '{"status": true, "value": [{"app": "com.sigma_rt.totalcontrol", "text": "点击进入程序", "time": 1539833828000, "id": "device@1174886816"}]}',
  /** The curl example's answer: a RELATIVE url. */
  uploadRelative: '{"status": true, "file_url": "images/1527558556026.bmp"}',
} as const;

/** The tokens of the vendor's examples; the server issues them first, then random ones. */
const EXAMPLE_TOKENS = ['270eq7lXQK8bXYsJ', 'iSvz5On0bWL48LUU'];
const SCREEN = { w: 1080, h: 1920 };
/** The first stored file name: the vendor's example upload time. */
const FIRST_FILE_NUMBER = 1_527_558_556_026;

/**
 * Starts a fake server on 127.0.0.1.
 * @param options credentials, refusal shapes, token lifetime, notification semantics, port
 */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const o = {
    apiRoot: '/TotalControl/v1',
    user: 'sigma',
    password: '3D391497',
    rejectLogin: 'false' as Refusal,
    rejectToken: 'null' as Refusal,
    tokenUses: Number.POSITIVE_INFINITY,
    tokenTtl: Number.POSITIVE_INFINITY,
    devices: [VENDOR_MAIN_DEVICE, 'device@1174886816'],
    order: 'oldest-first' as const,
    positionIndexes: 'filtered' as const,
    pastEnd: 'empty' as const,
    held: 1000,
    port: 0,
    ...options,
  };
  const requests: FakeRequest[] = [];
  const tokens: string[] = [];
  const uploads: FakeUpload[] = [];
  const live = new Map<string, { uses: number; issuedAt: number }>();
  const handlers = new Map<Op, Handler>();
  const waiters: { op: Op; n: number; resolve: (r: FakeRequest) => void }[] = [];
  const board: (FakeNotification & { seq: number })[] = [];
  const sockets = new Set<Socket>();
  let clock = 0;
  let seq = 0;
  let fileNumber = FIRST_FILE_NUMBER;
  let url = '';

  const defaults: Record<Op, (req: FakeRequest) => Promise<FakeReply>> = {
    login: async (req) => {
      const expected = Buffer.from(`${o.user}:${o.password}`).toString('base64');
      if (req.headers.authorization !== expected) return refusal(o.rejectLogin, 'wrong user name or password');
      const token = EXAMPLE_TOKENS[tokens.length] ?? alnum(16);
      tokens.push(token);
      live.set(token, { uses: 0, issuedAt: clock });
      return { body: VENDOR.login(token) };
    },
    mainDevice: async () => ({ body: VENDOR.mainDevice }),
    pixel: async (req) => {
      const x = Number(req.query.get('x'));
      const y = Number(req.query.get('y'));
      const inside = Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < SCREEN.w && y < SCREEN.h;
      if (req.query.get('q') !== 'color' || !o.devices.includes(req.device ?? '') || !inside) return { json: { status: false } };
      return { body: VENDOR.pixel };
    },
    settings: async (req) => (o.devices.includes(req.device ?? '') ? { body: VENDOR.settings } : { json: { status: null, value: 'device not found' } }),
    notifications: async (req) => readBoard(req),
    upload: async (req) => storeUpload(req),
    unknown: async () => NOT_FOUND,
    // A server of the interface only: the vendor's routes beyond it are not there, unless a test hands them a body.
    devices: async () => NOT_FOUND,
    deviceInfo: async () => NOT_FOUND,
    capture: async () => NOT_FOUND,
    script: async () => NOT_FOUND,
    app: async () => NOT_FOUND,
  };

  function refusal(shape: Refusal, message: string): FakeReply {
    if (shape === 401) return { status: 401, json: { status: null, value: message } };
    return shape === 'false' ? { json: { status: false } } : { json: { status: null, value: message } };
  }

  /** The default answer: login is open, every other route wants a live token. */
  async function answer(req: FakeRequest): Promise<FakeReply> {
    if (req.op !== 'login' && req.op !== 'unknown') {
      const t = req.token === undefined ? undefined : live.get(req.token);
      if (!t || t.uses >= o.tokenUses || clock - t.issuedAt >= o.tokenTtl) return refusal(o.rejectToken, 'invalid token');
      t.uses++;
    }
    return defaults[req.op](req);
  }

  function readBoard(req: FakeRequest): FakeReply {
    const position = Number(req.query.get('position'));
    if (!Number.isInteger(position) || position < 1) return { json: { status: null, value: 'position must be an integer from 1' } };
    const countParam = req.query.get('count');
    const count = countParam === null ? 1 : Number(countParam);
    const filter = (key: string) => {
      const v = req.query.get(key);
      return v === null ? undefined : v.startsWith('[') ? (JSON.parse(v) as string[]) : [v];
    };
    const [device, app, match] = [filter('device'), filter('app'), filter('match')];
    const keep = (n: FakeNotification) =>
      (!device || device.includes(n.id)) && (!app || app.includes(n.app)) && (!match || match.some((m) => n.text.includes(m)));
    const all = [...board].sort((a, b) => a.time - b.time || a.seq - b.seq);
    if (o.order === 'newest-first') all.reverse();
    const list = o.positionIndexes === 'filtered' ? all.filter(keep) : all;
    if (position > list.length) return o.pastEnd === 'false' ? { json: { status: false } } : { json: { status: true, value: [] } };
    let page = list.slice(position - 1, position - 1 + count);
    if (o.positionIndexes === 'unfiltered') page = page.filter(keep);
    return { json: { status: true, value: page.map(({ app: a, text, time, id }) => ({ app: a, text, time, id })) } };
  }

  async function storeUpload(req: FakeRequest): Promise<FakeReply> {
    const files = await parseMultipart(req);
    if (files.length !== 1) return { json: { status: null, value: `expected one file part, got ${files.length}` } };
    const file = files[0]!;
    if (file.size === 0) return { json: { status: null, value: 'the file is empty' } };
    uploads.push(file);
    const ext = /\.[^./]+$/.exec(file.filename)?.[0] ?? '';
    const name = `${fileNumber++}${ext}`;
    const typed: Record<string, string> = { image: 'images', script: 'js', apk: 'apk', 'tcbr/contacts': 'tcbr/contacts' };
    const folder = typed[file.part];
    if (folder) return { json: { status: true, file_url: `${url}${o.apiRoot}/storage/${folder}/${name}` } };
    if (!file.part.startsWith('local/')) return { json: { status: null, value: `unknown upload target ${file.part}` } };
    const rest = file.part.slice('local/'.length);
    // A drive-letter path is absolute (field notes: local/E:/File/ answered E:/File/<n>.bmp); else under C:/.
    return { json: { status: true, file_url: /^[A-Za-z]:\//.test(rest) ? `${rest}${name}` : `C:/${rest.replace(/\/$/, '')}/${name}` } };
  }

  const routes: [Op, RegExp][] = [
    ['login', /^\/login$/],
    ['mainDevice', /^\/devices\/main$/],
    ['devices', /^\/devices$/],
    ['settings', /^\/devices\/([^/]+)\/settings$/],
    ['pixel', /^\/devices\/([^/]+)\/screen\/colors$/],
    ['capture', /^\/devices\/([^/]+)\/screen\/images$/],
    ['script', /^\/devices\/([^/]+)\/scripts$/],
    ['app', /^\/devices\/([^/]+)\/apps\/[^/]+$/],
    ['deviceInfo', /^\/devices\/([^/]+)$/],
    ['notifications', /^\/notifications$/],
    ['upload', /^\/storage$/],
  ];

  const server = createServer((raw, res) => {
    const target = raw.url ?? '/';
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    let op: Op = 'unknown';
    let device: string | undefined;
    if (path.startsWith(`${o.apiRoot}/`)) {
      const rest = path.slice(o.apiRoot.length);
      for (const [name, re] of routes) {
        const m = re.exec(rest);
        if (!m || (name === 'upload' || name === 'script' || name === 'app') !== (raw.method === 'POST')) continue;
        op = name;
        device = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
        break;
      }
    }
    const req: FakeRequest = { op, method: raw.method ?? 'GET', path, rawQuery, query, headers: raw.headers, token: query.get('token') ?? undefined, device, ...bodyOf(raw) };
    requests.push(req);
    for (const w of waiters.filter((w) => w.op === op && requests.filter((r) => r.op === op).length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(req);
    }
    const handler = handlers.get(op);
    const next = () => answer(req);
    Promise.resolve(handler ? handler(req, next) : next())
      .then((reply) => send(raw, res, reply))
      .catch((e: unknown) => send(raw, res, { status: 500, body: `fake server handler failed: ${String(e)}` }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests,
    tokens,
    uploads,
    count: (op) => (op === undefined ? requests.length : requests.filter((r) => r.op === op).length),
    waitFor: (op, n = 1) => {
      const hits = requests.filter((r) => r.op === op);
      if (hits.length >= n) return Promise.resolve(hits[n - 1]!);
      return new Promise((resolve) => waiters.push({ op, n, resolve: () => resolve(requests.filter((r) => r.op === op)[n - 1]!) }));
    },
    handle: (op, handler) => {
      if (handler === undefined) handlers.delete(op);
      else handlers.set(op, typeof handler === 'function' ? handler : () => handler);
    },
    post: (...messages) => {
      for (const m of messages) {
        board.push({ ...m, seq: seq++ });
        const mine = board.filter((n) => n.id === m.id);
        if (mine.length > o.held) board.splice(board.indexOf(mine[0]!), 1);
      }
    },
    expireTokens: () => live.clear(),
    advance: (ms) => {
      clock += ms;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler that gives these replies to the first requests, in order, and the default answer after. */
export function inOrder(...replies: FakeReply[]): Handler {
  let i = 0;
  return (_req, next) => (i < replies.length ? replies[i++]! : next());
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago): connections are refused. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The sha256 of some bytes, hex. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function send(raw: IncomingMessage, res: ServerResponse, reply: FakeReply): Promise<void> {
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
function bodyOf(raw: IncomingMessage): Pick<FakeRequest, 'body' | 'received'> {
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

/** The file parts of a multipart body, through a real multipart parser (busboy). */
async function parseMultipart(req: FakeRequest): Promise<FakeUpload[]> {
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

function alnum(length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((b) => chars[b % chars.length]).join('');
}

/**
 * The `serve` fixture of the client and CLI tests: starts fake servers, each closed when the test ends.
 * (Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.)
 */
export async function serveFixture({}: object, use: (serve: (options?: FakeServerOptions) => Promise<FakeServer>) => Promise<void>): Promise<void> {
  const servers: FakeServer[] = [];
  await use(async (options) => {
    const server = await startFakeServer(options);
    servers.push(server);
    return server;
  });
  await Promise.all(servers.map((s) => s.close()));
}
