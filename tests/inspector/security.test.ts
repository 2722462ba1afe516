// Who may talk to the inspector: this machine only, with the token of the printed URL, from its own page; the
// server's password and token never reach it. And how the command starts and stops. Raw HTTP, no browser:
// a browser would not send the forged headers these tests need.
import { readdir } from 'node:fs/promises';
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { closedPort, errorLine, launch, launchSpawned, on, run, type FakeServer } from '../cli/helpers.js';
import { capturing, CAPTURE_FORMS } from '../helpers/vendor-capture.js';
import { expect, startInspect, test } from './harness.js';

const PASSWORD = 'S3cret-Pw-91f2c7';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (Host included), to `host` (default 127.0.0.1). */
function send(port: number, path: string, headers: Record<string, string> = {}, options: { method?: string; body?: string; host?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: options.host ?? '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A vendor-bodied server whose failures echo the token and the password back, as a careless server might. */
async function leakyServer(serve: (o?: { password?: string }) => Promise<FakeServer>): Promise<FakeServer> {
  const server = await serve({ password: PASSWORD });
  server.handle('deviceInfo', { json: { status: true, value: { name: 'mobile1', width: 40, height: 30, model: 'SM-G960F', manufacturer: 'samsung', androidVersionRelease: '10' } } });
  capturing(server, CAPTURE_FORMS[0]![1](server));
  server.handle('pixel', (req) => ({ json: { status: null, value: `no colour here (${req.token}, sigma:${PASSWORD})` } }));
  server.handle('script', (req) => ({ json: { status: null, value: `refused ${req.token} / ${PASSWORD}` } }));
  return server;
}

test('every request needs the token of the printed URL: the page, its files and its API answer 401 without it', async ({ simulate }) => {
  const sim = await simulate();
  const { port, token } = await startInspect(['main', ...on(sim)]);
  for (const path of ['/', '/?token=wrong', '/app.js', '/inspector.css', '/page.js', '/api/phones', `/api/phones?token=${token.slice(0, -1)}`, '/api/screen?phone=device@1116106541']) {
    const r = await send(port, path);
    expect(r.status, path).toBe(401);
    expect(r.body, path).not.toContain('<html');
  }
  expect((await send(port, '/api/phones', { 'x-phonewright-token': 'wrong' })).status).toBe(401);
  const page = await send(port, `/?token=${token}`);
  expect(page.status).toBe(200);
  // The page's own files carry the token on, and it loads nothing else.
  expect(page.body).toContain(`app.js?token=${token}`);
  expect(page.body).toContain(`page.js?token=${token}`);
  expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
  expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  expect((await send(port, '/api/phones', { 'x-phonewright-token': token })).status).toBe(200);
  expect((await send(port, `/app.js?token=${token}`)).status).toBe(200);
  // The page's body is served inside its page only.
  expect((await send(port, `/body.html?token=${token}`)).status).toBe(404);
});

test('a request from another origin, another site or for another host is refused, token or not; no answer carries CORS headers', async ({ simulate }) => {
  const sim = await simulate();
  const { port, token } = await startInspect(['main', ...on(sim)]);
  const withToken = { 'x-phonewright-token': token };
  const other = await closedPort();
  const refused: [string, Record<string, string>, string?][] = [
    ['a page of the web', { ...withToken, origin: 'http://evil.example' }],
    ['another port of this machine', { ...withToken, origin: `http://127.0.0.1:${other}` }],
    ['a cross-site fetch', { ...withToken, 'sec-fetch-site': 'cross-site' }],
    ['a same-site page (another port)', { ...withToken, 'sec-fetch-site': 'same-site' }],
    ['a DNS-rebinding host', { ...withToken, host: `evil.example:${port}` }],
    ['a preflight', { origin: 'http://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS'],
  ];
  for (const [what, headers, method] of refused) {
    const r = await send(port, '/api/phones', headers, { method });
    expect(r.status, what).toBe(403);
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-')), what).toEqual([]);
  }
  // A POST from another origin does not act.
  const tap = await send(port, '/api/tap', { ...withToken, origin: 'http://evil.example', 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ phone: sim.mainDevice, x: 1, y: 1 }) });
  expect(tap.status).toBe(403);
  expect(sim.acts()).toEqual([]);
  // Its own origin, either spelling of this machine, is served.
  for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) expect((await send(port, '/api/phones', { ...withToken, origin })).status).toBe(200);
  const ok = await send(port, '/api/phones', withToken);
  expect(Object.keys(ok.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
});

test('it listens on 127.0.0.1 only', async ({ simulate }) => {
  const sim = await simulate();
  const { url, port, token } = await startInspect(['main', ...on(sim)]);
  expect(new URL(url).hostname).toBe('127.0.0.1');
  // 127.0.0.2 is this machine too: a server on every interface (0.0.0.0) would answer there.
  const others = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && !a.address.startsWith('fe80:')).map((a) => a!.address);
  for (const host of ['127.0.0.2', '::1', ...others]) {
    await expect(send(port, `/?token=${token}`, {}, { host }), host).rejects.toThrow(/ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH/);
  }
});

test('the server\'s password and token reach no answer: not the page, not its data, not the errors a server echoes them in', async ({ serve, tmp }) => {
  const server = await leakyServer(serve);
  const { port, token } = await startInspect(['main', ...on(server, { password: PASSWORD })], { cwd: tmp });
  const h = { 'x-phonewright-token': token };
  const post = (route: string, body: unknown) => send(port, `/api/${route}`, { ...h, 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify(body) });
  const phone = 'device@1116106541';
  const replies = [
    await send(port, `/?token=${token}`),
    ...(await Promise.all(['app.js', 'page.js', 'view.js', 'draft.js', 'every.js', 'input.js', 'lines.js', 'inspector.css'].map((f) => send(port, `/${f}?token=${token}`)))),
    await send(port, '/api/phones', h),
    await send(port, `/api/screen?phone=${phone}`, h),
    await send(port, `/api/pixel?phone=${phone}&x=3&y=4`, h),
    await post('tap', { phone, x: 1, y: 1 }),
    await post('every', { phone, points: [{ name: 'p', x: 1, y: 1 }] }),
    await post('golden', { phone, spec: 'a.spec.ts', name: 'a.png', rect: { x: 0, y: 0, width: 4, height: 4 }, mask: [] }),
  ];
  // The page and its 8 files, the phones and the screen; the pixel fails as the server answered, the tap as a route it lacks; the
  // table holds the failure in its cell; the golden is read from the capture.
  expect(replies.map((r) => r.status)).toEqual([...Array(11).fill(200), 502, 501, 200, 200]);
  // The failures say what the server said, its secrets scrubbed.
  expect(JSON.parse(replies[11]!.body).error).toContain('no colour here (***, sigma:***)');
  expect(server.tokens.length).toBeGreaterThan(0);
  const auth = Buffer.from(`sigma:${PASSWORD}`).toString('base64');
  for (const [i, r] of replies.entries()) {
    for (const secret of [PASSWORD, auth, ...server.tokens]) expect(r.body, `reply ${i}`).not.toContain(secret);
  }
});

test('Ctrl-C stops it cleanly: the page\'s server and the embedded simulator close, exit 0', async ({ tmp }) => {
  const cli = launchSpawned(['inspect', '--verbose'], { cwd: tmp });
  const stderr = await cli.waitFor('stderr', /Ctrl-C to stop/);
  // stdout is a pipe of its own: the URL printed before that line may still be on its way.
  const stdout = await cli.waitFor('stdout', /\n/);
  const page = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\/\?token=[\w-]+\n/.exec(stdout);
  expect(page, stdout).not.toBeNull();
  const sim = /the embedded simulator at http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
  expect(sim, stderr).not.toBeNull();
  expect(stderr).toContain('inspecting galaxy-s9 (device@1116106541) on the embedded simulator (4 phones); Ctrl-C to stop');
  // Run from dist/, it serves the page's files from the package's src/ (the build copies no file but TypeScript).
  const token = /token=([\w-]+)/.exec(stdout)![1]!;
  for (const file of ['', 'app.js', 'inspector.css', 'page.js', 'page.css']) expect((await send(Number(page![1]), `/${file}?token=${token}`)).status, file || 'the page').toBe(200);
  cli.interrupt();
  const result = await cli.exited;
  expect(result.code).toBe(0);
  for (const port of [page![1]!, sim![1]!]) await expect(send(Number(port), '/')).rejects.toThrow(/ECONNREFUSED/);
});

test('--json prints the URL as one JSON document, and stops as Ctrl-C does', async ({ simulate }) => {
  const sim = await simulate();
  const cli = launch(['inspect', '--json', ...on(sim)]);
  const line = await cli.waitFor('stdout', /\n/);
  expect(JSON.parse(line)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/) });
  cli.interrupt();
  expect(await cli.exited).toMatchObject({ code: 0, stdout: line });
});

