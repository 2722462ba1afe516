// Scenarios: validation with messages naming the file, the JSON path and what to write; PNG screens,
// frames on a test clock, and the built-in scenario.
import { writeFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import { DEFAULT_SCENARIO, loadScenario, startSimulator, type ScenarioInput } from '../../src/simulator/index.js';
import { MAIN, T0, authed, expect, login, test } from './harness.js';

const PHONE = { id: 'device@1', screen: { width: 10, height: 10 } };

const INVALID: [string, unknown, string][] = [
  ['no phones', { phones: [] }, 'phones must be a non-empty list of phones'],
  ['not an object', [], 'the scenario must be a JSON object'],
  ['an unknown top-level key', { phones: [PHONE], phone: [] }, 'phone is not a known key; write one of main, behaviour, lab, phones, notifications'],
  ['a bad device id', { phones: [{ ...PHONE, id: 'phone-1' }] }, 'phones[0].id is "phone-1"; write device@<signed 32-bit integer>'],
  ['an id past 32 bits', { phones: [{ ...PHONE, id: 'device@4294967296' }] }, 'phones[0].id is "device@4294967296"'],
  ['two phones with one id', { phones: [PHONE, { ...PHONE, name: 'b' }] }, 'phones[1].id "device@1" is used by an earlier phone'],
  ['two phones with one name', { phones: [{ ...PHONE, name: 'x' }, { ...PHONE, id: 'device@2', name: 'x' }] }, 'phones[1].name "x" is used by an earlier phone'],
  ['a name unfit for a project', { phones: [{ ...PHONE, name: 'my phone!' }] }, 'phones[0].name is "my phone!"; write a short name'],
  ['neither screen nor frames', { phones: [{ id: 'device@1' }] }, 'phones[0] must have either "screen" or "frames"'],
  ['a width of zero', { phones: [{ id: 'device@1', screen: { width: 0, height: 10 } }] }, 'phones[0].screen.width is 0; write the screen width in pixels'],
  ['a colour that is not one', { phones: [{ id: 'device@1', screen: { width: 1, height: 1, fill: 'blue' } }] }, 'phones[0].screen.fill is "blue"; write a colour such as "0x25425c"'],
  ['a rectangle without a colour', { phones: [{ id: 'device@1', screen: { width: 1, height: 1, rects: [{ x: 0, y: 0, width: 1, height: 1 }] } }] }, 'phones[0].screen.rects[0].color is undefined'],
  ['a missing PNG', { phones: [{ id: 'device@1', screen: { png: 'nowhere.png' } }] }, 'phones[0].screen.png names'],
  ['a PNG with a size beside it', { phones: [{ id: 'device@1', screen: { png: 'a.png', width: 2 } }] }, 'phones[0].screen.width cannot go with "png"'],
  ['a frame without a duration', { phones: [{ id: 'device@1', frames: [{ width: 1, height: 1 }] }] }, 'phones[0].frames[0].durationMs is undefined; write how long the frame shows'],
  ['frames of two sizes', { phones: [{ id: 'device@1', frames: [{ width: 1, height: 1, durationMs: 1 }, { width: 2, height: 1, durationMs: 1 }] }] }, 'phones[0].frames[1] is 2×1 but frame 0 is 1×1'],
  ['an empty model', { phones: [{ ...PHONE, model: '' }] }, 'phones[0].model is ""; write a text of 1 to 100 characters'],
  ['an Android release that is a number', { phones: [{ ...PHONE, android: 13 }] }, 'phones[0].android is 13; write a text of 1 to 100 characters'],
  ['an SDK level that is text', { phones: [{ ...PHONE, sdk: '33' }] }, 'phones[0].sdk is "33"; write the Android SDK level, an integer such as 33'],
  ['a bad setting', { phones: [{ ...PHONE, settings: { display_orientation: 3 } }] }, 'phones[0].settings.display_orientation is 3; write one of 1 (portrait), 2 (landscape)'],
  ['an unknown setting', { phones: [{ ...PHONE, settings: { brightness: 3 } }] }, 'phones[0].settings.brightness is not a known key'],
  ['a main device that is not a phone', { phones: [PHONE], main: 'device@2' }, 'main is "device@2"; write the id of one of the phones'],
  ['a bad behaviour', { phones: [PHONE], behaviour: { match: 'regex' } }, 'behaviour.match is "regex"; write one of "substring", "exact"'],
  ['a notification for no phone', { phones: [PHONE], notifications: [{ device: 'device@9', app: 'a', text: 't', atMs: 0 }] }, 'notifications[0].device is "device@9"; write the id of one of the phones'],
  ['a notification with no time', { phones: [PHONE], notifications: [{ device: 'device@1', app: 'a', text: 't' }] }, 'notifications[0] needs either "atMs" (once) or "everyMs" (repeatedly)'],
  ['a text without a size', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, texts: [{ x: 0, y: 0, text: 'Hi' }] } }] }, 'phones[0].screen.texts[0].size is missing; write the font size in pixels, e.g. 40'],
  ['a text of two lines', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, texts: [{ x: 0, y: 0, text: 'a\nb', size: 4 }] } }] }, 'phones[0].screen.texts[0].text is "a\\nb"; write one line of text (no line breaks)'],
  ['a text weight that is not one', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, texts: [{ x: 0, y: 0, text: 'Hi', size: 4, weight: 700 }] } }] }, 'phones[0].screen.texts[0].weight is 700; write "regular" or "bold"'],
  ['a text with an unknown key', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, texts: [{ x: 0, y: 0, text: 'Hi', size: 4, font: 'Arial' }] } }] }, 'phones[0].screen.texts[0].font is not a known key; write one of x, y, text, size, color, weight'],
  ['texts beside a PNG', { phones: [{ id: 'device@1', screen: { png: 'a.png', texts: [] } }] }, 'phones[0].screen.texts cannot go with "png"'],
  ['an element off the screen', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ text: 'OK', bounds: [0, 0, 11, 5] }] } }] }, 'phones[0].screen.elements[0].bounds is [0,0,11,5]; write [left, top, right, bottom] (right and bottom outside the element, as Android writes bounds) or {"x", "y", "width", "height"}, on the screen (10×10) and not empty'],
  ['an element with empty bounds', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ bounds: { x: 2, y: 2, width: 0, height: 3 } }] } }] }, 'phones[0].screen.elements[0].bounds is {"x":2,"y":2,"width":0,"height":3}'],
  ['an element without bounds', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ text: 'OK' }] } }] }, 'phones[0].screen.elements[0].bounds is undefined'],
  ['an element clickable "yes"', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ bounds: [0, 0, 5, 5], clickable: 'yes' }] } }] }, 'phones[0].screen.elements[0].clickable is "yes"; write true or false'],
  ['an element aligned "middle"', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ bounds: [0, 0, 5, 5], align: 'middle' }] } }] }, 'phones[0].screen.elements[0].align is "middle"; write one of left, center, right'],
  ['an element with an empty id', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ bounds: [0, 0, 5, 5], id: '' }] } }] }, 'phones[0].screen.elements[0].id is ""; write a text of 1 to 255 characters, e.g. "com.example.app:id/login"'],
  ['an element that opens no screen', { phones: [{ id: 'device@1', screen: { width: 10, height: 10, elements: [{ bounds: [0, 0, 5, 5], opens: 'next' }] } }] }, 'phones[0].screen.elements[0].opens is "next", which is not a screen of the phone; write one of its "screens" (it has none)'],
  ['an app screen of another size', { phones: [{ ...PHONE, screens: { form: { width: 5, height: 10 } } }] }, 'phones[0].screens.form is 5×10 but the phone is 10×10; every screen of a phone has the phone\'s size'],
  ['a screen name with a space', { phones: [{ ...PHONE, screens: { 'sign in': { width: 10, height: 10 } } }] }, 'phones[0].screens.sign in is not a screen name'],
  ['a launch of no screen', { phones: [{ ...PHONE, screens: { form: { width: 10, height: 10 } }, launch: { 'com.example.app': 'home' } }] }, 'phones[0].launch.com.example.app is "home", which is not a screen of the phone; write one of its "screens" (form)'],
  ['a launch of no package', { phones: [{ ...PHONE, screens: { form: { width: 10, height: 10 } }, launch: { 'my app': 'form' } }] }, 'phones[0].launch.my app is not a package name'],
  ['a notification every 0 ms', { phones: [PHONE], notifications: [{ device: 'device@1', app: 'a', text: 't', everyMs: 0 }] }, 'notifications[0].everyMs is 0; write the interval in milliseconds'],
];

