// Locators decided by the phone layer alone, on the example app the simulator draws with a real font on its four
// phones: through the vendor's UI elements where the server has them, by reading the screen (OCR) where it has
// not. What a spec sees of them through Playwright is in tests/fixtures/locators.test.ts.
import { parseDeviceId } from '../../src/core/device-id.js';
import type { ScreenMarks } from '../../src/image/index.js';
import { NO_HOOKS, Phone, type CheckContext, type Part, type PhoneHooks, type Verdict } from '../../src/phone/index.js';
import { checkCount, checkText, checkVisible } from '../../src/phone/check-locator.js';
import { DEFAULT_SCENARIO, EXAMPLE_APP, type SimulatorHandle, type SimulatorOptions, type TextInput } from '../../src/simulator/index.js';
import type { DeviceClient } from '../../src/client/index.js';
import { expect, failure, test } from '../client/harness.js';

const PHONES = DEFAULT_SCENARIO.phones!.map((p) => ({ id: p.id, name: p.name! }));
const GALAXY = PHONES[0]!;

/** What the phone handed its hooks: step titles, and the marks of each screen asked for at a failure. */
interface Recorded {
  steps: string[];
  failed: (ScreenMarks | undefined)[];
}

/** The simulator's phone, the example app in front, with hooks that record. */
async function appOn(start: (o?: SimulatorOptions) => Promise<SimulatorHandle>, connect: (url: string) => DeviceClient, id: string, options: SimulatorOptions = {}): Promise<{ phone: Phone; seen: Recorded; sim: SimulatorHandle }> {
  const sim = await start(options);
  const seen: Recorded = { steps: [], failed: [] };
  const hooks: PhoneHooks = {
    step: (title, body) => (seen.steps.push(title), body(undefined)),
    attach: async () => {},
    screenAtFailure: async (marks) => void seen.failed.push(marks),
    screenAfterAct: async () => {},
    callSite: () => undefined,
    hostAllowance: NO_HOOKS.hostAllowance,
  };
  const client = connect(sim.url);
  await client.login();
  const phone = new Phone(client, parseDeviceId(id), { hooks, waitTimeout: () => 5_000 });
  await phone.launch(EXAMPLE_APP);
  return { phone, seen, sim };
}

const ctx = (isNot = false, timeout = 2_000): CheckContext => ({ isNot, timeout });

function text(v: Verdict): string {
  const plain = (p: Part) => (typeof p === 'string' ? p : JSON.stringify('expected' in p ? p.expected : p.received));
  return v.lines.map((line) => line.map(plain).join('')).join('\n');
}

/** The taps the simulator recorded on a phone. */
const taps = (sim: SimulatorHandle, id: string) => sim.acts().filter((a) => a.device === id && a.kind === 'tap').map((a) => (a.kind === 'tap' ? [a.x, a.y] : []));

