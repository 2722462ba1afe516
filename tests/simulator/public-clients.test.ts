// Conformance to the vendor's public clients: every request form that programs nobody here wrote send to a
// device-control server, one row each, named by the client (or reference page) it comes from, written from
// what those clients are known to send on the wire (no client's code). Each row goes out as raw HTTP on a
// socket of its own, under /TotalControl/v1 and again under /TotalControl/v2 with the token of a v1 login
// (as the Java clients do); the answer and the acts it records (route and arguments) are checked.
import { decode as decodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';
import type { Act, SimulatorHandle } from '../../src/simulator/index.js';
import { MAIN, VENDOR_AUTH, expect, login, test } from './harness.js';
import { rawRequest, type RawAnswer } from './wire.js';

/** The default scenario's phones: the main one (1080×1920) and the Pixel 7, and what every phone has installed. */
const PIXEL_7 = 'device@1174886816';
const ALL = ['device@1116106541', 'device@1174886816', 'device@24681357', 'device@-230441652'];
const INSTALLED = ['com.android.settings', 'com.android.chrome', 'com.sigma_rt.totalcontrol', 'com.example.app'];
const OK = { status: true };
/** Starts the default scenario's example app on the main phone: its sign-in form is in front (1080×1920). */
const signInShown = async (sim: SimulatorHandle, token: string, root: string) => void (await rawRequest(sim.port, { method: 'POST', target: `${root}/devices/${MAIN}/apps/com.example.app?state=active&token=${token}` }));

/** An act as a row expects it: without the phone (the main one) and the time. */
type RowAct = Act extends infer A ? (A extends unknown ? Omit<A, 'device' | 'at'> : never) : never;

/** Where a row's arguments and token travel. */
type Place =
  /** In the query; a POST's body is empty (browser and Node clients). */
  | 'query'
  /** In a form body with `Content-Type: application/x-www-form-urlencoded` (Maniackaa, pddtest, App.py). */
  | 'form'
  /** In a JSON object body with no Content-Type, on a request line in absolute form (h1100e, Python 2 httplib). */
  | 'json';

interface Form {
  form: string;
  source: string;
  method: 'GET' | 'POST';
  /** Under the API root; `{phone}` is the main phone. */
  path: string;
  place: Place;
  args?: Record<string, unknown>;
  /** Sent with a token? (the login is not). @default true */
  token?: boolean;
  headers?: Record<string, string>;
  /** Run before the row, through the handle or the wire: its acts are not the row's. */
  setup?: (sim: SimulatorHandle, token: string, root: string) => Promise<void> | void;
  answer: unknown;
  status?: number;
  /** The acts the row records, without device (the main phone) and time. @default none */
  acts?: RowAct[];
  /** More to check on the answer (an image to download). */
  check?: (answer: RawAnswer, sim: SimulatorHandle) => Promise<void>;
}

const inputs = '/devices/{phone}/screen/inputs';
const texts = '/devices/{phone}/screen/texts';
const images = '/devices/{phone}/screen/images';

/** Every form of the clients' wire, acts and reads, one row each. */
const FORMS: Form[] = [
  // The wire.
  { form: 'login: Authorization base64(user:password), no scheme word', source: 'every client', method: 'GET', path: '/login', place: 'query', token: false, headers: { authorization: VENDOR_AUTH }, answer: { status: true, value: { token: expect.stringMatching(/^[A-Za-z0-9]{16}$/) } } },
  { form: 'login refused: status null', source: 'reference page token', method: 'GET', path: '/login', place: 'query', token: false, headers: { authorization: Buffer.from('sigma:wrong').toString('base64') }, answer: { status: null, value: 'wrong user name or password' } },
  { form: 'the main device, token in the query, no status key', source: 'every client', method: 'GET', path: '/devices/main', place: 'query', answer: { id: MAIN } },
  { form: 'a request line in absolute form', source: 'h1100e', method: 'GET', path: '/devices/main', place: 'json', answer: { id: MAIN } },
  { form: 'pixel colour', source: 'reference page getPixelColor', method: 'GET', path: '/devices/{phone}/screen/colors', place: 'query', args: { q: 'color', x: 100, y: 100 }, answer: { status: true, value: { r: 37, g: 66, b: 92, rgb: '0x25425c' } } },
  // Device list and its filters.
  { form: 'device list q=all, no status key', source: 'h1100e; reference page device list', method: 'GET', path: '/devices', place: 'query', args: { q: 'all' }, answer: { ids: ALL } },
  { form: 'device list q=name&name=<name>', source: 'h1100e', method: 'GET', path: '/devices', place: 'query', args: { q: 'name', name: 'pixel-7' }, answer: { ids: [PIXEL_7] } },
  { form: 'device list q=group&name=<group>', source: 'h1100e', method: 'GET', path: '/devices', place: 'query', args: { q: 'group', name: 'default' }, answer: { ids: ALL } },
  { form: 'device list q=name of a phone not there: no phones', source: 'h1100e; Maniackaa (an empty lab)', method: 'GET', path: '/devices', place: 'query', args: { q: 'name', name: 'nokia-3310' }, answer: { ids: [] } },
  // Taps and touches through screen/inputs.
  { form: 'tap, JSON with state press', source: 'h1100e', method: 'POST', path: inputs, place: 'json', args: { x: 540, y: 960, state: 'press' }, answer: OK, acts: [{ via: 'inputs', kind: 'tap', x: 540, y: 960 }] },
  { form: 'tap, form without state', source: 'Maniackaa', method: 'POST', path: inputs, place: 'form', args: { x: 10, y: 20 }, answer: OK, acts: [{ via: 'inputs', kind: 'tap', x: 10, y: 20 }] },
  { form: 'tap, form with state press', source: 'pddtest', method: 'POST', path: inputs, place: 'form', args: { x: 1079, y: 1919, state: 'press' }, answer: OK, acts: [{ via: 'inputs', kind: 'tap', x: 1079, y: 1919 }] },
  { form: 'touch down, form', source: 'pddtest', method: 'POST', path: inputs, place: 'form', args: { x: 100, y: 200, state: 'down' }, answer: OK, acts: [{ via: 'inputs', kind: 'touch-down', x: 100, y: 200 }] },
  { form: 'touch up, form', source: 'pddtest', method: 'POST', path: inputs, place: 'form', args: { x: 100, y: 600, state: 'up' }, answer: OK, acts: [{ via: 'inputs', kind: 'touch-up', x: 100, y: 600 }] },
  { form: 'touch move, JSON', source: 'h1100e', method: 'POST', path: inputs, place: 'json', args: { x: 100, y: 400, state: 'move' }, answer: OK, acts: [{ via: 'inputs', kind: 'touch-move', x: 100, y: 400 }] },
  { form: 'tap, arguments in the query of a POST', source: 'browser clients', method: 'POST', path: inputs, place: 'query', args: { x: 300, y: 400 }, answer: OK, acts: [{ via: 'inputs', kind: 'tap', x: 300, y: 400 }] },
  // Keys.
  { form: 'key code=home, form', source: 'Maniackaa', method: 'POST', path: inputs, place: 'form', args: { code: 'home' }, answer: OK, acts: [{ via: 'inputs', kind: 'key', key: 'home', state: 'press' }] },
  { form: 'key code=backspace&state=press, form', source: 'pddtest', method: 'POST', path: inputs, place: 'form', args: { code: 'backspace', state: 'press' }, answer: OK, acts: [{ via: 'inputs', kind: 'key', key: 'backspace', state: 'press' }] },
  { form: 'key code=back&state=press in the query', source: 'browser clients', method: 'POST', path: inputs, place: 'query', args: { code: 'back', state: 'press' }, answer: OK, acts: [{ via: 'inputs', kind: 'key', key: 'back', state: 'press' }] },
  { form: 'key code=recentapp, JSON', source: 'h1100e', method: 'POST', path: inputs, place: 'json', args: { code: 'recentapp', state: 'down' }, answer: OK, acts: [{ via: 'inputs', kind: 'key', key: 'recentapp', state: 'down' }] },
  // Paths and directions.
  {
    form: 'path coord=[[x,y,ms],…]: press, move, release',
    source: 'h1100e docstring',
    method: 'POST',
    path: inputs,
    place: 'json',
    args: { coord: [[500, 1500, 0], [500, 1000, 100], [500, 500, 100]] },
    answer: OK,
    acts: [{ via: 'inputs', kind: 'swipe', from: { x: 500, y: 1500 }, to: { x: 500, y: 500 }, durationMs: 200, path: [{ x: 500, y: 1500, ms: 0 }, { x: 500, y: 1000, ms: 100 }, { x: 500, y: 500, ms: 100 }] }],
  },
  { form: 'path coord=[[x,y],[x,y]] without times', source: 'Maniackaa', method: 'POST', path: inputs, place: 'form', args: { coord: '[[600,300],[610,310]]' }, answer: OK, acts: [{ via: 'inputs', kind: 'swipe', from: { x: 600, y: 300 }, to: { x: 610, y: 310 }, durationMs: 0 }] },
  { form: 'long press: every point of coord the same', source: 'h1100e docstring', method: 'POST', path: inputs, place: 'json', args: { coord: '[[40,50,0],[40,50,1500]]' }, answer: OK, acts: [{ via: 'inputs', kind: 'long-press', x: 40, y: 50, durationMs: 1500 }] },
  { form: 'direction=up', source: 'h1100e', method: 'POST', path: inputs, place: 'json', args: { direction: 'up' }, answer: OK, acts: [{ via: 'inputs', kind: 'directional-swipe', direction: 'up', from: { x: 540, y: 1440 }, to: { x: 540, y: 480 } }] },
  // Text and the clipboard.
  { form: 'type text, POST form', source: 'Maniackaa, pddtest', method: 'POST', path: texts, place: 'form', args: { text: 'hello wörld & co' }, answer: OK, acts: [{ via: 'texts', kind: 'text', text: 'hello wörld & co' }] },
  { form: 'type text, POST with text in the query', source: 'a Node client', method: 'POST', path: texts, place: 'query', args: { text: '验证码 123456' }, answer: OK, acts: [{ via: 'texts', kind: 'text', text: '验证码 123456' }] },
  { form: 'type text, GET ?text=', source: 'h1100e', method: 'GET', path: texts, place: 'json', args: { text: 'from a GET' }, answer: OK, acts: [{ via: 'texts', kind: 'text', text: 'from a GET' }] },
  { form: 'read the clipboard, GET ?type=clipboard_text', source: 'h1100e', method: 'GET', path: texts, place: 'json', args: { type: 'clipboard_text' }, setup: (sim) => sim.setClipboard(MAIN, 'copied text'), answer: { status: true, value: 'copied text' } },
  {
    form: 'read text on the screen, GET ?rect=&lang=eng&mode=singleline (OCR)',
    source: 'vendor news page on OCR',
    method: 'GET',
    path: texts,
    place: 'query',
    args: { rect: '[60,160,1020,280]', lang: 'eng', mode: 'singleline' },
    setup: signInShown,
    answer: { status: true, value: 'Welcome back\n' },
  },
  // Apps.
  { form: 'app state=inactive in the query', source: 'Maniackaa; reference page closeApp', method: 'POST', path: '/devices/{phone}/apps/com.example.chat', place: 'query', args: { state: 'inactive' }, answer: { status: true, value: 'make it inactive' }, acts: [{ via: 'apps', kind: 'app', app: 'com.example.chat', state: 'inactive' }] },
  { form: 'app state=active, form', source: 'App.py', method: 'POST', path: '/devices/{phone}/apps/com.example.chat', place: 'form', args: { state: 'active' }, answer: { status: true, value: 'make it active' }, acts: [{ via: 'apps', kind: 'app', app: 'com.example.chat', state: 'active' }] },
  { form: 'app state=restart, JSON', source: 'h1100e', method: 'POST', path: '/devices/{phone}/apps/com.example.chat', place: 'json', args: { state: 'restart' }, answer: { status: true, value: 'make it restart' }, acts: [{ via: 'apps', kind: 'app', app: 'com.example.chat', state: 'restart' }] },
  {
    form: 'the app in front, q=foreground_app',
    source: 'h1100e, App.py',
    method: 'GET',
    path: '/devices/{phone}/apps',
    place: 'json',
    args: { q: 'foreground_app' },
    setup: async (sim, token, root) => void (await rawRequest(sim.port, { method: 'POST', target: `${root}/devices/${MAIN}/apps/com.example.chat?state=active&token=${token}` })),
    answer: { status: true, value: 'com.example.chat' },
  },
  { form: 'the installed packages, q=installed_apk_list', source: 'h1100e', method: 'GET', path: '/devices/{phone}/apps', place: 'json', args: { q: 'installed_apk_list' }, answer: { status: true, value: INSTALLED } },
  // Captures.
  {
    form: 'capture type=jpg&location=pc&file=<path on the PC>',
    source: 'pddtest',
    method: 'GET',
    path: images,
    place: 'query',
    args: { type: 'jpg', location: 'pc', file: 'D:/shots/home.jpg' },
    answer: { status: true, value: expect.stringMatching(/^http:\/\/localhost:\d+\/1\/\d+\.jpg$/) },
    check: async (answer, sim) => expect(await download(sim, answer)).toMatchObject({ type: 'image/jpeg', width: 1080, height: 1920 }),
  },
  {
    form: 'capture type=png&location=pc&rect=[x1,y1,x2,y2]',
    source: 'reference page screenshot',
    method: 'GET',
    path: images,
    place: 'query',
    args: { type: 'png', location: 'pc', rect: '[0,0,48,30]' },
    answer: { status: true, value: expect.stringMatching(/^http:\/\/localhost:\d+\/1\/\d+\.png$/) },
    check: async (answer, sim) => expect(await download(sim, answer)).toMatchObject({ type: 'image/png', width: 48, height: 30 }),
  },
  {
    form: 'capture type=bmp&location=pc',
    source: 'h1100e docstring',
    method: 'GET',
    path: images,
    place: 'json',
    args: { type: 'bmp', location: 'pc', rect: '[10,20,30,25]' },
    answer: { status: true, value: expect.stringMatching(/^http:\/\/localhost:\d+\/1\/\d+\.bmp$/) },
    check: async (answer, sim) => expect(await download(sim, answer)).toMatchObject({ type: 'image/bmp', width: 20, height: 5 }),
  },
  { form: 'capture location=device: saved on the phone', source: 'h1100e docstring; reference page', method: 'GET', path: images, place: 'json', args: { type: 'png', location: 'device', file: '/sdcard/shot.png' }, answer: OK },
  // UI elements, on the example app's sign-in form: params a JavaScript object literal, in each of the three places.
  {
    form: "sendAai, form body: params={query:'T:Sign in',action:'click'}",
    source: 'Maniackaa',
    method: 'POST',
    path: '/devices/{phone}/sendAai',
    place: 'form',
    args: { params: "{query:'T:Sign in',action:'click'}" },
    setup: signInShown,
    answer: { status: true, value: { retval: true } },
    acts: [{ via: 'aai', kind: 'tap', x: 540, y: 845 }],
  },
  {
    form: 'sendAai, the query with an empty body (&& sent as %26%26): a one-action list answers unwrapped',
    source: 'browser and Node clients',
    method: 'POST',
    path: '/devices/{phone}/sendAai',
    place: 'query',
    args: { params: '{action:["getBounds"],query:"TP:more&&D:Help"}' },
    setup: signInShown,
    answer: { status: true, value: { bounds: [[924, 172, 1020, 268]] } },
  },
  {
    form: 'sendAai, JSON body without a Content-Type: setText',
    source: 'Node clients',
    method: 'POST',
    path: '/devices/{phone}/sendAai',
    place: 'json',
    args: { params: "{query:\"R:.email\",action:\"setText('me@example.com')\"}" },
    setup: signInShown,
    answer: { status: true, value: { retval: true } },
    acts: [{ via: 'aai', kind: 'text', text: 'me@example.com' }],
  },
];

for (const version of ['v1', 'v2'] as const) {
  test.describe(`under /TotalControl/${version}${version === 'v2' ? ', with the token of a v1 login' : ''}`, () => {
    for (const row of FORMS) {
      test(`${row.form} (${row.source})`, async ({ sim }) => {
        const root = `/TotalControl/${version}`;
        const token = await login(sim);
        await row.setup?.(sim, token, root);
        const before = sim.acts().length;
        const answer = await send(sim, row, root, token);
        expect(answer.status, answer.body.toString()).toBe(row.status ?? 200);
        expect(answer.json).toEqual(row.answer);
        expect(sim.acts().slice(before).map(({ at: _, ...act }) => act)).toEqual((row.acts ?? []).map((act) => ({ device: MAIN, ...act })));
        await row.check?.(answer, sim);
      });
    }
  });
}

/** Sends a row as its client does: where its arguments and token go, which headers, which request line. */
function send(sim: SimulatorHandle, row: Form, root: string, token: string): Promise<RawAnswer> {
  const args: Record<string, unknown> = { ...row.args, ...(row.token === false ? {} : { token }) };
  const path = `${root}${row.path.replace('{phone}', MAIN)}`;
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const query = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, text(v)])).toString();
  // A GET carries its arguments in the query whatever the client; only a POST has a body to put them in.
  if (row.place === 'query' || row.method === 'GET') {
    const target = `${row.place === 'json' ? `http://127.0.0.1:${sim.port}` : ''}${path}${query ? `?${query}` : ''}`;
    return rawRequest(sim.port, { method: row.method, target, headers: row.headers });
  }
  if (row.place === 'form') return rawRequest(sim.port, { method: row.method, target: path, headers: { 'content-type': 'application/x-www-form-urlencoded', ...row.headers }, body: query });
  return rawRequest(sim.port, { method: row.method, target: `http://127.0.0.1:${sim.port}${path}`, headers: row.headers, body: JSON.stringify(args) });
}

/** Downloads a capture's image (`localhost` stands for the server, as clients read it) and reads its size. */
async function download(sim: SimulatorHandle, answer: RawAnswer): Promise<{ type: string | undefined; width: number; height: number }> {
  const url = new URL((answer.json as { value: string }).value);
  const image = await rawRequest(sim.port, { method: 'GET', target: url.pathname });
  expect(image.status).toBe(200);
  const type = image.headers['content-type'];
  if (type === 'image/png') return { type, ...PNG.sync.read(image.body) };
  if (type === 'image/jpeg') return { type, ...decodeJpeg(image.body, { useTArray: true }) };
  return { type, width: image.body.readInt32LE(18), height: image.body.readInt32LE(22) };
}
