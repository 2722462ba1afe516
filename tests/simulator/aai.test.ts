// The UI-element engine, `POST devices/<id>/sendAai`, on the example app's sign-in form (the main phone,
// 1080×1920): every query form and action, in each of the three places clients put `params` (a form body, a JSON
// body without a Content-Type, the query with an empty body), under /TotalControl/v1 and /TotalControl/v2.
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { call, expect, login, MAIN, test } from './harness.js';

const APP = 'com.example.app';
const LOGIN = [60, 780, 1020, 910];
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

type Encoding = 'form' | 'json' | 'query';
const ENCODINGS: Encoding[] = ['form', 'json', 'query'];

/** Sends `params` as a client of that encoding does, under the root of that version. */
async function sendAai(sim: SimulatorHandle, token: string, params: string, encoding: Encoding = 'form', version = 'v1'): Promise<unknown> {
  const path = `//TotalControl/${version}/devices/${MAIN}/sendAai`;
  const form = new URLSearchParams({ token, params }).toString();
  if (encoding === 'form') return (await call(sim, path, { method: 'POST', headers: FORM_TYPE, body: form })).json;
  if (encoding === 'json') return (await call(sim, path, { method: 'POST', body: JSON.stringify({ token, params }) })).json;
  return (await call(sim, `${path}?${form}`, { method: 'POST' })).json;
}

/** Back to the start, the example app in front on the main phone; the token of a fresh login. */
async function signInShown(sim: SimulatorHandle): Promise<string> {
  sim.reset();
  const token = await login(sim);
  await call(sim, `/devices/${MAIN}/apps/${APP}?state=active&token=${token}`, { method: 'POST' });
  return token;
}

const ok = (value: unknown) => ({ status: true, value });
const failed = (value: string | RegExp) => ({ status: null, value: typeof value === 'string' ? value : expect.stringMatching(value) });

