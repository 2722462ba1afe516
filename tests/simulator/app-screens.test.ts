// Apps' screens: the default scenario's example app on every phone (a sign-in form in text and elements),
// started and closed as clients do, the home key, taps that open screens, typing into a focused field, and the
// admin API's view of what a phone shows.
import { PNG } from 'pngjs';
import { SimulatorAdmin, type SimulatorHandle } from '../../src/simulator/index.js';
import { LAUNCHER } from '../../src/simulator/phone.js';
import { A, admin, authed, expect, login, MAIN, test, TWO_PHONES } from './harness.js';
import { rawRequest } from './wire.js';

const APP = 'com.example.app';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const id = (name: string) => `${APP}:id/${name}`;

/** Starts or closes the app as the client does: `state` in the query, an empty POST. */
async function appState(sim: SimulatorHandle, token: string, device: string, state: string): Promise<void> {
  const answer = await authed(sim, token, `/devices/${device}/apps/${APP}?state=${state}`, { method: 'POST' });
  expect(answer.json).toEqual({ status: true, value: `make it ${state}` });
}

/** An act through `screen/inputs` (a form body, as the client sends it). */
async function input(sim: SimulatorHandle, token: string, device: string, body: string): Promise<void> {
  expect((await authed(sim, token, `/devices/${device}/screen/inputs`, { method: 'POST', headers: FORM, body })).json).toEqual({ status: true });
}

/** The OCR's reading of the whole screen, one line per line of text. */
async function readAll(sim: SimulatorHandle, token: string, device: string): Promise<string> {
  const phone = sim.phones.find((p) => p.id === device)!;
  return ((await authed(sim, token, `/devices/${device}/screen/texts?rect=[0,0,${phone.width},${phone.height}]&lang=eng&mode=multiline`)).json as { value: string }).value;
}

/** The colours of a row of pixels, `[left, right)` on line `y`, through a capture of that row, as a client reads them. */
async function captureRow(sim: SimulatorHandle, token: string, device: string, left: number, right: number, y: number): Promise<number[]> {
  const captured = (await authed(sim, token, `/devices/${device}/screen/images?type=png&location=pc&rect=[${left},${y},${right},${y + 1}]`)).json as { value: string };
  const image = PNG.sync.read((await rawRequest(sim.port, { method: 'GET', target: new URL(captured.value).pathname })).body);
  return Array.from({ length: image.width }, (_, x) => image.data.readUInt32BE(x * 4) >>> 8);
}

/** The centre of an element of the screen shown. */
function centre(sim: SimulatorHandle, device: string, resourceId: string): { x: number; y: number } {
  const element = sim.screenInfo(device).elements.find((e) => e.id === resourceId);
  if (!element) throw new Error(`no element ${resourceId} on ${device}`);
  const [l, t, r, b] = element.bounds;
  return { x: Math.floor((l + r) / 2), y: Math.floor((t + b) / 2) };
}

