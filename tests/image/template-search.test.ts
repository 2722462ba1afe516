import { test, expect } from '../helpers/test.js';
import { chatScreen, type SceneOptions } from '../../bench/phone-screens.js';
import { isPhonewrightError } from '../../src/core/errors.js';
import { cropImage, decodeTemplate, encodeTemplate, LastSearch, loadOpenCv, parseCutOn, searchTemplate, solidImage, templateScale, type Image, type OpenCv } from '../../src/image/index.js';

// The template search on phone-like screens: a send button cut on a 1080-wide phone, looked for on phones of
// other sizes and densities, beside buttons that look like it and on screens without it.

let cv: OpenCv;
test.beforeAll(async () => {
  cv = await loadOpenCv();
});

/** The send button, 200×80, cut from seed 1's screen on a 1080-wide phone of 411 dp. */
function sendButton(): Image {
  const source = chatScreen(1, 1080);
  return cropImage(source.image, { ...source.button, width: 200, height: 80 });
}

const FOUND: [string, number, SceneOptions][] = [
  ['the same phone', 1080, {}],
  ['a 720-wide phone (two thirds)', 720, {}],
  ['a 1440-wide phone (four thirds)', 1440, {}],
  ['another place, with a lossy capture', 1080, { buttonAt: { x: 20, y: 300 }, noise: 6 }],
  ['a phone of the same pixels and a higher density (360 dp wide: 14 % larger)', 1080, { dpWidth: 360, buttonAt: { x: 250, y: 500 } }],
];

for (const [where, width, options] of FOUND) {
  test(`a template cut on a 1080-wide phone is found on ${where}, its centre on the button's`, () => {
    // Another layout (seed 2) around the button: only the button is the template's.
    const screen = chatScreen(2, width, options);
    const { best, found } = searchTemplate(cv, screen.image, sendButton(), { scale: templateScale(1080, screen.image) });
    expect(found).toBe(true);
    expect(best.score).toBeGreaterThanOrEqual(0.93);
    expect(best.colorDelta).toBeLessThan(2);
    const b = screen.button;
    expect(Math.abs(best.center.x - (b.x + b.width / 2))).toBeLessThanOrEqual(2);
    expect(Math.abs(best.center.y - (b.y + b.height / 2))).toBeLessThanOrEqual(2);
    expect(Math.abs(best.width - b.width)).toBeLessThanOrEqual(3);
  });
}

test('at the nominal scale a button 14 % larger is missed, and the steps around it find it: the search goes on to them', () => {
  const screen = chatScreen(2, 1080, { dpWidth: 360, buttonAt: { x: 250, y: 500 } });
  const result = searchTemplate(cv, screen.image, sendButton());
  expect(result.best.scale).toBeGreaterThan(1.1);
  expect(result.scales.slice(0, 3)).toEqual([1, 0.95, 1.05]);
});

const NOT_FOUND: [string, SceneOptions['button'], (best: { score: number; colorDelta: number }) => void][] = [
  ['no button', 'absent', (best) => expect(best.score).toBeLessThan(0.6)],
  ['a button of the same colour with another label', 'other-label', (best) => expect(best.score).toBeLessThan(0.85)],
  // Correlation alone takes the grey button for the teal one: its colour tells them apart.
  ['the same button, grey (disabled)', 'grey', (best) => (expect(best.score).toBeGreaterThan(0.9), expect(best.colorDelta).toBeGreaterThan(20))],
];

for (const [what, button, check] of NOT_FOUND) {
  test(`on a screen with ${what} the template is not found, and the best place seen is the button's place`, () => {
    const screen = chatScreen(2, 720, { button });
    const { best, found, scales } = searchTemplate(cv, screen.image, sendButton(), { scale: 720 / 1080 });
    expect(found).toBe(false);
    check(best);
    expect(scales, 'every scale step tried').toHaveLength(9);
    if (button !== 'absent') expect(Math.abs(best.x - screen.button.x)).toBeLessThanOrEqual(3);
  });
}

