// Bad requests to the simulator: every route without a token, with a wrong or expired one, unknown phones,
// upload targets that climb out, uploads too large, malformed multipart, 10,000 query parameters. Each gets
// the interface's answer (exact), the simulator keeps answering, nothing is stored, nothing is written
// outside its installation root.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { expect, listing, test } from '../helpers/bad-input.js';

const MAIN = 'device@1116106541';
const ROOT = '/TotalControl/v1';
const AUTH = Buffer.from('sigma:3D391497').toString('base64');
const LIMIT = 64 * 1024;
/** A login refused, as the vendor's reference page documents it: `status` null. */
const WRONG_LOGIN = { status: null, value: 'wrong user name or password' };
const INVALID_TOKEN = { status: null, value: 'invalid token' };
const NOT_FOUND = { status: null, value: 'device not found' };
const TARGETS_HINT = 'try: image, script, apk, tcbr/contacts, local/<folder> or local/<absolute path>/';
const MULTIPART_HINT = 'send the file as a multipart/form-data part named image, script, apk, tcbr/contacts or local/<folder>';

/** What a case sends: `{token}` in the path is a valid token, `{expired}` one that has expired. */
interface Request {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

interface Case {
  name: string;
  request: Request;
  status?: number;
  answer: unknown;
}

/** A multipart body of one file part, every byte under the test's control. */
function form(name: string, data: Buffer | string = 'PK\u0003\u0004 app', filename = 'app.apk', boundary = 'b0undary'): Request {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${name}; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST', path: `${ROOT}/storage?token={token}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}
const part = (target: string) => form(`name="${target}"`);
const refusedTarget = (target: string, why: string) => ({ status: null, value: `invalid upload target ${JSON.stringify(target)}: ${why}; ${TARGETS_HINT}` });

const ROUTES: [string, Request][] = [
  ['main device', { path: `${ROOT}/devices/main` }],
  ['notifications', { path: `${ROOT}/notifications?position=1&count=10` }],
  ['settings', { path: `${ROOT}/devices/${MAIN}/settings` }],
  ['pixel', { path: `${ROOT}/devices/${MAIN}/screen/colors?q=color&x=1&y=1` }],
  ['upload', { ...part('apk'), path: `${ROOT}/storage` }],
  ['screen/inputs', { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs`, body: 'x=1&y=1' }],
  ['screen/texts', { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/texts`, body: '{"text": "hi"}' }],
  ['apps', { path: `${ROOT}/devices/${MAIN}/apps?q=foreground_app` }],
];
const withToken = (r: Request, token: string): Request => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}token=${token}` });

const CASES: Case[] = [
  ...ROUTES.map(([route, r]) => ({ name: `${route} without a token`, request: r, answer: INVALID_TOKEN })),
  ...ROUTES.map(([route, r]) => ({ name: `${route} with a wrong token`, request: withToken(r, 'AAAAAAAAAAAAAAAA'), answer: INVALID_TOKEN })),
  ...ROUTES.map(([route, r]) => ({ name: `${route} with an expired token`, request: withToken(r, '{expired}'), answer: INVALID_TOKEN })),
  { name: 'a wrong token in a form body', request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs`, body: 'x=1&y=1&token=AAAAAAAAAAAAAAAA' }, answer: INVALID_TOKEN },
  { name: 'a wrong token in a JSON body', request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs`, body: '{"x": 1, "y": 1, "token": "AAAAAAAAAAAAAAAA"}' }, answer: INVALID_TOKEN },
  { name: 'a token of the wrong length', request: { path: `${ROOT}/devices/main?token=x` }, answer: INVALID_TOKEN },
  { name: 'a token twice, the first wrong', request: { path: `${ROOT}/devices/main?token=BBBBBBBBBBBBBBBB&token={token}` }, answer: INVALID_TOKEN },
  { name: 'login without Authorization', request: { path: `${ROOT}/login` }, answer: WRONG_LOGIN },
  { name: 'login with the wrong password', request: { path: `${ROOT}/login`, headers: { authorization: Buffer.from('sigma:guess').toString('base64') } }, answer: WRONG_LOGIN },
  { name: 'login with a header that is not base64', request: { path: `${ROOT}/login`, headers: { authorization: '%%%not base64%%%' } }, answer: WRONG_LOGIN },
  // Unknown phones.
  { name: 'settings of an unknown phone', request: { path: `${ROOT}/devices/device@42/settings?token={token}` }, answer: NOT_FOUND },
  { name: 'pixel of an unknown phone', request: { path: `${ROOT}/devices/device@42/screen/colors?token={token}&q=color&x=1&y=1` }, answer: { status: false } },
  { name: 'notifications of an unknown phone', request: { path: `${ROOT}/notifications?token={token}&position=1&count=5&device=device@42` }, answer: NOT_FOUND },
  { name: 'settings of a phone that is not an id', request: { path: `${ROOT}/devices/..%2f..%2fetc/settings?token={token}` }, answer: NOT_FOUND },
  // Upload targets that climb out, and absolute ones on a simulator that does not allow them.
  { name: 'target ../', request: part('local/../escape'), answer: refusedTarget('local/../escape', 'the folder must stay under the installation root (no "..", ".", or empty parts)') },
  { name: 'target a/../../', request: part('local/a/../../escape'), answer: refusedTarget('local/a/../../escape', 'the folder must stay under the installation root (no "..", ".", or empty parts)') },
  { name: 'target %2e%2e', request: part('local/%2e%2e/escape'), answer: refusedTarget('local/%2e%2e/escape', 'encoded characters are not allowed in the folder') },
  { name: 'target with backslashes', request: part('local/..\\escape'), answer: refusedTarget('local/..\\escape', 'the folder holds a character a path may not hold') },
  { name: 'target encoded the RFC 2231 way', request: form("name*=UTF-8''local%2F..%2Fescape"), answer: refusedTarget('local/../escape', 'the folder must stay under the installation root (no "..", ".", or empty parts)') },
  { name: 'target through a symlink that leads out', request: part('local/link/escape'), answer: { status: null, value: 'upload target "local/link/escape" leads out of the installation root through a symbolic link' } },
  {
    name: 'absolute target',
    request: part('local/{dir}/abs/'),
    answer: { status: null, value: expect.stringMatching(/^upload target "local\/\S+\/abs\/" writes outside the installation root; this simulator was started without allowing absolute targets \(--allow-absolute-uploads\)$/) },
  },
  // Uploads too large, malformed, empty.
  { name: 'a file one byte over the limit', request: form('name="apk"', Buffer.alloc(LIMIT + 1, 1)), answer: { status: null, value: `the file is larger than this server's limit of ${LIMIT} bytes` } },
  { name: 'a file of 1 MiB over a 64 KiB limit', request: form('name="apk"', Buffer.alloc(1024 * 1024, 1)), answer: { status: null, value: `the file is larger than this server's limit of ${LIMIT} bytes` } },
  { name: 'an empty file', request: form('name="apk"', ''), answer: { status: null, value: 'the file "app.apk" is empty; nothing was stored' } },
  { name: 'an unknown part name', request: part('apps'), answer: refusedTarget('apps', 'unknown target') },
  { name: 'no content type', request: { method: 'POST', path: `${ROOT}/storage?token={token}`, body: 'x' }, answer: { status: null, value: `the body is not multipart/form-data; ${MULTIPART_HINT}` } },
  { name: 'a JSON body', request: { method: 'POST', path: `${ROOT}/storage?token={token}`, headers: { 'content-type': 'application/json' }, body: '{"apk": "x"}' }, answer: { status: null, value: `the body is not multipart/form-data; ${MULTIPART_HINT}` } },
  {
    name: 'multipart without a boundary',
    request: { method: 'POST', path: `${ROOT}/storage?token={token}`, headers: { 'content-type': 'multipart/form-data' }, body: 'x' },
    answer: { status: null, value: `malformed multipart request: Multipart: Boundary not found; ${MULTIPART_HINT}` },
  },
  { name: 'a body cut before its end', request: { ...form('name="apk"'), body: (form('name="apk"').body as Buffer).subarray(0, 120) }, answer: { status: null, value: expect.stringMatching(/^malformed multipart body: .+; send the file/) } },
  {
    name: 'a field but no file',
    request: { ...form('name="apk"'), body: '--b0undary\r\nContent-Disposition: form-data; name="apk"\r\n\r\nnot a file\r\n--b0undary--\r\n' },
    answer: { status: null, value: `no file part in the upload; ${MULTIPART_HINT}` },
  },
  {
    name: 'a boundary that never comes',
    request: { ...form('name="apk"'), headers: { 'content-type': 'multipart/form-data; boundary=other' } },
    answer: { status: null, value: `malformed multipart body: Unexpected end of multipart data; ${MULTIPART_HINT}` },
  },
  // Act bodies: small, and JSON when they look like it.
  {
    name: 'an act body one byte over 64 KiB',
    request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/texts?token={token}`, body: `text=${'a'.repeat(64 * 1024 - 4)}` },
    answer: { status: null, value: 'the body is larger than 65536 bytes: an act\'s arguments are a few short fields' },
  },
  {
    name: 'an act body that starts as JSON and is not',
    request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs?token={token}`, body: '{"x": 1, "y": ' },
    answer: { status: null, value: expect.stringMatching(/^the body starts with "\{" but is not JSON \(.+\): send a JSON object, or a form such as x=1&y=2$/) },
  },
  { name: 'an act body that is a JSON list', request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs?token={token}`, body: '[1, 2]' }, answer: { status: null, value: expect.stringMatching(/^screen\/inputs takes one act: .+; got none of them$/) } },
  { name: 'a JSON coord that is no path', request: { method: 'POST', path: `${ROOT}/devices/${MAIN}/screen/inputs?token={token}`, body: '{"coord": 1}' }, answer: { status: null, value: expect.stringMatching(/^coord takes \[\[x,y,ms\],/) } },
  // Odd requests.
  { name: '10,000 query parameters', request: { path: `${ROOT}/devices/${MAIN}/screen/colors?q=color&x=100&y=100&${Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&')}&token={token}` }, answer: { status: true, value: { r: 37, g: 66, b: 92, rgb: '0x25425c' } } },
  { name: 'position 0', request: { path: `${ROOT}/notifications?token={token}&position=0&count=5` }, answer: { status: null, value: 'position must be an integer of 1 or more (got "0")' } },
  { name: 'a DELETE', request: { method: 'DELETE', path: `${ROOT}/devices/main?token={token}` }, status: 405, answer: { status: null, value: 'method not allowed: use GET' } },
  { name: 'a route that does not exist', request: { path: `${ROOT}/devices/main/reboot?token={token}` }, status: 404, answer: { status: null, value: `no such route: GET ${ROOT}/devices/main/reboot` } },
];

for (const c of CASES) {
  test(c.name, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-sim-input-'));
    let now = Date.now();
    const sim = await startSimulator({ port: 0, storage: path.join(dir, 'root'), maxUploadBytes: LIMIT, behaviour: { tokenLifetimeSeconds: 60 }, now: () => now });
    try {
      await mkdir(path.join(dir, 'outside'));
      await symlink(path.join(dir, 'outside'), path.join(dir, 'root', 'link'));
      const expired = await login(sim);
      now += 61_000;
      const token = await login(sim);
      const before = await written(dir);
      const fill = (s: string) => s.replaceAll('{token}', token).replaceAll('{expired}', expired).replaceAll('{dir}', dir);
      const r = c.request;
      const answer = await send(sim, { ...r, path: fill(r.path), body: typeof r.body === 'string' ? r.body : r.body && Buffer.from(fill(r.body.toString('latin1')), 'latin1') });
      expect(answer.status).toBe(c.status ?? 200);
      expect(JSON.parse(answer.body)).toEqual(c.answer);
      // No file stored under the root (a typed target's folder may be made: the interface makes it when
      // missing), nothing at all written beside it.
      expect(await written(dir)).toEqual(before);
      // And it still answers.
      expect(JSON.parse((await send(sim, { path: `${ROOT}/devices/main?token=${token}` })).body)).toEqual({ id: MAIN });
    } finally {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/** Every entry beside the installation root, and every file under it. */
async function written(dir: string): Promise<string[]> {
  return (await listing(dir)).filter((e) => !e.startsWith('root/') || !e.endsWith('(dir)'));
}

async function login(sim: SimulatorHandle): Promise<string> {
  return (JSON.parse((await send(sim, { path: `${ROOT}/login`, headers: { authorization: AUTH } })).body) as { value: { token: string } }).value.token;
}

/** Sends a request exactly as written (no path normalization), on its own connection. */
function send(sim: SimulatorHandle, r: Request): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const headers = { ...r.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const req = http.request({ host: '127.0.0.1', port: sim.port, method: r.method ?? 'GET', path: r.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    // The simulator may answer and close before reading a body it refuses: that is not this request's failure.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    req.end(body);
  });
}