test('bad usage is exit 2 before anything is served: a port that is no port, a port in use, a phone the server lacks', async ({ simulate }) => {
  const sim = await simulate();
  for (const [args, says] of [
    [['--port', 'abc'], /invalid --port "abc": expected a whole number from 0 to 65535/],
    [['--port', '70000'], /invalid --port "70000"/],
    [['no-such-phone'], /no phone named "no-such-phone"/],
  ] as [string[], RegExp][]) {
    const r = await run(['inspect', ...args, ...on(sim)]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
  }
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as AddressInfo).port;
  try {
    const r = await run(['inspect', '--port', String(port), ...on(sim)]);
    expect(r.code).toBe(2);
    expect(errorLine(r)).toBe(`phonewright: port ${port} is in use; try: another --port, or none for a free one`);
  } finally {
    busy.close();
  }
});

test('inspect --help says what the page does, where it listens and how it stops', async () => {
  const r = await run(['inspect', '--help']);
  expect(r.code).toBe(0);
  const text = r.stdout.replace(/\s+/g, ' ');
  for (const said of ['phonewright inspect [device]', '--port', '--timeout', '127.0.0.1 only', 'token of the printed URL', 'never sees the server\'s password or token', 'Runs until Ctrl-C', 'Examples:']) {
    expect(text).toContain(said);
  }
});