test('every default phone has the example app: its start shows the sign-in form, home shows the home screen again', async ({ sim }) => {
  const token = await login(sim);
  expect(sim.phones).toHaveLength(4);
  for (const phone of sim.phones) {
    const home = sim.screenshot(phone.id);
    expect(sim.screenInfo(phone.id), phone.name).toEqual({ screen: null, elements: [], texts: [] });
    await appState(sim, token, phone.id, 'active');
    const shown = sim.screenInfo(phone.id);
    expect(shown.screen, phone.name).toBe('sign-in');
    expect(shown.elements.map((e) => [e.id, e.class, e.text, e.description, e.clickable, e.editable]), phone.name).toEqual([
      [id('title'), 'android.widget.TextView', 'Welcome back', '', false, false],
      [id('help'), 'android.widget.ImageButton', '', 'Help', true, false],
      [id('email_label'), 'android.widget.TextView', 'Email', '', false, false],
      [id('email'), 'android.widget.EditText', '', '', true, true],
      [id('password_label'), 'android.widget.TextView', 'Password', '', false, false],
      [id('password'), 'android.widget.EditText', '', '', true, true],
      [id('login'), 'android.widget.Button', 'Sign in', '', true, false],
      [id('terms'), 'android.widget.TextView', 'Forgot password? Terms of service apply.', '', false, false],
    ]);
    for (const e of shown.elements) {
      const [l, t, r, b] = e.bounds;
      expect(l >= 0 && t >= 0 && r <= phone.width && b <= phone.height && l < r && t < b, `${phone.name} ${e.id} ${JSON.stringify(e.bounds)}`).toBe(true);
    }
    expect(await readAll(sim, token, phone.id), phone.name).toBe('12:30\nWelcome back\nEmail\nPassword\nSign in\nForgot password? Terms of service apply.\n');
    // The button is blue with white text: its corner is the fill, and white is among the pixels of its middle row
    // (a capture of that row: decoding the whole of a tablet's screen here would hold the event loop for seconds).
    const button = shown.elements.find((e) => e.id === id('login'))!;
    const [left, top, right, bottom] = button.bounds;
    const middle = Math.floor((top + bottom) / 2) + 2;
    const row = await captureRow(sim, token, phone.id, left, right, middle);
    expect(row[2], phone.name).toBe(0x1a73e8);
    expect(row, phone.name).toContain(0xffffff);
    await input(sim, token, phone.id, 'code=home');
    expect(sim.screenInfo(phone.id).screen, phone.name).toBeNull();
    expect(sim.screenshot(phone.id).equals(home), `${phone.name}: the home screen as it was`).toBe(true);
  }
});

test('a tap on "Sign in" shows "Signed in"; back goes to the form, back again home; the bridge\'s keys do the same', async ({ sim }) => {
  const token = await login(sim);
  await appState(sim, token, MAIN, 'active');
  const { x, y } = centre(sim, MAIN, id('login'));
  await input(sim, token, MAIN, `x=${x}&y=${y}`);
  expect(sim.phones[0]!.screen).toBe('signed-in');
  expect(await readAll(sim, token, MAIN)).toBe('12:30\nSigned in\nYou are signed in to Example.\nSign out\n');
  await input(sim, token, MAIN, 'code=back');
  expect(sim.phones[0]!.screen).toBe('sign-in');
  const bridge = async (param: string) => expect((await authed(sim, token, `/devices/${MAIN}/scripts?cmd=send&param=${param}`, { method: 'POST' })).json).toEqual({ status: true, value: '0' });
  await bridge('sigmaConst.KEY_BACK');
  expect(sim.phones[0]!.screen).toBeNull();
  expect((await authed(sim, token, `/devices/${MAIN}/apps?q=foreground_app`)).json).toEqual({ status: true, value: LAUNCHER });
  await appState(sim, token, MAIN, 'active');
  await bridge('sigmaConst.KEY_HOME');
  expect(sim.phones[0]!.screen).toBeNull();
  // A tap outside any element, a key held down only: nothing changes.
  await appState(sim, token, MAIN, 'active');
  await input(sim, token, MAIN, 'x=5&y=1900');
  await input(sim, token, MAIN, 'code=home&state=down');
  expect(sim.phones[0]!.screen).toBe('sign-in');
});

test('closing the app in front goes home; closing another app does not; restart shows the form as the scenario has it', async ({ sim }) => {
  const token = await login(sim);
  await appState(sim, token, MAIN, 'active');
  expect((await authed(sim, token, `/devices/${MAIN}/apps/com.android.settings?state=inactive`, { method: 'POST' })).json).toMatchObject({ status: true });
  expect(sim.phones[0]!.screen).toBe('sign-in');
  const field = centre(sim, MAIN, id('email'));
  await input(sim, token, MAIN, `x=${field.x}&y=${field.y}`);
  expect((await authed(sim, token, `/devices/${MAIN}/screen/texts`, { method: 'POST', headers: FORM, body: 'text=me%40example.com' })).json).toEqual({ status: true });
  await appState(sim, token, MAIN, 'inactive');
  expect(sim.phones[0]!.screen).toBeNull();
  await appState(sim, token, MAIN, 'active');
  expect(sim.screenInfo(MAIN).elements.find((e) => e.id === id('email'))!.text, 'started again: as it was left').toBe('me@example.com');
  await appState(sim, token, MAIN, 'restart');
  expect(sim.screenInfo(MAIN).elements.find((e) => e.id === id('email'))!.text, 'restarted: as the scenario has it').toBe('');
  // An app the scenario gives no screen: in front, over the home screen's pixels.
  await authed(sim, token, `/devices/${MAIN}/apps/com.example.chat?state=active`, { method: 'POST' });
  expect(sim.phones[0]!.screen).toBeNull();
});

