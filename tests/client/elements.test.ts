// The vendor's UI-element engine (sendAai), as its public clients call it: a form body holding the token and
// `params`, a JavaScript object literal; counts, bounds and texts read from the answer's `value`; a server
// without the engine fails with one line; a query that is none is refused before anything is sent. A query that
// finds nothing, which a real server answers with its failure envelope, is an empty list; a refusal is not.
import { Deadline } from '../../src/client/deadline.js';
import { aaiCalls, findNode, NOTHING_FOUND } from '../helpers/fake-aai.js';
import { formOf, VENDOR_MAIN_DEVICE as PHONE, type FakeRequest } from '../helpers/fake-server.js';
import { lacking, MISSING_FORMS, notOffered } from '../helpers/missing-routes.js';
import { expect, failure, test, timed } from './harness.js';

/** The one element on the engine's screen. */
const HELLO = { text: 'Hello', box: { x: 40, y: 500, width: 200, height: 80 } };

/** The engine of a screen with two buttons: answers each action for a `T:` query, as the vendor's does. */
async function engine(req: FakeRequest) {
  const params = (await formOf(req)).get('params') ?? '';
  const m = /^\{query:"((?:[^"\\]|\\.)*)",action:"(\w+)"\}$/.exec(params);
  if (!m) return { json: { status: null, value: `bad params ${params}` } };
  const [query, action] = [JSON.parse(`"${m[1]}"`) as string, m[2]];
  const found = query === 'T:OK' ? [[40, 500, 240, 580], [300, 500, 500, 580]] : [];
  if (action === 'getCount') return { json: { status: true, value: { count: found.length } } };
  if (action === 'getBounds') return { json: { status: true, value: { bounds: found } } };
  if (action === 'getText') return found.length ? { json: { status: true, value: { retval: 'OK' } } } : { json: { status: null, value: 'no such element' } };
  return { json: { status: null, value: `unknown action ${action}` } };
}

test('count, bounds and text of a query, in the form the public clients send, the token in the body', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('aai', engine);
  const elements = connect(server).extensions.elements;
  expect(await elements.count(PHONE, 'T:OK', {})).toBe(2);
  expect(await elements.bounds(PHONE, 'T:OK', {})).toEqual([{ x: 40, y: 500, width: 200, height: 80 }, { x: 300, y: 500, width: 200, height: 80 }]);
  expect(await elements.text(PHONE, 'T:OK', {})).toBe('OK');
  expect(await elements.count(PHONE, 'T:Cancel && C:.Button', {})).toBe(0);
  const sent = server.requests.filter((r) => r.op === 'aai');
  expect(await Promise.all(sent.map(async (r) => (await formOf(r)).get('params')))).toEqual([
    '{query:"T:OK",action:"getCount"}',
    '{query:"T:OK",action:"getBounds"}',
    '{query:"T:OK",action:"getText"}',
    '{query:"T:Cancel && C:.Button",action:"getCount"}',
  ]);
  expect([sent[0]!.method, sent[0]!.rawQuery, (await formOf(sent[0]!)).get('token')]).toEqual(['POST', '', server.tokens[0]]);
});

test('a server without the engine: one line, once; an engine that answers off its form: a protocol error naming it', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  for (const round of [1, 2]) expect((await failure(() => client.extensions.elements.count(PHONE, 'T:OK', {}))).message, `round ${round}`).toBe(notOffered('UI elements (sendAai)', server.url));
  expect(server.count('aai')).toBe(1);

  const odd = await serve();
  odd.handle('aai', { json: { status: true, value: { bounds: [[1, 2, 3]] } } });
  const error = await failure(() => connect(odd).extensions.elements.bounds(PHONE, 'T:OK', {}));
  expect(error).toMatchObject({ code: 'PW_PROTOCOL' });
  expect(error.message).toMatch(/^UI elements: a bound \[1,2,3\] is not \[left, top, right, bottom\]: POST http/);
});