test('a search of the same template and options on the same pixels is not worked out again; a changed pixel, scale or threshold is searched', async () => {
  // OpenCV with its correlations counted: a search is at least one.
  let correlations = 0;
  const counted: OpenCv = Object.create(cv, { matchTemplate: { value: (...args: Parameters<OpenCv['matchTemplate']>) => (correlations++, cv.matchTemplate(...args)) } });
  const searches = new LastSearch();
  const find = async (screen: Image, template: Image, options: Parameters<typeof searchTemplate>[3]) => searchTemplate(counted, screen, template, options);
  const screen = chatScreen(2, 720, { button: 'absent' }).image;
  const button = sendButton();
  const first = await searches.search(screen, button, { scale: 720 / 1080 }, find);
  expect(first.found).toBe(false);
  const once = correlations;
  expect(once).toBeGreaterThan(0);
  // Another capture of the same screen: other bytes in memory, the same pixels.
  const again = { ...screen, data: new Uint8Array(screen.data) };
  expect(await searches.search(again, button, { scale: 720 / 1080 }, find)).toBe(first);
  expect(correlations, 'not searched again').toBe(once);
  // The button appears: one pixel's difference is a new screen, searched, and now it is there.
  const shown = chatScreen(2, 720).image;
  expect((await searches.search(shown, button, { scale: 720 / 1080 }, find)).found).toBe(true);
  expect(correlations).toBeGreaterThan(once);
  const changed = { ...shown, data: new Uint8Array(shown.data) };
  changed.data[0] = changed.data[0]! ^ 1;
  for (const [what, image, options] of [['one pixel changed', changed, { scale: 720 / 1080 }], ['another scale', changed, { scale: 0.7 }], ['another threshold', changed, { scale: 0.7, threshold: 0.999 }]] as const) {
    const before = correlations;
    await searches.search(image, button, options, find);
    expect(correlations, what).toBeGreaterThan(before);
  }
  expect((await searches.search(changed, button, { scale: 0.7, threshold: 0.999 }, find)).found, 'the last search, remembered with its own threshold').toBe(false);
});

test('the threshold and deltaE decide what counts as found', () => {
  const screen = chatScreen(2, 1080, { button: 'grey' });
  expect(searchTemplate(cv, screen.image, sendButton(), { deltaE: 50 }).found).toBe(true);
  const scaled = chatScreen(2, 720).image;
  expect(searchTemplate(cv, scaled, sendButton(), { scale: 720 / 1080 }).found).toBe(true);
  expect(searchTemplate(cv, scaled, sendButton(), { scale: 720 / 1080, threshold: 0.999 }).found).toBe(false);
});

test('a template of one colour, one too small, or one larger than the screen at every scale is refused as misuse', () => {
  const screen = chatScreen(2, 720).image;
  const refused = (template: Image, scale = 1) => {
    try {
      searchTemplate(cv, screen, template, { scale });
    } catch (error) {
      expect(isPhonewrightError(error, 'PW_USAGE')).toBe(true);
      return (error as Error).message;
    }
    return 'not refused';
  };
  expect(refused(solidImage(40, 20, { r: 0, g: 137, b: 123 }))).toBe('a template of one colour matches any area of that colour; try: cut the template with an edge or a mark inside it');
  expect(refused(cropImage(screen, { x: 0, y: 0, width: 6, height: 30 }))).toMatch(/^a template of 6×30 is too small/);
  expect(refused(sendButton(), 10)).toMatch(/^a template of 200×80 at ×10 \(±20 %\) is larger than the 720×1600 screen; try: check the width of the screen it was cut on/);
});

test('a template records the screen it was cut on; its scale on a phone is the ratio of the narrower sides', () => {
  const png = encodeTemplate(sendButton(), { width: 1080, height: 2400 });
  const template = decodeTemplate(png, 'images/send.png');
  expect(template.cutOn).toBe(1080);
  expect(template.image.width).toBe(200);
  expect(templateScale(1080, { width: 720, height: 1280 })).toBeCloseTo(2 / 3);
  expect(templateScale(1080, { width: 1280, height: 720 }), 'landscape: the same density').toBeCloseTo(2 / 3);
  expect(templateScale(undefined, { width: 720, height: 1280 }), 'unrecorded: the phone\'s own scale').toBe(1);
  expect(parseCutOn(1080)).toBe(1080);
  expect(() => parseCutOn('1080')).toThrow(/^invalid cutOn "1080": expected the narrower side, in pixels, of the screen the template was cut on; try: \{ cutOn: 1080 \}/);
});

test('loading OpenCV leaves the process\'s error handlers as they were', async () => {
  // Loaded in beforeAll; Emscripten's start-up adds a rethrowing uncaughtException handler and an aborting
  // unhandledRejection one, which would turn any stray rejection in a Playwright worker into a crash.
  const source = (l: (...args: never[]) => unknown) => l.toString();
  expect(process.listeners('unhandledRejection').map(source).filter((s) => s.includes('abort'))).toEqual([]);
  expect(process.listeners('uncaughtException').map(source).filter((s) => s.includes('ExitStatus'))).toEqual([]);
  expect(await loadOpenCv()).toBe(cv);
});