/** Each query form and action: `params` as written, the answer, and the acts it records (via aai). */
const CASES: { name: string; params: string; answer: unknown; acts?: unknown[] }[] = [
  { name: 'no action: the count', params: '{query:"T:Sign in"}', answer: ok({ count: 1 }) },
  { name: 'getCount, quotes of both kinds', params: `{query:'T:Sign in',action:"getCount"}`, answer: ok({ count: 1 }) },
  { name: 'strict JSON is a literal too', params: '{"query": "T:Email", "action": "getText"}', answer: ok({ retval: 'Email' }) },
  { name: 'C:.Button is android.widget.Button; getBounds', params: '{query:"C:.Button",action:"getBounds"}', answer: ok({ bounds: [LOGIN] }) },
  { name: 'a full class name', params: '{query:"C:android.widget.EditText"}', answer: ok({ count: 2 }) },
  { name: 'T:*glob*, case and all', params: '{query:"T:*password*",action:"getText"}', answer: ok({ retval: 'Forgot password? Terms of service apply.' }) },
  { name: 'D: and C: joined by &&; getDescription', params: '{query:"D:Help&&C:android.widget.ImageButton",action:"getDescription"}', answer: ok({ retval: 'Help' }) },
  { name: 'R:.x is the foreground app\'s id; click taps its centre', params: '{query:"R:.login",action:"click"}', answer: ok({ retval: true }), acts: [{ via: 'aai', kind: 'tap', x: 540, y: 845 }] },
  { name: 'a whole resource id; setText(bare text)', params: '{query:"R:com.example.app:id/email",action:"setText(me@example.com)"}', answer: ok({ retval: true }), acts: [{ via: 'aai', kind: 'text', text: 'me@example.com' }] },
  { name: "R: a bare name, BP:editable; setText('quoted')", params: `{query:"R:password&&BP:editable",action:"setText('hunter 2')"}`, answer: ok({ retval: true }), acts: [{ via: 'aai', kind: 'text', text: 'hunter 2' }] },
  { name: 'TP:all: the elements and the root', params: '{query:"TP:all"}', answer: ok({ count: 9 }) },
  { name: 'TP:reduced: what has a text or a description', params: '{query:"TP:reduced"}', answer: ok({ count: 6 }) },
  { name: 'IX:1: the second match', params: '{query:"C:.TextView&&IX:1",action:"getText"}', answer: ok({ retval: 'Email' }) },
  { name: 'BP:clickable', params: '{query:"BP:clickable",action:"getCount"}', answer: ok({ count: 4 }) },
  { name: 'actions:[…]: {count, list}; getIds', params: '{actions:["getCount","getIds"],query:"C:.EditText"}', answer: ok({ count: 2, list: [{ count: 2 }, { ids: ['4', '6'] }] }) },
  { name: 'a one-action list answers unwrapped; ID:', params: '{query:"ID:7",action:["getText"]}', answer: ok({ retval: 'Sign in' }) },
  { name: 'an action list of two is wrapped', params: '{action:["getText","getBounds"],query:"R:.login",}', answer: ok({ count: 2, list: [{ retval: 'Sign in' }, { bounds: [LOGIN] }] }) },
  { name: 'setText then getText in one list', params: `{query:"R:.email",actions:["setText('a@b.c')","getText"]}`, answer: ok({ count: 2, list: [{ retval: true }, { retval: 'a@b.c' }] }), acts: [{ via: 'aai', kind: 'text', text: 'a@b.c' }] },
  { name: 'nothing found: count 0, bounds []', params: '{query:"T:Sign up",actions:["getCount","getBounds"]}', answer: ok({ count: 2, list: [{ count: 0 }, { bounds: [] }] }) },
  // Failures: the failure envelope, naming what was wrong.
  { name: 'click with nothing found', params: '{query:"T:Sign up",action:"click"}', answer: failed(`click: no element matches "T:Sign up" (template basic) on ${MAIN}'s screen; try TP:more, or a wider query (T:*part*)`) },
  { name: 'getText with nothing found', params: '{query:"T:sign in",action:"getText"}', answer: failed(/^getText: no element matches "T:sign in"/) },
  { name: 'setText with nothing found, in a list', params: '{query:"R:.nothing",actions:["getCount","setText(x)"]}', answer: failed(/^action 2 of 2, setText: no element matches "R:.nothing"/) },
  { name: 'setText on what is no field', params: '{query:"T:Sign in",action:"setText(x)"}', answer: failed('setText: the element found (android.widget.Button, id com.example.app:id/login, text "Sign in") is not editable; find a text field, e.g. with BP:editable or C:.EditText') },
  { name: 'an unknown action', params: '{query:"T:Sign in",action:"swipe"}', answer: failed('"swipe" is not an action this simulator knows: getCount, getBounds, getText, getDescription, getIds, click, setText') },
  { name: 'arguments to an action that takes none', params: '{query:"T:Sign in",action:"click(1)"}', answer: failed('click takes no arguments; got "click(1)"') },
  { name: 'an unknown query key', params: '{query:"X:1"}', answer: failed('bad query "X:1": X: is not a query key this simulator knows: T (text), D (description), R (resource id), C (class), BP (editable or clickable), ID (a node id from getIds), IX (index), TP (template)') },
  { name: 'a term that is no KEY:value', params: '{query:"T:OK&&Sign in"}', answer: failed(/^bad query "T:OK&&Sign in": "Sign in" is not a term KEY:value/) },
  { name: 'an unknown template', params: '{query:"TP:findText,OK"}', answer: failed('bad query "TP:findText,OK": TP:findText,OK is not a template this simulator knows: all, more, basic, reduced') },
  { name: 'a bad index', params: '{query:"IX:-1"}', answer: failed(/^bad query "IX:-1": IX:-1 is not an index/) },
  { name: 'params that are no literal', params: '{query:T:OK}', answer: failed('params "{query:T:OK}" is not a JavaScript object literal: T is not a value (a string needs quotes) at character 8 ("T:OK}"); write e.g. {query:"T:OK",action:"click"}') },
  { name: 'an unknown key of params', params: '{query:"T:OK",acton:"click"}', answer: failed('params.acton is not a key sendAai knows here: write query, action or actions') },
  { name: 'preAction', params: '{query:"T:OK",preAction:"sleep(100)"}', answer: failed('params.preAction is not supported by this simulator: write the steps as a list, actions:[…]') },
  { name: 'action and actions both', params: '{query:"T:OK",action:"click",actions:["click"]}', answer: failed('params has both action and actions: give one') },
];

test.describe.configure({ mode: 'parallel' });

for (const row of CASES) {
  test(`${row.name}: ${row.params}`, async ({ sim }) => {
    for (const version of ['v1', 'v2']) {
      for (const encoding of ENCODINGS) {
        const token = await signInShown(sim);
        const answer = await sendAai(sim, token, row.params, encoding, version);
        expect(answer, `${encoding}, ${version}`).toEqual(row.answer);
        const acts = sim.acts().filter((a) => a.via === 'aai').map(({ at: _, device: __, ...act }) => act);
        expect(acts, `${encoding}, ${version}`).toEqual(row.acts ?? []);
      }
    }
  });
}

test('click acts as a tap: "Sign in" opens "Signed in", recorded as a tap via aai', async ({ sim }) => {
  const token = await signInShown(sim);
  expect(await sendAai(sim, token, '{query:"T:Sign in&&C:.Button",action:"click"}')).toEqual(ok({ retval: true }));
  expect(sim.phones[0]!.screen).toBe('signed-in');
  expect(await sendAai(sim, token, '{query:"T:Signed in",action:"getCount"}')).toEqual(ok({ count: 1 }));
  expect(sim.acts().at(-1)).toMatchObject({ device: MAIN, via: 'aai', kind: 'tap', x: 540, y: 845 });
});