test('text typed after a tap on a field goes into it, drawn, through screen/texts and the bridge; without a focused field it is only recorded', async ({ sim }) => {
  const token = await login(sim);
  await appState(sim, token, MAIN, 'active');
  const type = (text: string) => authed(sim, token, `/devices/${MAIN}/screen/texts`, { method: 'POST', headers: FORM, body: `text=${encodeURIComponent(text)}` });
  await type('ignored');
  expect(sim.screenInfo(MAIN).elements.filter((e) => e.editable).map((e) => e.text)).toEqual(['', '']);
  const field = centre(sim, MAIN, id('password'));
  await input(sim, token, MAIN, `x=${field.x}&y=${field.y}`);
  await type('hunter');
  expect((await authed(sim, token, `/devices/${MAIN}/scripts?cmd=inputText&param=${encodeURIComponent('"2"')}`, { method: 'POST' })).json).toEqual({ status: true, value: '0' });
  expect(sim.screenInfo(MAIN).elements.find((e) => e.id === id('password'))!.text).toBe('hunter2');
  expect(await readAll(sim, token, MAIN)).toContain('Password\nhunter2\nSign in');
  expect(sim.acts().filter((a) => a.kind === 'text').map((a) => [a.via, 'text' in a ? a.text : ''])).toEqual([
    ['texts', 'ignored'],
    ['texts', 'hunter'],
    ['script', '2'],
  ]);
});

test.describe('the admin API', () => {
  test.use({ simOptions: { scenario: TWO_PHONES } });

  test('a drawn screen with texts and elements: GET phones/<id>/elements and the admin client tell what is shown; an element that opens no screen is refused', async ({ sim }) => {
    const screen = {
      width: 4,
      height: 4,
      fill: '0xffffff',
      texts: [{ x: 0, y: 0, text: 'Hi', size: 3 }],
      elements: [{ text: 'OK', id: 'org.example:id/ok', class: 'android.widget.Button', bounds: { x: 0, y: 2, width: 4, height: 2 }, clickable: true }],
    };
    expect((await admin(sim, 'PUT', `phones/${A}/screen`, screen)).json).toMatchObject({ ok: true });
    const expected = {
      screen: null,
      elements: [{ text: 'OK', description: '', id: 'org.example:id/ok', class: 'android.widget.Button', bounds: [0, 2, 4, 4], clickable: true, editable: false }],
      texts: [
        { text: 'Hi', x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) },
        { text: 'OK', x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) },
      ],
    };
    expect((await admin(sim, 'GET', `phones/${A}/elements`)).json).toEqual({ ok: true, ...expected });
    expect(await new SimulatorAdmin(sim.url, sim.adminKey).screenInfo(A)).toEqual(expected);
    const refused = await admin(sim, 'PUT', `phones/${A}/screen`, { ...screen, elements: [{ bounds: [0, 0, 1, 1], opens: 'next' }] });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ ok: false, error: 'screen.elements[0].opens is "next", which is not a screen of the phone; write one of its "screens" (it has none)' });
    expect(sim.screenInfo(A).elements.map((e) => e.text), 'nothing changed').toEqual(['OK']);
  });
});

test('a screen of another size set through the admin API leaves the phone without its app screens', async ({ sim }) => {
  const token = await login(sim);
  sim.setScreen(MAIN, { width: 10, height: 10 });
  await appState(sim, token, MAIN, 'active');
  expect(sim.phones[0]!.screen).toBeNull();
  expect((await authed(sim, token, `/devices/${MAIN}/apps?q=foreground_app`)).json).toEqual({ status: true, value: APP });
});