test('a body the inspector does not take is a 400 naming the field: nothing is acted, read or written (tests/inspector/bodies.test.ts has every route)', async ({ simulate, tmp }) => {
  const sim = await simulate();
  const { port, token } = await startInspect(['main', ...on(sim)], { cwd: tmp });
  const phone = sim.mainDevice;
  const post = (route: string, body: string, type = 'application/json') => send(port, `/api/${route}`, { 'x-phonewright-token': token, 'content-type': type }, { method: 'POST', body });
  const row = (project: string, names: string[]) => ({ project, points: names.map((name) => ({ name, x: 1, y: 1, color: '0x000000' })), settings: { orientation: 'portrait', resolution: '1080*1920', resolutionMode: 'high', accl: 'on', hwDecode: 'on' } });
  const points = Array.from({ length: 20_000 }, (_, i) => ({ name: `p${i}`, x: 1, y: 1 }));
  const refused: [string, Promise<Reply>, string | RegExp][] = [
    ['JSON sequences', post('tap', JSON.stringify({ phone, x: 1, y: 1 }), 'application/json-seq'), 'the API takes JSON (content-type: application/json)'],
    ['a tap at "5"', post('tap', JSON.stringify({ phone, x: '5', y: 1 })), 'invalid body: x must be a whole number from 0 to 100000, not "5"'],
    ['20,000 points in one body', post('every', JSON.stringify({ phone, points })), /^invalid body: points must be a list of up to 200 points/],
    ['a later row naming "a,b"', post('table', JSON.stringify({ phone, rows: [row('main', ['a', 'b']), row('other', ['a,b'])], file: 'table.ts' })), /^invalid body: rows\[1\]\.points\[0\]\.name must be a name such as wallpaper/],
    ['a project named __proto__', post('table', JSON.stringify({ phone, rows: [row('__proto__', ['a'])], file: 'table.ts' })), /^invalid body: rows\[0\]\.project must be a project name/],
  ];
  for (const [what, reply, says] of refused) {
    const r = await reply;
    expect(r.status, what).toBe(400);
    if (typeof says === 'string') expect(JSON.parse(r.body).error, what).toBe(says);
    else expect(JSON.parse(r.body).error, what).toMatch(says);
  }
  expect(sim.acts()).toEqual([]);
  expect(await readdir(tmp)).toEqual([]);
  // A spec whose name starts with dots is a file of specs/.
  const saved = await post('spec', JSON.stringify({ spec: '...draft.spec.ts', title: 'dots', lines: ['await device.tap(1, 1);'] }));
  expect([saved.status, JSON.parse(saved.body).file], saved.body).toEqual([200, 'specs/...draft.spec.ts']);
});