test('setText changes the drawn text: the pixels of the field and the OCR read it', async ({ sim }) => {
  const token = await signInShown(sim);
  const field = '[60,390,1020,500]';
  const ocr = async () => ((await call(sim, `/devices/${MAIN}/screen/texts?rect=${field}&mode=singleline&token=${token}`)).json as { value: string }).value;
  const before = sim.screenshot(MAIN);
  expect(await ocr()).toBe('');
  expect(await sendAai(sim, token, `{query:"R:.email",action:"setText('me@example.com')"}`)).toEqual(ok({ retval: true }));
  expect(await ocr()).toBe('me@example.com\n');
  expect(sim.screenshot(MAIN).equals(before)).toBe(false);
  expect(await sendAai(sim, token, '{query:"R:.email",action:"setText()"}')).toEqual(ok({ retval: true }));
  expect(await ocr()).toBe('');
  expect(sim.screenshot(MAIN).equals(before), 'emptied: the field as it was').toBe(true);
});

test.describe('templates and ids on a screen of its own', () => {
  test.use({
    simOptions: {
      scenario: {
        phones: [
          {
            id: MAIN,
            screen: {
              width: 100,
              height: 100,
              elements: [
                { id: 'org.other:id/banner', class: 'android.widget.ImageView', bounds: [0, 0, 100, 20] },
                { text: 'Go', id: 'org.other:id/go', bounds: [0, 50, 100, 70], clickable: true },
              ],
            },
          },
        ],
      },
    },
  });

  test('a bare view is found with TP:more, the root with TP:all; R:.x takes the app in front, or any app with none', async ({ sim }) => {
    const token = await login(sim);
    const count = async (query: string) => ((await sendAai(sim, token, `{query:${JSON.stringify(query)}}`)) as { value: { count: number } }).value.count;
    expect([await count('R:*banner'), await count('TP:more&&R:*banner'), await count('TP:all'), await count('TP:all&&C:android.widget.FrameLayout')]).toEqual([0, 1, 3, 1]);
    expect(await sendAai(sim, token, '{query:"TP:all&&IX:0",action:"getBounds"}')).toEqual(ok({ bounds: [[0, 0, 100, 100]] }));
    expect(await count('R:.go'), 'no app in front: any package').toBe(1);
    await call(sim, `/devices/${MAIN}/apps/${APP}?state=active&token=${token}`, { method: 'POST' });
    expect([await count('R:.go'), await count('R:go'), await count('R:org.other:id/go')], 'com.example.app in front').toEqual([0, 1, 1]);
  });
});

test.describe('a simulator without the element engine', () => {
  test.use({ simOptions: { elements: false, missingRoutes: 'envelope' } });

  test('answers sendAai as a route not offered, and still reads text on the screen', async ({ sim }) => {
    const token = await signInShown(sim);
    for (const version of ['v1', 'v2']) {
      expect(await sendAai(sim, token, '{query:"T:Sign in"}', 'form', version)).toEqual(failed(`no such route: POST /TotalControl/${version}/devices/${MAIN}/sendAai`));
    }
    expect((await call(sim, `/devices/${MAIN}/screen/texts?rect=[60,780,1020,910]&mode=singleline&token=${token}`)).json).toEqual(ok('Sign in\n'));
  });
});

test.describe('seed', () => {
  test.use({ simOptions: { capabilities: 'seed' } });

  test('lacks sendAai: HTTP 404, no such route', async ({ sim }) => {
    const token = await login(sim);
    const answer = await call(sim, `/devices/${MAIN}/sendAai`, { method: 'POST', headers: FORM_TYPE, body: `params=${encodeURIComponent('{query:"TP:all"}')}&token=${token}` });
    expect([answer.status, answer.json]).toEqual([404, failed(`no such route: POST /TotalControl/v1/devices/${MAIN}/sendAai`)]);
  });
});

test('sendAai without params, on a phone gone, with GET', async ({ sim }) => {
  const token = await login(sim);
  expect((await call(sim, `/devices/${MAIN}/sendAai?token=${token}`, { method: 'POST' })).json).toEqual(failed('sendAai takes params, a JavaScript object literal such as {query:"T:OK",action:"click"}'));
  expect((await call(sim, `/devices/device@999/sendAai?token=${token}&params={}`, { method: 'POST' })).json).toEqual(failed('device not found'));
  expect((await call(sim, `/devices/${MAIN}/sendAai?token=${token}&params={}`)).status).toBe(404);
});
