// What a local page's server lets through to its API: JSON only, by its exact content type; and how a route's
// schema refuses a body or a query, naming the field. A page of this test's own on port 0, raw HTTP, in-process.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkRequest, fields, list, text, whole, type RouteSchema } from '../../src/web/bodies.js';
import { startPageServer, type ApiRequest } from '../../src/web/server.js';
import { expect, test } from '../helpers/test.js';

const NAME = text(20, 'a name like "wallpaper"', '^[a-z]+$');
const SCHEMAS: Record<string, RouteSchema> = {
  'POST items': { body: fields({ items: list(fields({ name: NAME, n: whole(0, 9) }, ['name'], 'an item'), 1, 3, 'a list of 1 to 3 items') }, ['items'], 'the items') },
  'GET item': { query: fields({ name: NAME }, ['name'], 'an item') },
};
const ask = (method: string, route: string, body: Record<string, unknown> = {}, query = ''): ApiRequest => ({ method, route, body, query: new URLSearchParams(query) });
const refusal = (req: ApiRequest) => checkRequest(SCHEMAS, req).then(() => 'taken', (e: Error) => e.message);

test('a refusal names the field by its path, says what it must be and what came, quoted short', async () => {
  const cases: [ApiRequest, string][] = [
    [ask('POST', 'items', { items: [{ name: 'a' }, { name: 'b', n: 10 }] }), 'invalid body: items[1].n must be a whole number from 0 to 9, not 10'],
    [ask('POST', 'items', { items: [{ name: 'a'.repeat(100) }] }), `invalid body: items[0].name must be a name like "wallpaper", not "${'a'.repeat(38)}…`],
    [ask('POST', 'items', { items: [{ name: 'a', 'x/y': 1 }] }), 'invalid body: items[0].x/y is not a field of items[0]: expected name, n'],
    [ask('POST', 'items', { items: [] }), 'invalid body: items must be a list of 1 to 3 items, not []'],
    [ask('POST', 'items', { items: [{}] }), 'invalid body: items[0].name is missing: expected a name like "wallpaper"'],
    [ask('POST', 'items', JSON.parse('{"items":[{"name":"a"}],"__proto__":{"admin":true}}') as Record<string, unknown>), 'invalid body: __proto__ is not a field this route takes: expected items'],
    [ask('POST', 'items', { items: [{ name: 'a' }] }, 'debug=1'), 'invalid query: debug is not a parameter this route takes: it takes none'],
    [ask('GET', 'item', {}, 'name=a&name=b'), 'invalid query: name is given 2 times: give it once'],
    [ask('GET', 'item', {}, ''), 'invalid query: name is missing: expected a name like "wallpaper"'],
    [ask('POST', 'unknown', { a: 1 }), 'invalid body: a is not a field this route takes: it takes none'],
    // The token is the server's, checked before the route: a route's query does not name it.
    [ask('GET', 'item', {}, 'name=a&token=t'), 'taken'],
    [ask('POST', 'items', { items: [{ name: 'a', n: 9 }] }), 'taken'],
  ];
  for (const [req, says] of cases) expect(await refusal(req), `${req.route} ${JSON.stringify(req.body)} ?${req.query}`).toBe(says);
});

test('the API takes a body of content type application/json exactly, parameters allowed: not json-seq, not text', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'pw-page-'));
  await writeFile(path.join(dir, 'body.html'), '<main></main>\n');
  const seen: unknown[] = [];
  const page = await startPageServer({
    command: 'inspect',
    assets: dir,
    port: 0,
    clean: (t) => t,
    api: async (req) => {
      seen.push(req.body);
      return { status: 200, json: { ok: true } };
    },
  });
  const token = new URL(page.url).searchParams.get('token')!;
  const post = (type: string | undefined) =>
    new Promise<number>((resolve, reject) => {
      const headers: Record<string, string> = { 'x-phonewright-token': token, ...(type === undefined ? {} : { 'content-type': type }) };
      const req = request({ host: '127.0.0.1', port: page.port, path: '/api/items', method: 'POST', headers }, (res) => resolve(res.resume().statusCode ?? 0));
      req.on('error', reject);
      req.end('{"items":[{"name":"a"}]}');
    });
  try {
    for (const type of ['application/json-seq', 'application/jsonx', 'application/json+x', 'application/json,text/plain', 'text/plain', 'application/x-www-form-urlencoded', undefined]) {
      expect(await post(type), String(type)).toBe(400);
    }
    expect(seen).toEqual([]);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/json ; charset=utf-8']) expect(await post(type), type).toBe(200);
    expect(seen).toHaveLength(4);
  } finally {
    await page.close();
    await rm(dir, { recursive: true, force: true });
  }
});
