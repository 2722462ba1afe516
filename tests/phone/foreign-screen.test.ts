// Locators on an app screen neither drawn nor served by phonewright's code: a sign-in form laid out and drawn by
// Chromium with the system's fonts, served by the fake server (written from the vendor's pages, in its answer
// forms), whose UI elements are the page's own boxes. Through the engine a spec taps the button by its text and
// by its resource id and the help icon by its description, sees one text and not another, and fails on an
// absent text by its name; without the engine it taps the white-on-blue button by its text, sees the same
// texts, and readText gives the title.
import { chromium, type Browser } from '@playwright/test';
import { parseDeviceId } from '../../src/core/device-id.js';
import type { Rect } from '../../src/core/screen.js';
import { cropImage, decodePng, encodePng, type Image } from '../../src/image/index.js';
import { checkVisible } from '../../src/phone/check-locator.js';
import { Phone, type CheckContext } from '../../src/phone/index.js';
import { formOf, startFakeServer, VENDOR_MAIN_DEVICE, type FakeServer } from '../helpers/fake-server.js';
import { failure } from '../helpers/failure.js';
import { expect, startsHeavy, test } from '../helpers/test.js';

const SIZE = { width: 1080, height: 1920 };
const APP = 'com.example.app';

/** The form: a title and a help icon, two labelled fields, a blue button, small print; then the screen it opens. */
const PAGE = (signedIn: boolean) => `<!doctype html><html><body style="margin:0;width:1080px;height:1920px;background:#fff;font-family:sans-serif">
<div style="height:72px;background:#101820"></div>
${
  signedIn
    ? `<h1 data-text="Signed in" data-id="title" style="margin:100px 60px 0;font-size:72px">Signed in</h1>`
    : `<h1 data-text="Welcome back" data-id="title" style="margin:100px 60px 0;font-size:72px;display:inline-block">Welcome back</h1>
<div data-description="Help" data-id="help" style="position:absolute;left:924px;top:172px;width:96px;height:96px;background:#1a73e8;border-radius:48px"></div>
<p data-text="Email" data-id="email_label" style="margin:60px 60px 8px;font-size:40px;color:#5f6368">Email</p>
<div data-id="email" style="margin:0 60px;height:110px;background:#f1f3f4"></div>
<p data-text="Password" data-id="password_label" style="margin:40px 60px 8px;font-size:40px;color:#5f6368">Password</p>
<div data-id="password" style="margin:0 60px;height:110px;background:#f1f3f4"></div>
<div data-text="Sign in" data-id="login" style="margin:70px 60px 0;height:130px;background:#1a73e8;color:#fff;font-size:48px;line-height:130px;text-align:center">Sign in</div>`
}
</body></html>`;

/** An element of the page as the engine would list it. */
interface Node {
  text: string;
  description: string;
  id: string;
  box: Rect;
}

/** One state of the app: the screen Chromium drew and the elements on it. */
interface Drawn {
  screen: Image;
  nodes: Node[];
}

async function draw(browser: Browser, signedIn: boolean): Promise<Drawn> {
  const page = await browser.newPage({ viewport: SIZE, deviceScaleFactor: 1 });
  await page.setContent(PAGE(signedIn));
  const nodes = await page.$$eval('[data-id]', (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      const d = (e as unknown as { dataset: Record<string, string | undefined> }).dataset;
      return { text: d.text ?? '', description: d.description ?? '', id: `com.example.app:id/${d.id}`, box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } };
    }),
  );
  const screen = decodePng(await page.screenshot(), 'the page');
  await page.close();
  return { screen, nodes };
}

/** A `T:*Sign in*` glob as a test: `*` any run of characters, the rest as written. */
const glob = (pattern: string, value: string) => value !== '' && new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(value);

/**
 * The fake server as a phone showing the app: properties, captures of its screen, taps through screen/inputs (a
 * tap on the button opens the next screen), and, unless `engine` is false, sendAai's FindNode over the page's
 * elements (T:, D:, R: with `.` for the app's ids, IX:; getCount, getBounds, getText, getDescription).
 */
