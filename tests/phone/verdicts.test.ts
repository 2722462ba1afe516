// Each check's verdict, decided by the phone layer alone: no Playwright run, no matcher, no expect around it. A
// phone of a simulator, hooks that record what the check hands the Playwright layer (the screen it asks for at a
// failure, what it attaches), and the verdict itself: pass (always the positive condition), expected, received,
// the message's lines, the evidence and the facts, and what the lab's bookkeeping made of it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDeviceId } from '../../src/core/device-id.js';
import { encodePng, solidImage, type ScreenMarks } from '../../src/image/index.js';
import { NO_HOOKS, Phone, type CheckContext, type Part, type PhoneHooks, type Verdict } from '../../src/phone/index.js';
import { checkImage } from '../../src/phone/check-image.js';
import { checkNotification } from '../../src/phone/check-notification.js';
import { checkPixel } from '../../src/phone/check-pixel.js';
import { checkRegion, type Golden } from '../../src/phone/check-region.js';
import { checkSettings } from '../../src/phone/check-settings.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { smallPhone } from '../helpers/inline-config.js';
import { expect, failure, test } from '../client/harness.js';

const ID = 'device@4401';
const FILL = '0x203040';
const REGION = { x: 30, y: 20, width: 12, height: 10 };
const SCENARIO = { phones: [smallPhone(ID, 'verdict-phone', FILL, [{ ...REGION, color: '0xe0c040' }])] };

/** What the check handed the hooks: the marks of each screen it asked for at a failure, and what it attached. */
interface Recorded {
  failed: (ScreenMarks | undefined)[];
  attached: string[];
}

/** A phone of the simulator, its screen size known, with hooks that record; and a check's context. */
async function phoneOf(sim: SimulatorHandle, connect: (url: string) => import('../../src/client/index.js').DeviceClient): Promise<{ phone: Phone; seen: Recorded }> {
  const seen: Recorded = { failed: [], attached: [] };
  const hooks: PhoneHooks = {
    step: (_title, body) => body(undefined),
    attach: async (name) => void seen.attached.push(name),
    screenAtFailure: async (marks) => void seen.failed.push(marks),
    screenAfterAct: async () => {},
    callSite: () => undefined,
    hostAllowance: NO_HOOKS.hostAllowance,
  };
  const client = connect(sim.url);
  await client.login();
  return { phone: new Phone(client, parseDeviceId(ID), { name: 'verdict-phone', screen: { width: 64, height: 48 }, hooks }), seen };
}

const ctx = (isNot = false, timeout = 300): CheckContext => ({ isNot, timeout });
/**
 * The timeout of a region check that must take a sample: enough for a busy machine's first (it also loads the
 * image code and finds out how the server captures). One without a golden ends at its first sample; one whose
 * golden differs polls it all.
 */
const SAMPLED = 5_000;

/** A verdict's message as plain text: the expected and received values quoted, as Playwright prints them, uncoloured. */
function text(v: Verdict): string {
  const plain = (p: Part) => (typeof p === 'string' ? p : JSON.stringify('expected' in p ? p.expected : p.received));
  return v.lines.map((line) => line.map(plain).join('')).join('\n');
}