test('a query that is none is refused before anything is sent', async ({ serve, connect }) => {
  const server = await serve();
  const elements = connect(server).extensions.elements;
  for (const query of ['', 'Sign in', 'x'.repeat(1001)]) {
    const error = await failure(() => elements.count(PHONE, query, {}));
    expect(error).toMatchObject({ code: 'PW_USAGE' });
    expect(error.message).toMatch(/^invalid element query .*: expected terms such as T:OK or R:\.login joined by &&; try: T: text/);
  }
  expect(server.count()).toBe(0);
});

test('nothing found, answered with the failure envelope as a real server does: an empty list after one count of the same query, on a route not known yet and on one known', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('aai', findNode(() => [HELLO]));
  // The fixtures' client: a phone the server says is "not found" is waited for, 10 s.
  const client = connect(server, { phoneReconnectMs: 10_000 });
  const { elements } = client.extensions;
  expect(await elements.bounds(PHONE, 'T:Goodbye', {})).toEqual([]);
  expect(client.extensions.known('aai'), 'the engine answered: offered, never "not offered"').toBe('offered');
  expect(await elements.bounds(PHONE, 'T:Hello', {})).toEqual([HELLO.box]);
  const again = await timed(async () => expect(await elements.bounds(PHONE, 'T:Goodbye', {})).toEqual([]));
  expect(again.error).toBeUndefined();
  expect(again.ms, 'not waited for as a phone gone').toBeLessThan(1_000);
  expect(await aaiCalls(server.requests)).toEqual(['getBounds T:Goodbye', 'getCount T:Goodbye', 'getBounds T:Hello', 'getBounds T:Goodbye', 'getCount T:Goodbye']);
  expect(server.count('settings'), 'no contrast read: the count decided').toBe(0);
});

test('a refusal is not taken for nothing found: a query the engine rejects, a count above 0, a route missing in any form', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('aai', findNode(() => [HELLO]));
  const client = connect(server);
  expect(await client.extensions.elements.bounds(PHONE, 'T:Hello', {})).toEqual([HELLO.box]);
  const rejected = await failure(() => client.extensions.elements.bounds(PHONE, 'Q:x', {}));
  expect(rejected).toMatchObject({ code: 'PW_SERVICE', reason: 'failed' });
  expect(rejected.message).toMatch(/^UI elements failed for device@1116106541: the server said "invalid query: key Q is not one the engine reads" — POST http/);
  expect((await aaiCalls(server.requests)).slice(1)).toEqual(['getBounds Q:x', 'getCount Q:x']);

  // The bounds refused while the count says the query matches: the engine's failure, not an empty screen.
  const odd = await serve();
  odd.handle('aai', async (req) => ((await formOf(req)).get('params')!.includes('getCount') ? { json: { status: true, value: { count: 1 } } } : { json: { status: null, value: 'engine busy' } }));
  expect((await failure(() => connect(odd).extensions.elements.bounds(PHONE, 'T:Hello', {}))).message).toMatch(/the server said "engine busy"/);

  for (const form of MISSING_FORMS) {
    const bare = await serve();
    lacking(bare, form.reply);
    const c = connect(bare);
    expect((await failure(() => c.extensions.elements.bounds(PHONE, 'T:Goodbye', {}))).message, form.name).toBe(notOffered('UI elements (sendAai)', bare.url));
    expect(c.extensions.lacks('aai'), form.name).toBe(true);
  }
});

test("the count that tells nothing found from a refusal runs within the caller's deadline", async ({ serve, connect }) => {
  const server = await serve();
  server.handle('aai', async (req) => ((await formOf(req)).get('params')!.includes('getCount') ? 'hang' : NOTHING_FOUND));
  const client = connect(server);
  await client.login();
  const { ms, error } = await timed(() => client.extensions.elements.bounds(PHONE, 'T:Goodbye', { deadline: Deadline.in(500) }));
  expect(error).toMatchObject({ code: 'PW_TIMEOUT' });
  expect(ms).toBeLessThan(1_500);
  expect([server.count('aai'), client.extensions.known('aai')], 'the bounds and the count; nothing decided').toEqual([2, undefined]);
});
