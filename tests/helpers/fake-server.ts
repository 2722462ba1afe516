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
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { VENDOR, VENDOR_MAIN_DEVICE, type FakeNotification, type FakeReply, type FakeRequest, type FakeServer, type FakeServerOptions, type FakeUpload, type Handler, type Op, type Refusal } from './fake-server-types.js';
import { alnum, bodyOf, formOf, parseMultipart, send } from './fake-wire.js';

export * from './fake-server-types.js';
export { closedPort, formOf, freePort, inOrder, sha256 } from './fake-wire.js';

/** What a server without the route answers. */
const NOT_FOUND: FakeReply = { status: 404, body: '<html><body><h1>404 Not Found</h1></body></html>', headers: { 'content-type': 'text/html' } };
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
    inputs: async () => NOT_FOUND,
    texts: async () => NOT_FOUND,
    script: async () => NOT_FOUND,
    app: async () => NOT_FOUND,
    apps: async () => NOT_FOUND,
    aai: async () => NOT_FOUND,
  };

  function refusal(shape: Refusal, message: string): FakeReply {
    if (shape === 401) return { status: 401, json: { status: null, value: message } };
    return shape === 'false' ? { json: { status: false } } : { json: { status: null, value: message } };
  }

  /** The default answer: login is open, every other route wants a live token. */
  async function answer(req: FakeRequest): Promise<FakeReply> {
    if (req.op !== 'login' && req.op !== 'unknown') {
      // A POST's token may stand in its form body, as several of the vendor's public clients send it.
      const token = req.token ?? (req.method === 'POST' && req.op !== 'upload' ? ((await formOf(req)).get('token') ?? undefined) : undefined);
      const t = token === undefined ? undefined : live.get(token);
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
    ['inputs', /^\/devices\/([^/]+)\/screen\/inputs$/],
    ['texts', /^\/devices\/([^/]+)\/screen\/texts$/],
    ['script', /^\/devices\/([^/]+)\/scripts$/],
    ['app', /^\/devices\/([^/]+)\/apps\/[^/]+$/],
    ['apps', /^\/devices\/([^/]+)\/apps$/],
    ['aai', /^\/devices\/([^/]+)\/sendAai$/],
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
        const posted = name === 'upload' || name === 'script' || name === 'app' || name === 'inputs' || name === 'aai';
        // screen/texts types with a POST and reads the clipboard (and types, in one client) with a GET.
        if (!m || (name !== 'texts' && posted !== (raw.method === 'POST'))) continue;
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
