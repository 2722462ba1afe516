// What the inspector's API takes, tried as an attacker would: each odd body or query is a 400 that names the
// field, and nothing is called on the phone's server and no file is written. In-process: the routes with a
// client that records every call, on two phones; the server's own checks are in tests/web/bodies.test.ts.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceClient } from '../../src/client/index.js';
import type { DeviceId } from '../../src/core/device-id.js';
import { ServiceError } from '../../src/core/errors.js';
import { MAX_POINTS } from '../../src/inspector/every.js';
import { checkSpecName, specFile } from '../../src/inspector/naming.js';
import type { InspectedPhone } from '../../src/inspector/phones.js';
import { ScreenCapturer } from '../../src/inspector/reads.js';
import { answer, type InspectorContext } from '../../src/inspector/routes.js';
import { tableSource, type TableRow } from '../../src/inspector/table.js';
import type { ApiAnswer } from '../../src/web/server.js';
import { expect, test } from '../helpers/test.js';

const PHONE = 'device@1116106541';
const PHONES: InspectedPhone[] = [
  { id: PHONE as DeviceId, name: 'galaxy-s9', model: 'SM-G960F', manufacturer: 'samsung', screen: { width: 1080, height: 1920 }, project: 'galaxy-s9', goldenSuffix: 'galaxy-s9' },
  { id: 'device@-230441652' as DeviceId, name: 'moto-g5', model: 'XT1676', manufacturer: 'motorola', screen: { width: 1080, height: 1920 }, project: 'moto-g5', goldenSuffix: 'moto-g5' },
];
const SETTINGS = { orientation: 'portrait', resolution: '1080*1920', resolutionMode: 'high', accl: 'on', hwDecode: 'on' };
const row = (project: string, names: string[]) => ({ project, points: names.map((name, i) => ({ name, x: i, y: i, color: '0x25425c' })), settings: SETTINGS });
const RECT = { x: 0, y: 0, width: 4, height: 4 };

/** The inspector's routes in a fresh folder, with a client whose every call is recorded and answered by a failure. */
async function inspector() {
  const cwd = await mkdtemp(path.join(tmpdir(), 'pw-bodies-'));
  const calls: string[] = [];
  const client = new Proxy({}, { get: (_t, name) => (...args: unknown[]) => (calls.push(`${String(name)} ${JSON.stringify(args.slice(0, 3))}`), Promise.reject(new ServiceError(String(name), 'no server in this test'))) }) as DeviceClient;
  const ctx: InspectorContext = { client, phones: PHONES, selected: PHONES[0]!, server: 'a test', cwd, specsDir: path.join(cwd, 'specs'), call: {}, clean: (t) => t };
  const capturer = new ScreenCapturer(client);
  const ask = async (method: 'GET' | 'POST', route: string, input: Record<string, unknown> | string): Promise<ApiAnswer & { error?: string }> => {
    const query = new URLSearchParams(typeof input === 'string' ? input : '');
    const reply = await answer(ctx, { method, route, query, body: typeof input === 'string' ? {} : input }, capturer);
    return { ...reply, error: 'json' in reply ? (reply.json as { error?: string }).error : undefined };
  };
  return { ask, calls, files: () => readdir(cwd, { recursive: true }), done: () => rm(cwd, { recursive: true, force: true }) };
}