for (const [what, json, message] of INVALID) {
  test(`refuses ${what}, naming the file and the JSON path`, async ({}, testInfo) => {
    const file = testInfo.outputPath('lab.json');
    await writeFile(file, JSON.stringify(json));
    let error: unknown;
    try {
      loadScenario(file);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'PW_CONFIG', name: 'ConfigError' });
    expect((error as Error).message).toContain(`${file}: ${message}`);
  });
}

test('refuses a file that is not JSON, or is not there', async ({}, testInfo) => {
  const file = testInfo.outputPath('broken.json');
  await writeFile(file, '{ "phones": [ }');
  expect(() => loadScenario(file)).toThrow(new RegExp(`scenario ${file} is not valid JSON`));
  expect(() => loadScenario(testInfo.outputPath('missing.json'))).toThrow(/does not exist; try: pass the path of a scenario JSON file/);
});

test('startSimulator with a bad scenario rejects before it listens', async () => {
  await expect(startSimulator({ port: 0, scenario: { phones: [] } })).rejects.toMatchObject({ code: 'PW_CONFIG', message: expect.stringContaining('scenario: phones must be') });
});

test('a PNG screen is read relative to the scenario file', async ({}, testInfo) => {
  const image = new PNG({ width: 4, height: 3 });
  image.data.fill(255);
  image.data.set([10, 20, 30, 255], (2 * 4 + 3) * 4);
  await writeFile(testInfo.outputPath('screens-home.png'), PNG.sync.write(image));
  const file = testInfo.outputPath('lab.json');
  await writeFile(file, JSON.stringify({ phones: [{ id: 'device@7', name: 'tiny', screen: { png: 'screens-home.png' } }] }));
  const sim = await startSimulator({ port: 0, scenario: file });
  try {
    const token = await login(sim);
    expect((await authed(sim, token, '/devices/device@7/screen/colors?q=color&x=3&y=2')).json).toEqual({ status: true, value: { r: 10, g: 20, b: 30, rgb: '0x0a141e' } });
    expect((await authed(sim, token, '/devices/device@7/settings')).json).toMatchObject({ value: { display_resolution: '4*3', display_orientation: 2 } });
    expect((await authed(sim, token, '/devices/main')).json).toEqual({ id: 'device@7' });
  } finally {
    await sim.close();
  }
});

