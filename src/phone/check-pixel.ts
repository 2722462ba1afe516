import { Deadline } from '../client/deadline.js';
import { colorsMatch, formatColor, formatDelta, parseColor, parseTolerance, type ColorInput, type Rgb } from '../core/color.js';
import { deltaE, parseDeltaE } from '../core/delta-e.js';
import { resolvePoint, type Coordinate } from '../core/fraction.js';
import { checkPointOnScreen } from '../core/screen.js';
import type { Neighbourhood } from '../image/neighbourhood.js';
import type { Phone } from './phone.js';
import { untilChecked } from './until.js';
import { lastFailure, noAnswer, polled, readFacts, type Attachment, type CheckContext, type Verdict } from './verdict.js';

/** Options of a pixel check. */
export interface PixelOptions {
  /** Per-channel tolerance, 0 to 255. @default 0 */
  tolerance?: number;
  /**
   * Perceptual tolerance: the largest CIEDE2000 distance (sRGB, D65) that passes, 0 to 100. Below 1 no one
   * sees a difference; 2.3 is just noticeable. Alone, it replaces the exact per-channel match; with
   * `tolerance`, both must hold.
   */
  deltaE?: number;
  /** ms to keep polling; default: the expect timeout. */
  timeout?: number;
  /** Require two equal reads in a row (a screen mid-animation does not count). @default false */
  stable?: boolean;
}

/**
 * How long a failed check may spend on its evidence, after its timeout: the whole screen (which has a bound of
 * its own, as short) and, without it, the screen around the point read at once. The evidence must not push a
 * check past its deadline by more than a moment: cells not read by then show as unread.
 */
export const EVIDENCE_MS = 200;

/**
 * `toHavePixel`: polls the pixel until its colour is within the tolerance of `color` (or, with `.not`, until it
 * is not). The tolerance is per channel (`tolerance`), perceptual (`deltaE`, CIEDE2000), or both, when both must
 * hold. A failure carries the screen around the point as expected, actual and diff images, and its facts.
 */
export async function checkPixel(phone: Phone, xAt: Coordinate, yAt: Coordinate, color: ColorInput, options: PixelOptions, ctx: CheckContext): Promise<Verdict> {
  const name = 'toHavePixel';
  const { isNot, timeout } = ctx;
  // Percentages of the screen resolve against this phone's; the message shows both (`(50%, 8%) = (540, 154) on 1080×1920`).
  const point = resolvePoint(phone, xAt, yAt);
  const { x, y } = point;
  const expected = parseColor(color);
  // With deltaE alone the colour need not be exact per channel; given together, both must hold.
  const tolerance = options.deltaE !== undefined && options.tolerance === undefined ? undefined : parseTolerance(options.tolerance);
  const bound = options.deltaE === undefined ? undefined : parseDeltaE(options.deltaE);
  const within = (px: Rgb) => (tolerance === undefined || colorsMatch(px, expected, tolerance)) && (bound === undefined || deltaE(px, expected) <= bound);
  // Misuse fails at once, whichever way it was asked, before the first read.
  checkPointOnScreen(phone, x, y);
  const seen = new Map<string, number>();
  let previous: string | undefined;
  const holds = (px: Rgb) => {
    const hex = formatColor(px);
    seen.set(hex, (seen.get(hex) ?? 0) + 1);
    const stableNow = !options.stable || previous === hex;
    previous = hex;
    return stableNow && within(px) !== isNot;
  };
  const poll = await untilChecked((deadline) => phone.pixel(x, y, { deadline, site: ctx.site }), holds, timeout, ctx.startedAt, ctx.hostAllowance);
  const limits = [tolerance ? `tolerance ±${tolerance} per channel` : '', bound !== undefined ? `ΔE00 ≤ ${bound}` : ''].filter(Boolean).join(', ');
  const expectedText = `${isNot ? 'not ' : ''}${formatColor(expected)}${limits ? ` (${limits})` : ''}`;
  const actual = poll.last;
  // No colour at all: the check fails whichever way it was asked (see noAnswer).
  const pass = actual === undefined ? isNot : poll.done ? !isNot : isNot;
  const received = actual === undefined ? undefined : formatColor(actual);
  const colours = [...seen].map(([hex, n]) => `${hex}${n > 1 ? ` ×${n}` : ''}`).join(', ');
  const verdict: Verdict = {
    pass,
    name,
    args: 'x, y, color',
    expected: formatColor(expected),
    received: received ?? 'no answer',
    timeout,
    lines: [
      [`Phone:    ${phone}`],
      [`Point:    ${point.label}`],
      ['Expected: ', { expected: expectedText }],
      actual === undefined ? [`Received: ${noAnswer(poll)}`] : ['Received: ', { received }, ` (${formatDelta(actual, expected)}, ΔE00 ${deltaE(actual, expected).toFixed(2)})`],
      [`Polled:   ${polled(poll, timeout, options.stable ? 'stable: two equal reads in a row' : '')}${colours ? `; colours seen: ${colours}` : ''}`],
      ...lastFailure(poll),
    ],
    evidence: [],
  };
  if (pass !== isNot) return verdict;
  if (actual !== undefined) {
    phone.lab.sawWrongAnswer();
    verdict.evidence = await pixelEvidence(phone, x, y, expected, actual, !within(actual), ctx);
  }
  verdict.facts = { matcher: name, phone: String(phone), isNot, point: { x, y }, expected: formatColor(expected), tolerance: tolerance ?? 0, ...(bound !== undefined ? { deltaE: bound } : {}), received, reads: readFacts(poll, timeout) };
  return verdict;
}

/**
 * The evidence of a failed point: the phone's whole screen with the point ringed (the hooks keep it, once per
 * test), and the screen around the point as expected/actual/diff images, named so the HTML report shows them in
 * its image-diff viewer: cut from that screen, or read at once beside it: all of it within {@link EVIDENCE_MS}.
 */
async function pixelEvidence(phone: Phone, x: number, y: number, expected: Rgb, actual: Rgb, differs: boolean, ctx: CheckContext): Promise<Attachment[]> {
  const deadline = Deadline.in(EVIDENCE_MS);
  try {
    // Loaded on the first failure: passing checks never need the image code.
    const image = await import('../image/index.js');
    // The whole screen and the screen around the point at once, each within the one bound: the zoom is cut from
    // the screen when it came, else it is the read around the point, which never waited for the screen.
    const [screen, read] = await Promise.all([phone.hooks.screenAtFailure({ points: [{ x, y }] }), readAround(phone, x, y, deadline, ctx)]);
    const around = screen ? image.neighbourhoodOf(screen, x, y) : read;
    const images = image.pixelEvidence(around, expected, actual, differs);
    return (['expected', 'actual', 'diff'] as const).map((kind) => ({ name: `pixel-${x}-${y}-${kind}.png`, body: image.encodePng(images[kind]), contentType: 'image/png' }));
  } finally {
    deadline.dispose();
  }
}

/** The screen around a point, read at once as one step, within what is left of the evidence's time. Cells it could not read are left empty. */
function readAround(phone: Phone, x: number, y: number, deadline: Deadline, ctx: CheckContext): Promise<Neighbourhood> {
  return phone.read(`read the screen around (${x}, ${y}) on ${phone.id}`, { deadline, site: ctx.site }, async () => {
    const { readNeighbourhood } = await import('./screen.js');
    return readNeighbourhood(phone.client, phone.id, x, y, { deadline, screen: phone.screen });
  });
}