test.describe('pixel', () => {
  const CASES = [
    { name: 'the colour there', isNot: false, color: FILL, pass: true, fails: false },
    { name: 'another colour', isNot: false, color: '0xffffff', pass: false, fails: true },
    { name: '.not, another colour', isNot: true, color: '0xffffff', pass: false, fails: false },
    { name: '.not, the colour there', isNot: true, color: FILL, pass: true, fails: true },
  ];
  for (const c of CASES) {
    test(`${c.name}: pass is ${c.pass}${c.fails ? ', with its evidence' : ''}`, async ({ startSim, connect }) => {
      const { phone, seen } = await phoneOf(await startSim({ scenario: SCENARIO }), connect);
      const v = await checkPixel(phone, 5, 5, c.color, {}, ctx(c.isNot));
      expect([v.pass, v.expected, v.received]).toEqual([c.pass, c.color, FILL]);
      expect(text(v)).toContain(`Point:    (5, 5)\nExpected: "${c.isNot ? 'not ' : ''}${c.color}"\nReceived: "${FILL}"`);
      expect(v.evidence.map((a) => a.name)).toEqual(c.fails ? ['pixel-5-5-expected.png', 'pixel-5-5-actual.png', 'pixel-5-5-diff.png'] : []);
      expect(v.facts).toEqual(c.fails ? expect.objectContaining({ matcher: 'toHavePixel', isNot: c.isNot, point: { x: 5, y: 5 }, received: FILL }) : undefined);
      expect(seen.failed).toEqual(c.fails ? [{ points: [{ x: 5, y: 5 }] }] : []);
      // A definite wrong answer is the app's failure: nothing for the lab's verdict.
      expect(phone.takeInfraErrors()).toEqual([]);
    });
  }

  test('a percentage resolves on the screen, and a point off it is refused before any read', async ({ startSim, connect }) => {
    const sim = await startSim({ scenario: SCENARIO });
    const { phone } = await phoneOf(sim, connect);
    expect(text(await checkPixel(phone, '50%', '50%', FILL, {}, ctx()))).toContain('Point:    (50%, 50%) = (32, 24) on 64×48');
    const before = sim.stats().total;
    expect((await failure(() => checkPixel(phone, 64, 5, FILL, {}, ctx()))).message).toBe(`(64, 5) is off the 64×48 screen of verdict-phone (${ID}); try: x from 0 to 63, y from 0 to 47`);
    expect(sim.stats().total).toBe(before);
  });

  test('a phone that never answers fails it either way, the lab to blame', async ({ startSim, connect }) => {
    const sim = await startSim({ scenario: SCENARIO });
    const { phone, seen } = await phoneOf(sim, connect);
    sim.freeze(ID);
    for (const isNot of [false, true]) {
      const v = await checkPixel(phone, 5, 5, FILL, {}, ctx(isNot));
      expect([v.pass, v.received]).toEqual([isNot, 'no answer']);
      expect(text(v)).toMatch(/Received: no answer: the phone stopped answering after 0 reads \(1 sent without an answer\)/);
      expect(v.evidence).toEqual([]);
      expect(v.facts).toEqual(expect.objectContaining({ reads: expect.objectContaining({ answered: 0, unanswered: 1, timeout: 300 }) }));
      expect(phone.takeInfraErrors().length).toBeGreaterThan(0);
    }
    expect(seen.failed).toEqual([]);
    sim.thaw(ID);
  });
});

test('settings: the fields that differ, each expected and received', async ({ startSim, connect }) => {
  const { phone, seen } = await phoneOf(await startSim({ scenario: SCENARIO }), connect);
  // The phone is 64×48: landscape.
  const held = await checkSettings(phone, { orientation: 'landscape' }, ctx());
  expect([held.pass, held.evidence, held.facts]).toEqual([true, [], undefined]);
  const differs = await checkSettings(phone, { orientation: 'portrait' }, ctx());
  expect(differs.pass).toBe(false);
  expect(text(differs)).toMatch(/^Phone: {2}verdict-phone \(device@4401\)\n1 field\(s\) differ:\n {2}display_orientation: expected "1 \(portrait\)", received "2 \(landscape\)"\nPolled: \d+ reads? over/);
  expect(differs.facts).toEqual(expect.objectContaining({ matcher: 'toHaveSettings', fields: [{ field: 'display_orientation', expected: '1 (portrait)', received: '2 (landscape)' }] }));
  const not = await checkSettings(phone, { orientation: 'landscape' }, ctx(true));
  expect([not.pass, text(not).split('\n')[1]]).toEqual([true, 'Expected the settings not to match, and every field did:']);
  expect(seen.failed).toEqual([undefined, undefined]);
});

test('notifications: a message held for this phone, or how many were held', async ({ startSim, connect }) => {
  const sim = await startSim({ scenario: SCENARIO });
  const { phone } = await phoneOf(sim, connect);
  sim.postNotification({ device: ID, app: 'com.example.chat', text: 'code 123456' });
  const found = await checkNotification(phone, { app: 'com.example.chat', text: /code \d{6}/ }, ctx());
  expect([found.pass, (found.received as unknown[]).length]).toEqual([true, 1]);
  const absent = await checkNotification(phone, { app: 'com.example.ads' }, ctx());
  expect(absent.pass).toBe(false);
  expect(text(absent)).toContain(`Expected: a message matching device=${ID} app=com.example.ads\nReceived: 0 matching of 1 held`);
  expect(absent.facts).toEqual(expect.objectContaining({ matcher: 'toHaveNotification', received: { matching: 0, held: 1 } }));
});