test.describe('frames', () => {
  const frames = (loop: boolean): ScenarioInput => ({
    phones: [{ id: 'device@3', loop, frames: [{ width: 2, height: 2, fill: '0x000001', durationMs: 100 }, { width: 2, height: 2, fill: '0x000002', durationMs: 300 }] }],
  });
  const rgbAt = async (sim: Awaited<ReturnType<typeof startSimulator>>, token: string) =>
    ((await authed(sim, token, '/devices/device@3/screen/colors?q=color&x=0&y=0')).json as { value: { rgb: string } }).value.rgb;

  test('change with the clock and loop', async ({ clock }) => {
    const sim = await startSimulator({ port: 0, scenario: frames(true), now: clock.now });
    try {
      const token = await login(sim);
      const seen: string[] = [];
      for (const step of [0, 99, 1, 299, 1, 100]) {
        clock.advance(step);
        seen.push(await rgbAt(sim, token));
      }
      expect(seen).toEqual(['0x000001', '0x000001', '0x000002', '0x000002', '0x000001', '0x000002']);
    } finally {
      await sim.close();
    }
  });

  test('without loop, the last frame stays', async ({ clock }) => {
    const sim = await startSimulator({ port: 0, scenario: frames(false), now: clock.now });
    try {
      const token = await login(sim);
      clock.advance(10_000);
      expect(await rgbAt(sim, token)).toBe('0x000002');
    } finally {
      await sim.close();
    }
  });
});

test.describe('the built-in scenario', () => {
  test('four phones of different sizes, short names, the vendor\'s main phone and a negative id', async ({ sim }) => {
    const phones = sim.phones;
    expect(phones.map((p) => p.name)).toEqual(['galaxy-s9', 'pixel-7', 'galaxy-tab-s7', 'moto-g5']);
    expect(new Set(phones.map((p) => `${p.width}x${p.height}`)).size).toBe(4);
    expect(new Set(phones.map((p) => p.orientation))).toEqual(new Set(['portrait', 'landscape']));
    expect(phones.filter((p) => p.main).map((p) => p.id)).toEqual([MAIN]);
    expect(phones.map((p) => p.id)).toContain('device@-230441652');
    for (const p of phones) expect(p.name).toMatch(/^[a-z0-9-]+$/);
  });

  test('the 48×48 top-left region is recognisable: not one flat colour', async ({ sim }) => {
    for (const phone of sim.phones) {
      const image = PNG.sync.read(sim.screenshot(phone.id));
      const colours = new Set<number>();
      for (let y = 0; y < 48; y++) for (let x = 0; x < 48; x++) colours.add(image.data.readUInt32BE((y * image.width + x) * 4));
      expect(colours.size, phone.name).toBeGreaterThan(1);
    }
  });

  test('the Pixel 7 posts a message every 30 seconds', async ({ sim, clock }) => {
    const token = await login(sim);
    clock.advance(60_000);
    const answer = (await authed(sim, token, '/notifications?position=1&count=10&app=com.android.systemui')).json as { value: { text: string; time: number }[] };
    expect(answer.value).toEqual([
      expect.objectContaining({ text: 'USB debugging connected (1)', time: T0 + 30_000 }),
      expect.objectContaining({ text: 'USB debugging connected (2)', time: T0 + 60_000 }),
    ]);
  });

  test('is plain JSON (what --print-scenario prints loads back the same)', () => {
    const copy = JSON.parse(JSON.stringify(DEFAULT_SCENARIO)) as ScenarioInput;
    expect(loadScenario(copy).phones.map((p) => p.id)).toEqual(DEFAULT_SCENARIO.phones.map((p) => p.id));
  });
});