test.describe('through the UI elements', () => {
  for (const { id, name } of PHONES) {
    test(`${name}: a button tapped by its text, an icon found by its description, a title by its id; the next screen's text seen`, async ({ startSim, connect }) => {
      const { phone, sim } = await appOn(startSim, connect, id);
      const help = await phone.getByDescription('Help').bounds();
      const button = await phone.getById('.login').bounds();
      expect(await phone.getByText('Sign in').bounds()).toEqual(button);
      expect(help.width).toBeGreaterThan(0);
      expect((await checkText(phone.getById(`${EXAMPLE_APP}:id/title`), 'Welcome back', ctx())).pass).toBe(true);
      expect((await checkVisible(phone.getByText('Signed in'), ctx(true))).pass).toBe(false);

      await phone.getByText('sign IN').tap();
      expect(taps(sim, id)).toEqual([[Math.floor(button.x + button.width / 2), Math.floor(button.y + button.height / 2)]]);
      expect((await checkVisible(phone.getByText('Signed in'), ctx())).pass).toBe(true);
      expect(await phone.getByText(/^You are signed in/).text()).toBe('You are signed in to Example.');
    });
  }

  test('several matches: an act is refused with where each is, first() and nth() pick; count and toHaveCount', async ({ startSim, connect }) => {
    const { phone, sim } = await appOn(startSim, connect, GALAXY.id);
    const fields = phone.getByQuery('BP:editable');
    expect(await fields.count()).toBe(2);
    expect((await checkCount(fields, 2, ctx())).pass).toBe(true);
    const refused = await failure(() => fields.tap());
    expect(refused.message).toMatch(/^getByQuery\('BP:editable'\) matches 2 on the screen of device@1116106541: at \d+×\d+ \(\d+, \d+\), at \d+×\d+ \(\d+, \d+\); try: pick one with \.first\(\) or \.nth\(i\), or ask for an exact text$/);
    expect(taps(sim, GALAXY.id)).toEqual([]);
    const password = await fields.nth(1).bounds();
    expect(password.y).toBeGreaterThan((await fields.first().bounds()).y);
    await fields.nth(1).fill('hunter2');
    expect(sim.acts().filter((a) => a.device === GALAXY.id).map((a) => a.kind)).toEqual(['app', 'tap', 'text']);
    expect(() => fields.nth(-1)).toThrow('invalid index -1 for getByQuery(\'BP:editable\').nth(): expected an integer ≥ 0');
  });

  test('a text that is not there fails with the nearest texts on the screen, framed; .not passes', async ({ startSim, connect }) => {
    const { phone, seen } = await appOn(startSim, connect, GALAXY.id);
    // The nearest texts come from a look that was answered: one look for an absent text is about three round trips
    // (its bounds, the elements', their texts at once), a few ms; a loaded machine has stretched one past 300 ms.
    // Each wait below lasts its whole timeout, so the timeout is one look's with room for such a machine, no more.
    const oneLook = 2_000;
    const v = await checkVisible(phone.getByText('Sign up'), ctx(false, oneLook));
    expect(v.pass).toBe(false);
    expect(text(v)).toMatch(/^Phone: {4}device@1116106541\nLocator: {2}getByText\('Sign up'\)\nExpected: "visible"\nReceived: "not visible"\nSeen: {5}the UI elements had no match; nearest: "Sign in" at /);
    expect(v.evidence.map((a) => a.name)).toEqual(['locator.txt']);
    expect(seen.failed).toHaveLength(1);
    expect(seen.failed[0]!.regions!.length).toBeGreaterThan(0);
    expect((await checkVisible(phone.getByText('Sign up'), ctx(true, oneLook))).pass).toBe(false);
    const missing = await failure(() => phone.getByText('Sign up').tap({ timeout: oneLook }));
    expect(missing.message).toMatch(/^getByText\('Sign up'\) is not on the screen of device@1116106541: the UI elements had no match; nearest: "Sign in" at .*; \d+ looks? over \d+ ms \(timeout 2000 ms(?:, \d+ ms of it this host's)?\)/);
  });

  test('bad input is refused before anything is read', async ({ startSim, connect }) => {
    const { phone, sim } = await appOn(startSim, connect, GALAXY.id);
    const before = sim.stats().total;
    expect(() => phone.getByText('')).toThrow('invalid text "": expected 1 to 500 characters, or a RegExp');
    expect(() => phone.getById('login')).toThrow(/^invalid resource id "login": expected com\.example\.app:id\/login, or \.login/);
    expect(() => phone.getByQuery('Sign in')).toThrow(/^invalid query "Sign in"/);
    await expect(checkCount(phone.getByText('x'), -1, ctx())).rejects.toThrow('invalid count -1 for toHaveCount: expected an integer ≥ 0');
    expect(sim.stats().total).toBe(before);
  });
});

test.describe('by reading the screen, on a server without the UI elements', () => {
  test('white text on a blue button tapped by its text; the title read; a text a letter off is found and says so', async ({ startSim, connect }) => {
    const { phone, seen, sim } = await appOn(startSim, connect, GALAXY.id, { elements: false });
    expect((await checkVisible(phone.getByText('Welcome back'), ctx(false, 10_000))).pass).toBe(true);
    const title = await phone.getByText('Welcome back').bounds();
    expect(await phone.readText({ rect: title })).toBe('Welcome back');
    expect(await phone.readText()).toMatch(/^12:30\nWelcome back.*\nEmail\nPassword\nSign in\n/);

    const fuzzy = await checkVisible(phone.getByText('Welcome bsck'), ctx(false, 10_000));
    expect(text(fuzzy)).toContain('(read 1 letter off the text asked)');
    // An act or a read on it says where it was found, how, and how far off.
    await phone.getByText('Welcome bsck').bounds();
    expect(seen.steps).toContainEqual(expect.stringMatching(/^getByText\('Welcome bsck'\) found "Welcome back" at \d+×\d+ \(\d+, \d+\) through the text read from the screen: 1 letter off the text asked$/));
    expect((await checkVisible(phone.getByText('Welcome bsck', { exact: true }), ctx(false, 300))).pass).toBe(false);

    await phone.getByText('Sign in', { exact: true }).tap({ timeout: 10_000 });
    expect(taps(sim, GALAXY.id)).toHaveLength(1);
    expect((await checkVisible(phone.getByText('Signed in'), ctx(false, 10_000))).pass).toBe(true);
    expect(seen.steps.some((s) => s.startsWith('read the text on device@1116106541\'s screen'))).toBe(true);
  });

  test('description, id and query need the engine: one line that says so', async ({ startSim, connect }) => {
    const { phone } = await appOn(startSim, connect, GALAXY.id, { elements: false });
    const e = await failure(() => phone.getById('.login').tap({ timeout: 2_000 }));
    expect(e.message).toMatch(/^getById\('\.login'\) needs the vendor's UI elements \(sendAai\), and .*; getByText reads the screen instead$/);
  });
});

test.describe('matching the lines read from the screen, as Playwright matches texts', () => {
  const READER = 'device@1';

  /** A phone showing only `texts`, black on white, on a server without the UI elements: its texts are read. */
  async function readerOn(start: (o?: SimulatorOptions) => Promise<SimulatorHandle>, connect: (url: string) => DeviceClient, texts: string[]): Promise<{ phone: Phone; sim: SimulatorHandle }> {
    const drawn: TextInput[] = texts.map((text, i) => ({ x: 60, y: 120 + i * 160, text, size: 48 }));
    const sim = await start({ elements: false, scenario: { phones: [{ id: READER, name: 'reader', screen: { width: 720, height: 1280, fill: '0xffffff', texts: drawn } }] } });
    const client = connect(sim.url);
    await client.login();
    const hooks = NO_HOOKS;
    return { phone: new Phone(client, parseDeviceId(READER), { hooks, waitTimeout: () => 10_000 }), sim };
  }

  test('two texts read a letter off, none exactly: found and counted once; an act refused naming both as read, nothing tapped; the exact one wins', async ({ startSim, connect }) => {
    const { phone, sim } = await readerOn(startSim, connect, ['bijective B', 'bijective C']);
    const asked = phone.getByText('bijective A');
    const visible = await checkVisible(asked, ctx(false, 10_000));
    expect(visible.pass).toBe(true);
    expect(visible.received).toMatch(/^visible: "bijective B" at \d+×\d+ \(\d+, \d+\) or "bijective C" at \d+×\d+ \(\d+, \d+\) \(read 1 letter off the text asked\)$/);
    expect(await asked.count()).toBe(1);
    const refused = await failure(() => asked.tap());
    expect(refused.message).toMatch(/^getByText\('bijective A'\) matches 2 on the screen of device@1, none read exactly, each 1 letter off the text asked: "bijective B" at \d+×\d+ \(\d+, \d+\), "bijective C" at \d+×\d+ \(\d+, \d+\); try: ask for the text as the one meant reads, or take the top one with \.first\(\)$/);
    await expect(asked.text()).rejects.toThrow(/matches 2 on the screen of device@1, none read exactly/);
    expect(taps(sim, READER)).toEqual([]);
    expect((await asked.first().bounds()).y).toBeLessThan(200);
    expect(await phone.getByText('bijective C').count()).toBe(1);
  });

  test('exact is the whole line read, never a word of a longer one; a substring is boxed by its own letters', async ({ startSim, connect }) => {
    const { phone } = await readerOn(startSim, connect, ['out: base 16, standard', 'standard']);
    const loose = phone.getByText('standard');
    expect((await checkCount(loose, 2, ctx(false, 10_000))).pass).toBe(true);
    const exact = phone.getByText('standard', { exact: true });
    expect(await exact.count()).toBe(1);
    const alone = await exact.bounds();
    expect(alone.y).toBeGreaterThan(200);
    const [inLine] = (await loose.look()).matches;
    const line = await phone.getByText('out: base 16, standard', { exact: true }).bounds();
    // The word's own box, at the right of its line: not the line's.
    expect(inLine!.box.x).toBeGreaterThan(line.x + line.width / 2);
    expect(inLine!.box.width).toBeLessThan(line.width / 2);
    expect(await loose.first().text()).toBe('out: base 16, standard');
    expect(await phone.getByText('16, stand').count()).toBe(1);
  });
});