async function appServer(states: [Drawn, Drawn], engine: boolean): Promise<{ server: FakeServer; taps: { x: number; y: number }[] }> {
  const server = await startFakeServer();
  const taps: { x: number; y: number }[] = [];
  let now = states[0];
  server.handle('deviceInfo', { body: `{"status": true, "value": {"name": "mobile1", "width": "${SIZE.width}", "height": "${SIZE.height}", "model": "SM-G960F", "manufacturer": "samsung", "androidVersionRelease": "10"}}` });
  const files = new Map<string, Buffer>();
  server.handle('capture', (req) => {
    const [x1, y1, x2, y2] = JSON.parse(req.query.get('rect')!) as number[];
    const path = `/867924024124417/${1523049073460 + files.size}.png`;
    files.set(path, encodePng(cropImage(now.screen, { x: x1!, y: y1!, width: x2! - x1!, height: y2! - y1! })));
    return { json: { status: true, value: `http://localhost:${server.port}${path}` } };
  });
  server.handle('unknown', (req) => (files.has(req.path) ? { body: files.get(req.path)!, headers: { 'content-type': 'image/png' } } : { status: 404, body: 'not found' }));
  server.handle('inputs', async (req) => {
    const form = await formOf(req);
    const at = { x: Number(form.get('x')), y: Number(form.get('y')) };
    taps.push(at);
    const button = now.nodes.find((n) => n.text === 'Sign in');
    if (button && at.x >= button.box.x && at.x < button.box.x + button.box.width && at.y >= button.box.y && at.y < button.box.y + button.box.height) now = states[1];
    return { json: { status: true } };
  });
  if (engine) {
    server.handle('aai', async (req) => {
      const params = (await formOf(req)).get('params') ?? '';
      const query = /query:"((?:[^"\\]|\\.)*)"/.exec(params)![1]!.replace(/\\(.)/g, '$1');
      const action = /action:"(\w+)"/.exec(params)![1]!;
      let found = now.nodes;
      let index: number | undefined;
      for (const term of query.split('&&')) {
        const [key, value] = [term.slice(0, term.indexOf(':')), term.slice(term.indexOf(':') + 1)];
        if (key === 'IX') index = Number(value);
        else if (key === 'T') found = found.filter((n) => glob(value, n.text));
        else if (key === 'D') found = found.filter((n) => glob(value, n.description));
        else if (key === 'R') found = found.filter((n) => glob(value.startsWith('.') ? `${APP}:id/${value.slice(1)}` : value, n.id));
      }
      if (index !== undefined) found = found.slice(index, index + 1);
      const value =
        action === 'getBounds'
          ? { bounds: found.map((n) => [n.box.x, n.box.y, n.box.x + n.box.width, n.box.y + n.box.height]) }
          : action === 'getText' || action === 'getDescription'
            ? { retval: action === 'getText' ? found[0]?.text : found[0]?.description }
            : { count: found.length };
      return { json: { status: true, value } };
    });
  }
  return { server, taps };
}

const ctx = (isNot = false, timeout = 10_000): CheckContext => ({ isNot, timeout });
const centre = (r: Rect) => ({ x: Math.floor(r.x + r.width / 2), y: Math.floor(r.y + r.height / 2) });
const inside = (p: { x: number; y: number }, r: Rect) => p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height;

let states: [Drawn, Drawn];
const servers: FakeServer[] = [];
test.beforeAll(async () => {
  startsHeavy('a browser');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    states = [await draw(browser, false), await draw(browser, true)];
  } finally {
    await browser.close();
  }
});
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function phoneOn(engine: boolean): Promise<{ phone: Phone; taps: { x: number; y: number }[] }> {
  const { server, taps } = await appServer(states, engine);
  servers.push(server);
  const { DeviceClient } = await import('../../src/client/index.js');
  const client = new DeviceClient({ url: server.url, user: 'sigma', password: '3D391497' });
  await client.login();
  return { phone: new Phone(client, parseDeviceId(VENDOR_MAIN_DEVICE), { waitTimeout: () => 10_000 }), taps };
}

const node = (by: keyof Node, value: string) => states[0].nodes.find((n) => n[by] === value)!;

test('through the engine: the button tapped by its text and its id, the icon by its description; a text seen, another not, an absent one failing by its name', async () => {
  const { phone, taps } = await phoneOn(true);
  expect((await checkVisible(phone.getByText('Welcome back'), ctx())).pass).toBe(true);
  expect((await checkVisible(phone.getByText('Signed in'), ctx(true))).pass).toBe(false);
  await phone.getByDescription('Help').tap();
  expect(taps).toEqual([centre(node('description', 'Help').box)]);
  expect(await phone.getById('.login').bounds()).toEqual(node('text', 'Sign in').box);
  await phone.getById(`${APP}:id/login`).tap();
  expect(taps.at(-1)).toEqual(centre(node('text', 'Sign in').box));
  expect((await checkVisible(phone.getByText('Signed in'), ctx())).pass).toBe(true);

  const absent = await failure(() => phone.getByText('Sign up').tap({ timeout: 1_000 }));
  expect(absent.message).toMatch(/^getByText\('Sign up'\) is not on the screen of device@1116106541: the UI elements had no match; nearest: "Signed in" at /);
});

test('without the engine: the white-on-blue button tapped by its text read from the screen; the same texts seen; readText gives the title', async () => {
  const { phone, taps } = await phoneOn(false);
  expect((await checkVisible(phone.getByText('Welcome back'), ctx())).pass).toBe(true);
  expect((await checkVisible(phone.getByText('Signed in'), ctx(true))).pass).toBe(false);
  const title = node('text', 'Welcome back').box;
  expect(await phone.readText({ rect: title })).toBe('Welcome back');
  expect((await phone.readText()).split('\n')).toEqual(expect.arrayContaining(['Welcome back', 'Email', 'Password', 'Sign in']));

  await phone.getByText('Sign in').tap();
  expect(taps).toHaveLength(1);
  expect(inside(taps[0]!, node('text', 'Sign in').box)).toBe(true);
  expect((await checkVisible(phone.getByText('Signed in'), ctx())).pass).toBe(true);
  const e = await failure(() => phone.getByDescription('Help').tap());
  expect(e.message).toMatch(/^getByDescription\('Help'\) needs the vendor's UI elements \(sendAai\), and /);
});