/** Each case: the route, what is sent, the refusal's line (exact, or a pattern). */
const REFUSED: [string, 'GET' | 'POST', string, Record<string, unknown> | string, string | RegExp][] = [
  ['a coordinate as text', 'POST', 'tap', { phone: PHONE, x: '5', y: 1 }, 'invalid body: x must be a whole number from 0 to 100000, not "5"'],
  ['a field the route does not take', 'POST', 'tap', { phone: PHONE, x: 1, y: 1, force: true }, 'invalid body: force is not a field this route takes: expected phone, x, y'],
  ['a phone as an object', 'POST', 'tap', { phone: { id: PHONE }, x: 1, y: 1 }, /^invalid body: phone must be a phone id such as "device@1116106541", not \{"id":/],
  ['a key in a list', 'POST', 'press', { phone: PHONE, key: ['home'] }, 'invalid body: key must be a key such as home or back, or a constant such as KEY_VOLUME_UP, not ["home"]'],
  ['a key missing', 'POST', 'press', { phone: PHONE }, 'invalid body: key is missing: expected a key such as home or back, or a constant such as KEY_VOLUME_UP'],
  ['a mask that is no list', 'POST', 'golden', { phone: PHONE, spec: 'a.spec.ts', name: 'a.png', rect: RECT, mask: 'all' }, 'invalid body: mask must be a list of up to 100 rectangles, not "all"'],
  ['a mask rectangle of no width', 'POST', 'golden', { phone: PHONE, spec: 'a.spec.ts', name: 'a.png', rect: RECT, mask: [RECT, { ...RECT, width: 0 }] }, 'invalid body: mask[1].width must be a whole number from 1 to 100000, not 0'],
  ['replace as a word', 'POST', 'golden', { phone: PHONE, spec: 'a.spec.ts', name: 'a.png', rect: RECT, replace: 'yes' }, 'invalid body: replace must be true or false, not "yes"'],
  ['a golden named by a path', 'POST', 'golden', { phone: PHONE, spec: 'a.spec.ts', name: '../a.png', rect: RECT }, /^invalid body: name must be a file name ending in \.png/],
  ['an image name as an object', 'POST', 'template', { phone: PHONE, spec: 'a.spec.ts', name: { a: 1 }, rect: RECT }, /^invalid body: name must be a file name ending in \.png, e\.g\. "send-button\.png", not \{"a":1\}$/],
  ['a rectangle with a field of its own', 'POST', 'template', { phone: PHONE, spec: 'a.spec.ts', name: 'a.png', rect: { ...RECT, z: 1 } }, 'invalid body: rect.z is not a field of rect: expected x, y, width, height'],
  ['a spec name in a list', 'POST', 'spec', { spec: ['a.spec.ts'], title: 't', lines: ['x;'] }, /^invalid body: spec must be a file name ending in \.spec\.ts, inside specs\/, not \["a\.spec\.ts"\]$/],
  ['a title as a number', 'POST', 'spec', { spec: 'a.spec.ts', title: 12, lines: ['x;'] }, 'invalid body: title must be a title of 1 to 200 characters, not 12'],
  ['a line that is two', 'POST', 'spec', { spec: 'a.spec.ts', title: 't', lines: ['a;', 'b;\nc;'] }, /^invalid body: lines\[1\] must be one line of code of up to 2000 characters/],
  ['every: more points than a person picks', 'POST', 'every', { phone: PHONE, points: Array.from({ length: MAX_POINTS + 1 }, (_, i) => ({ name: `p${i}`, x: 1, y: 1 })) }, /^invalid body: points must be a list of up to 200 points \{ name, x, y \}: read more on several tables, not \[/],
  ['every: a coordinate as text', 'POST', 'every', { phone: PHONE, points: [{ name: 'p', x: 1, y: '2' }] }, 'invalid body: points[0].y must be a whole number from 0 to 100000, not "2"'],
  ['every: a point with a colour already', 'POST', 'every', { phone: PHONE, points: [{ name: 'p', x: 1, y: 2, color: '0x000000' }] }, 'invalid body: points[0].color is not a field of points[0]: expected name, x, y'],
  ['table: a later row names "a,b"', 'POST', 'table', { phone: PHONE, rows: [row('galaxy-s9', ['a', 'b']), row('moto-g5', ['a,b'])] }, /^invalid body: rows\[1\]\.points\[0\]\.name must be a name such as wallpaper or statusBar .*, not "a,b"$/],
  ['table: a project named __proto__', 'POST', 'table', { phone: PHONE, rows: [row('__proto__', ['a'])] }, /^invalid body: rows\[0\]\.project must be a project name of letters, digits, .*, not "__proto__"$/],
  ['table: a point named constructor', 'POST', 'table', { phone: PHONE, rows: [row('galaxy-s9', ['constructor'])] }, /^invalid body: rows\[0\]\.points\[0\]\.name must be a name such as wallpaper/],
  ['table: a setting of a million characters', 'POST', 'table', { phone: PHONE, rows: [{ ...row('galaxy-s9', ['a']), settings: { ...SETTINGS, accl: 'x'.repeat(1e6) } }] }, /^invalid body: rows\[0\]\.settings\.accl must be a display setting as the phone reported it, not "x{30}/],
  ['table: a file name as a number', 'POST', 'table', { phone: PHONE, rows: [row('galaxy-s9', ['a'])], file: 7 }, 'invalid body: file must be a file name ending in .ts, inside specs/, not 7'],
  ['a query parameter given twice', 'GET', 'pixel', `phone=${PHONE}&x=1&x=2000&y=1`, 'invalid query: x is given 2 times: give it once'],
  ['a query parameter the route does not read', 'GET', 'screen', `phone=${PHONE}&scale=4`, 'invalid query: scale is not a parameter this route takes: expected phone'],
  ['a coordinate with a sign', 'GET', 'locator', `phone=${PHONE}&x=%2B5&y=1`, 'invalid query: x must be a whole number from 0 to 100000, not "+5"'],
  ['a phone that is no device id', 'GET', 'texts', 'phone=main', 'invalid query: phone must be a phone id such as "device@1116106541", not "main"'],
  ['the phones, asked with a parameter', 'GET', 'phones', 'all=1', 'invalid query: all is not a parameter this route takes: it takes none'],
];

test('a body or query the route does not take is a 400 naming the field; nothing is called, nothing written', async () => {
  const { ask, calls, files, done } = await inspector();
  try {
    for (const [what, method, route, input, says] of REFUSED) {
      const reply = await ask(method, route, input);
      expect(reply.status, what).toBe(400);
      if (typeof says === 'string') expect(reply.error, what).toBe(says);
      else expect(reply.error, what).toMatch(says);
    }
    expect(calls).toEqual([]);
    expect(await files()).toEqual([]);
  } finally {
    await done();
  }
});

test('what the page sends passes the schemas: each route runs', async () => {
  const { ask, calls, done } = await inspector();
  try {
    // The client fails every call: a route that ran answers 502 after calling it.
    expect((await ask('POST', 'tap', { phone: PHONE, x: 1, y: 2 })).status).toBe(502);
    expect((await ask('POST', 'press', { phone: PHONE, key: 'home' })).status).toBe(502);
    expect((await ask('GET', 'pixel', `phone=${PHONE}&x=10&y=20&token=t`)).status).toBe(502);
    expect(calls.slice(0, 3)).toEqual([`tap ["${PHONE}",1,2]`, `press ["${PHONE}","home",{}]`, `pixel ["${PHONE}",10,20]`]);
    const before = calls.length;
    const every = await ask('POST', 'every', { phone: PHONE, points: Array.from({ length: MAX_POINTS }, (_, i) => ({ name: `p${i}`, x: i, y: i })) });
    expect(every.status).toBe(200);
    const table = await ask('POST', 'table', { phone: PHONE, rows: [row('galaxy-s9', ['a', 'b']), row('moto-g5', ['a', 'b'])] });
    expect([table.status, table.error]).toEqual([200, undefined]);
    // Every point read on both phones, and each phone's settings; the table calls nothing.
    expect(calls.length - before).toBe(2 * MAX_POINTS + 2);
  } finally {
    await done();
  }
});

test('the table checks every row\'s names, not only the first\'s, and takes no project named __proto__', () => {
  const rows = (...r: ReturnType<typeof row>[]) => r as TableRow[];
  expect(() => tableSource(rows(row('a', ['p', 'q']), row('b', ['p,q'])), 'x')).toThrow('the row of b names other points than the first row: p, q');
  expect(() => tableSource(rows(row('a', ['p']), row('b', ['p', 'q'])), 'x')).toThrow(/the row of b names other points/);
  expect(() => tableSource(rows(row('a', ['p']), row('b', ['settings'])), 'x')).toThrow(/invalid point name "settings"/);
  expect(() => tableSource(rows(row('__proto__', ['p'])), 'x')).toThrow(/invalid table row 1/);
  expect(tableSource(rows(row('a', ['p']), row('b', ['p'])), 'x')).toContain("  'b': {\n    p: { x: 0, y: 0, color: '0x25425c' },");
});

test('a spec whose name starts with dots is a file of specs/, as it is on disk', () => {
  const specs = path.resolve('/work/specs');
  for (const name of ['...foo.spec.ts', '..foo.spec.ts', 'a/..b.spec.ts']) expect(specFile(specs, checkSpecName(name)), name).toBe(path.join(specs, name));
  for (const name of ['../foo.spec.ts', 'a/../../foo.spec.ts', '..']) expect(() => specFile(specs, name), name).toThrow(/is outside/);
});