test.describe('region', () => {
  const goldenAt = (dir: string, mode: Golden['mode']) => (name: string): Golden => ({ path: path.join(dir, name), relative: name, mode });

  test('no golden: written or not as the update mode says, the sample attached', async ({ startSim, connect }) => {
    const { phone } = await phoneOf(await startSim({ scenario: SCENARIO }), connect);
    const dir = test.info().outputPath('goldens');
    const refused = await checkRegion(phone, REGION, 'panel.png', {}, ctx(false, SAMPLED), goldenAt(dir, 'none'));
    expect([refused.pass, existsSync(path.join(dir, 'panel.png'))]).toEqual([false, false]);
    expect(refused.evidence.map((a) => a.name)).toEqual(['panel-actual.png']);
    expect(refused.facts).toEqual(expect.objectContaining({ outcome: 'missing', written: false, actualAttachment: 'panel-actual.png' }));
    const written = await checkRegion(phone, REGION, 'panel.png', {}, ctx(false, SAMPLED), goldenAt(dir, 'missing'));
    expect([written.pass, written.log, existsSync(path.join(dir, 'panel.png'))]).toEqual([true, expect.stringContaining("doesn't exist"), true]);
    // The default mode writes it and fails the test at its end, the test going on meanwhile.
    const later = await checkRegion(phone, REGION, 'later.png', {}, ctx(false, SAMPLED), goldenAt(dir, 'default'));
    expect([later.pass, later.atEnd]).toEqual([true, expect.stringContaining('writing actual; the next run compares against it.')]);
    // `.not` never writes one, and passes without it.
    const not = await checkRegion(phone, REGION, 'none.png', {}, ctx(true), goldenAt(dir, 'missing'));
    expect([not.pass, existsSync(path.join(dir, 'none.png'))]).toEqual([false, false]);
  });

  test('a golden that differs: expected, actual and diff, the region framed on the screen', async ({ startSim, connect }) => {
    const { phone, seen } = await phoneOf(await startSim({ scenario: SCENARIO }), connect);
    const dir = test.info().outputPath('goldens');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'panel.png'), encodePng(solidImage(REGION.width, REGION.height, { r: 0x10, g: 0x90, b: 0x10 })));
    // The parts masked, in screen coordinates: what the review shows struck out on its diff (here without a golden,
    // so the check ends at its first sample, the image code loaded for the one after it).
    const masked = await checkRegion(phone, REGION, 'masked.png', { mask: [{ x: 38, y: 20, width: 4, height: 3 }] }, ctx(false, SAMPLED), goldenAt(dir, 'none'));
    expect(masked.facts).toEqual(expect.objectContaining({ outcome: 'missing', mask: [{ x: 38, y: 20, width: 4, height: 3 }] }));
    seen.failed.length = 0;
    // A golden that differs is polled until the timeout: a second of it.
    const v = await checkRegion(phone, REGION, 'panel.png', {}, ctx(false, 1_000), goldenAt(dir, 'none'));
    expect([v.pass, v.received]).toEqual([false, REGION.width * REGION.height]);
    expect(text(v)).toContain('Region:   12×10 at (30, 20)\nGolden:   panel.png\nReceived: 120 pixels');
    expect(v.evidence.map((a) => a.name)).toEqual(['panel-expected.png', 'panel-actual.png', 'panel-diff.png']);
    expect(v.facts).toEqual(expect.objectContaining({ outcome: 'differs', region: { x: 30, y: 20, width: 12, height: 10 } }));
    expect(seen.failed).toEqual([{ regions: [{ x: 30, y: 20, width: 12, height: 10 }] }]);
    expect(v.facts).not.toHaveProperty('mask');
  });
});

test('image: a server without screen capture cannot look, in one line, either way', async ({ startSim, connect }) => {
  const { phone } = await phoneOf(await startSim({ scenario: SCENARIO, capabilities: 'seed' }), connect);
  const file = test.info().outputPath('send.png');
  writeFileSync(file, encodePng(solidImage(8, 8, { r: 0xe0, g: 0xc0, b: 0x40 })));
  for (const isNot of [false, true]) {
    const v = await checkImage(phone, file, {}, ctx(isNot));
    expect([v.pass, v.received]).toEqual([isNot, 'not offered']);
    expect(text(v)).toMatch(/^Phone: {4}verdict-phone \(device@4401\)\nImage: {4}.*send\.png\nReceived: cannot look: looking for .*send\.png needs the vendor's screen capture/);
  }
});
