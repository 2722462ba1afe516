/**
 * Shared fixtures of the simulator's tests: `sim` is a simulator on 127.0.0.1, port 0, started with the test's
 * `simOptions` and closed at teardown; `clock` is a clock the test advances instead of sleeping.
 * Requests go through undici (a client no one here wrote) or curl.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { test as base, expect } from '../helpers/test.js';
import { request } from 'undici';
import { startSimulator, type ScenarioInput, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';

/** The vendor's header: base64 of `sigma:3D391497`, no scheme word. */
export const VENDOR_AUTH = 'c2lnbWE6M0QzOTE0OTc=';
export const MAIN = 'device@1116106541';
/** The clock's start: a fixed millisecond so times in answers can be asserted exactly. */
export const T0 = 1_700_000_000_000;

export interface Clock {
  now: () => number;
  advance(ms: number): void;
}

export interface Fixtures {
  simOptions: SimulatorOptions;
  clock: Clock;
  sim: SimulatorHandle;
}

export const test = base.extend<Fixtures>({
  simOptions: [{}, { option: true }],
  clock: async ({}, use) => {
    let t = T0;
    await use({ now: () => t, advance: (ms) => void (t += ms) });
  },
  sim: async ({ simOptions, clock }, use) => {
    const sim = await startSimulator({ port: 0, now: clock.now, ...simOptions });
    await use(sim);
    await sim.close();
  },
});
export { expect };

/** Two small phones of different colours, for tests of one phone beside another. */
export const A = 'device@1000000001';
export const B = 'device@1000000002';
export const TWO_PHONES: ScenarioInput = {
  phones: [
    { id: A, name: 'a', screen: { width: 4, height: 4, fill: '0x25425c' } },
    { id: B, name: 'b', screen: { width: 4, height: 4, fill: '0x101820' } },
  ],
};
/** A one-time code due on phone `a` 1 s into the run, and a clock's tick every 500 ms on `b`. */
export const timedNotes = (a: string, b: string) => [
  { device: a, app: 'com.example.chat', text: 'Your code is 123456', atMs: 1_000 },
  { device: b, app: 'com.example.clock', text: 'tick {n}', everyMs: 500 },
];
/** A pixel read of a phone of {@link TWO_PHONES}, without its token. */
export const pixelPath = (device: string) => `/devices/${device}/screen/colors?q=color&x=1&y=1`;

/** An answer: status, headers, body as text and (when it parses) as JSON. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/**
 * A request to the simulator through undici.
 * @param path a path under the API root (`/login`) or, starting with `//`, from the server's root
 */
export async function call(sim: SimulatorHandle, path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  const url = path.startsWith('//') ? `${sim.url}${path.slice(1)}` : `${sim.url}${sim.apiRoot}${path}`;
  const res = await request(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Logs in with the vendor's header and returns the token. */
export async function login(sim: SimulatorHandle, auth = VENDOR_AUTH): Promise<string> {
  const answer = await call(sim, '/login', { headers: { authorization: auth } });
  const token = (answer.json as { value?: { token?: string } }).value?.token;
  if (!token) throw new Error(`login failed: ${answer.text}`);
  return token;
}

/** A request with the token appended to the query. */
export async function authed(sim: SimulatorHandle, token: string, path: string, init: Parameters<typeof call>[2] = {}): Promise<Answer> {
  return call(sim, `${path}${path.includes('?') ? '&' : '?'}token=${token}`, init);
}

/** A multipart body built by hand, so tests control every byte (part name, file name, boundary). */
export function multipart(parts: { name: string; filename?: string; data: Buffer | string; nameStar?: boolean }[], boundary = 'pwboundary7MA4YWxk'): { body: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const name = p.nameStar ? `name*=UTF-8''${encodeURIComponent(p.name)}` : `name="${p.name}"`;
    const file = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    const type = p.filename === undefined ? '' : '\r\nContent-Type: application/octet-stream';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${name}${file}${type}\r\n\r\n`));
    chunks.push(Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads one file as the part `name`; answers the parsed JSON. */
export async function upload(sim: SimulatorHandle, token: string, name: string, data: Buffer | string, filename = 'file.bin'): Promise<Answer> {
  const { body, type } = multipart([{ name, filename, data }]);
  return authed(sim, token, '/storage', { method: 'POST', headers: { 'content-type': type }, body });
}

/** Runs curl; resolves with its exit code and output. */
export function curl(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['--silent', '--show-error', '--max-time', '20', ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A call to the admin API with the simulator's key (or the one given, or none with `null`). */
export async function admin(sim: SimulatorHandle, method: string, path: string, body?: unknown, key: string | null = sim.adminKey): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-sim-admin-key'] = key;
  let payload: string | Buffer | undefined;
  if (Buffer.isBuffer(body)) {
    headers['content-type'] = 'image/png';
    payload = body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return call(sim, `//_sim/${path}`, { method, headers, body: payload });
}

/** A GET with the path sent exactly as written (undici and fetch would resolve `..` first). */
export function rawGet(sim: SimulatorHandle, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: sim.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}
