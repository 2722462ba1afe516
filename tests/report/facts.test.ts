// What the history keeps of a failing device assertion: a line written from the facts the matcher attached
// (point, expected, received, reads), never from the wording of its message. Table-driven: facts → line;
// then attempts built as Playwright reports them (steps, an attachment in the failing expect step, errors).
import type { TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { errorLine, factsOf } from '../../src/report/error-line.js';
import { FACTS_ATTACHMENT, factsLine, parseFacts, type AssertionFacts } from '../../src/report/facts.js';
import { expect, test } from './harness.js';

const PHONE = 'galaxy-s9 (device@1116106541)';
const READS = { answered: 12, unanswered: 1, ms: 5003, timeout: 5000 };
const SILENT = { answered: 0, unanswered: 2, ms: 5001, timeout: 5000 };
const common = { phone: PHONE, isNot: false, reads: READS };
const REGION = { x: 0, y: 0, width: 48, height: 48 };
const GOLDEN = 'specs/home.spec.ts-snapshots/status-bar-galaxy-s9.png';

const LINES: { name: string; facts: AssertionFacts; line: string }[] = [
  {
    name: 'a pixel of another colour',
    facts: { ...common, matcher: 'toHavePixel', point: { x: 100, y: 100 }, expected: '0x25425c', tolerance: 0, received: '0x000000' },
    line: 'Error: expect(device).toHavePixel(x, y, color) — Point: (100, 100); Expected: "0x25425c"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92, ΔE00 21.94)',
  },
  {
    name: 'a pixel of the colour it must not be, with a tolerance',
    facts: { ...common, isNot: true, matcher: 'toHavePixel', point: { x: 2, y: 2 }, expected: '0x101820', tolerance: 6, received: '0x121820' },
    line: 'Error: expect(device).not.toHavePixel(x, y, color) — Point: (2, 2); Expected: "not 0x101820 (tolerance ±6 per channel)"; Received: "0x121820" (Δr=+2 Δg=0 Δb=0, ΔE00 1.03)',
  },
  {
    name: 'a pixel never read',
    facts: { ...common, reads: SILENT, matcher: 'toHavePixel', point: { x: 1, y: 1 }, expected: '0x000000', tolerance: 0 },
    line: 'Error: expect(device).toHavePixel(x, y, color) — Point: (1, 1); Expected: "0x000000"; Received: no answer: the phone stopped answering after 0 reads (2 sent without an answer)',
  },
  {
    name: 'settings: the fields that differ, in the interface order, three at most',
    facts: {
      ...common,
      matcher: 'toHaveSettings',
      fields: [
        { field: 'display_resolution', expected: '1080*1920', received: '1920*1080' },
        { field: 'display_quality', expected: '1 (High)', received: '2 (Medium)' },
        { field: 'display_orientation', expected: '1 (portrait)', received: '1 (portrait)' },
        { field: 'display_mode', expected: '1 (x)', received: '2 (y)' },
        { field: 'display_accl', expected: '0 (off)', received: '1 (on)' },
      ],
    },
    line: 'Error: expect(device).toHaveSettings(expected) — 4 field(s) differ: display_mode: expected "1 (x)", received "2 (y)"; display_quality: expected "1 (High)", received "2 (Medium)"; display_accl: expected "0 (off)", received "1 (on)"',
  },
  {
    name: 'settings that match when they must not',
    facts: { ...common, isNot: true, matcher: 'toHaveSettings', fields: [{ field: 'display_orientation', expected: '1 (portrait)', received: '1 (portrait)' }] },
    line: 'Error: expect(device).not.toHaveSettings(expected) — Expected the settings not to match, and every field did: display_orientation: "1 (portrait)"',
  },
  {
    name: 'settings never read',
    facts: { ...common, reads: SILENT, matcher: 'toHaveSettings', fields: [{ field: 'display_orientation', expected: '1 (portrait)' }] },
    line: 'Error: expect(device).toHaveSettings(expected) — Expected: display_orientation "1 (portrait)"; Received: no answer: the phone stopped answering after 0 reads (2 sent without an answer)',
  },
  {
    name: 'a notification that is there when it must not be',
    facts: { ...common, isNot: true, matcher: 'toHaveNotification', filter: 'device=device@1 app=com.example.ads', received: { matching: 1, held: 3, first: { app: 'com.example.ads', text: 'Buy "now"' } } },
    line: 'Error: expect(device).not.toHaveNotification(filter) — Expected: no message matching device=device@1 app=com.example.ads; Received: 1 matching of 3 held, e.g. com.example.ads "Buy \\"now\\""',
  },
  {
    name: 'a region that differs from its golden',
    facts: { ...common, matcher: 'toMatchRegion', region: REGION, golden: GOLDEN, outcome: 'differs', mismatch: '12 pixels (ratio 0.01 of all image pixels) are different.' },
    line: `Error: expect(device).toMatchRegion(rect, name) — Region: 48×48 at (0, 0); Golden: ${GOLDEN}; Received: 12 pixels (ratio 0.01 of all image pixels) are different.`,
  },
  {
    name: 'a region with no golden yet',
    facts: { ...common, matcher: 'toMatchRegion', region: REGION, golden: GOLDEN, outcome: 'missing', written: true },
    line: `Error: expect(device).toMatchRegion(rect, name) — Region: 48×48 at (0, 0); Golden: ${GOLDEN}; Received: no golden yet, the sample is written: the next run compares against it`,
  },
  {
    name: 'an image not on the screen: the best place seen',
    facts: { ...common, matcher: 'toShow', image: 'images/send-button.png', threshold: 0.9, deltaE: 8, best: { x: 400, y: 1200, width: 133, height: 53, score: 0.72, colorDelta: 1.2 }, found: false },
    line: "Error: expect(device).toShow(image) — Image: images/send-button.png; Expected: the image on the screen; Received: not found; best score 0.72 (at least 0.9) at 133×53 (400, 1200), its colour ΔE00 1.2 from the image's (at most 8)",
  },
  {
    name: 'an image on the screen when it must not be',
    facts: { ...common, isNot: true, matcher: 'toShow', image: 'images/ad-banner.png', threshold: 0.9, deltaE: 8, best: { x: 0, y: 1800, width: 1080, height: 120, score: 0.97, colorDelta: 0.4 }, found: true },
    line: 'Error: expect(device).not.toShow(image) — Image: images/ad-banner.png; Expected: the image not on the screen; Received: found at 1080×120 (0, 1800), score 0.97',
  },
  {
    name: 'an image looked for on a screen never captured',
    facts: { ...common, reads: SILENT, matcher: 'toShow', image: 'images/send-button.png', threshold: 0.9, deltaE: 8 },
    line: 'Error: expect(device).toShow(image) — Image: images/send-button.png; Expected: the image on the screen; Received: no answer: the phone stopped answering after 0 reads (2 sent without an answer)',
  },
];

for (const { name, facts, line } of LINES) {
  test(`facts make the line: ${name}`, () => {
    expect(factsLine(facts)).toBe(line);
    expect(parseFacts(JSON.stringify(facts)), 'the attachment reads back').toEqual(facts);
  });
}

const PIXEL = LINES[0]!;

test('rewording a message cannot change the history: the line comes from the facts attached in the failing step', () => {
  const wordings = [
    'Error: expect(device).toHavePixel(x, y, color)\n\nPhone:    galaxy-s9 (device@1116106541)\nPoint:    (100, 100)\nExpected: "0x25425c"\nReceived: "0x000000"\nPolled:   12 reads',
    'Error: expect(device).toHavePixel(x, y, color)\n\nThe pixel at 100,100 of the Galaxy was black, not navy, after twelve tries.',
    'Error: something else entirely',
  ];
  for (const message of wordings) {
    const result = attempt(message, PIXEL.facts);
    expect(errorLine(result, result.errors[0]!, []), message).toBe(PIXEL.line);
  }
});

test("a test's other errors keep their own first line: facts belong to the step that failed with them", () => {
  const result = attempt('Error: expect(device).toHavePixel(x, y, color)\n\nreworded', PIXEL.facts);
  // A second, unrelated error of the same attempt (a soft assertion of Playwright's, then a throw).
  const own: TestError = { message: 'Error: sync did not finish' };
  result.errors.push(own);
  expect(errorLine(result, own, [])).toBe('Error: sync did not finish');
  expect(factsOf(result, own)).toBeUndefined();
});

test('facts that do not read (another shape, damaged JSON) leave the message to speak, secrets redacted either way', () => {
  const damaged = attempt('Error: expect(device).toHavePixel(x, y, color)\n\nPoint: (1, 1)', PIXEL.facts, '{"matcher": "toHavePixel", "phone": ');
  expect(errorLine(damaged, damaged.errors[0]!, [])).toBe('Error: expect(device).toHavePixel(x, y, color) — Point: (1, 1)');
  const result = attempt('Error: x', PIXEL.facts);
  expect(errorLine(result, result.errors[0]!, ['0x25425c'])).toBe('Error: expect(device).toHavePixel(x, y, color) — Point: (100, 100); Expected: "***"; Received: "0x000000" (Δr=-37 Δg=-66 Δb=-92, ΔE00 21.94)');
});

/**
 * An attempt as Playwright reports a failing `device.expectPixel(…).toBe(…)`: Playwright's expect step, failed
 * with the error, the read and the matcher's attach step inside it, with the facts.
 */
function attempt(message: string, facts: AssertionFacts, body = JSON.stringify(facts)): TestResult {
  const error: TestError = { message, stack: `${message}\n    at specs/home.spec.ts:5:3` };
  const attach = step('Attach "phonewright-facts.json"', 'test.attach', [], undefined, [{ name: FACTS_ATTACHMENT, contentType: 'application/json', body: Buffer.from(body) }]);
  const read = step('pixel device@1116106541 (100, 100)', 'test.step', []);
  const expectStep = step('Expect "toHavePixelColor"', 'expect', [read, attach], error);
  return {
    retry: 0,
    parallelIndex: 0,
    workerIndex: 0,
    duration: 5010,
    startTime: new Date(0),
    status: 'failed',
    error,
    errors: [error],
    attachments: attach.attachments,
    annotations: [],
    stdout: [],
    stderr: [],
    steps: [step('Before Hooks', 'hook', []), expectStep],
  };
}

function step(title: string, category: string, steps: TestStep[], error?: TestError, attachments: TestStep['attachments'] = []): TestStep {
  return { title, category, steps, attachments, annotations: [], duration: 1, startTime: new Date(0), titlePath: () => [title], ...(error ? { error } : {}) };
}
