import path from 'node:path';
import { ServiceError } from '../core/errors.js';
import { describeBest, lastSight, look, want, type ImageOptions, type Sight, type Wanted } from './image.js';
import type { Phone } from './phone.js';
import { untilChecked } from './until.js';
import { lastFailure, noAnswer, polled, readFacts, type CheckContext, type Part, type Verdict } from './verdict.js';

/**
 * `toShow`: captures the phone's screen and looks for the image on it, again and again, until it is there (or,
 * with `.not`, gone) or the timeout passes. The image is looked for at this phone's scale against the screen it
 * was cut on. `pass` always means "the image is there".
 */
export async function checkImage(phone: Phone, image: string, options: ImageOptions, ctx: CheckContext): Promise<Verdict> {
  const check = { name: 'toShow', args: 'image', expected: image };
  const { isNot, timeout } = ctx;
  // A server without the screen capture an image is looked for on: one line that says so, in either polarity.
  const cannotLook = (error: ServiceError): Verdict => ({ ...check, pass: isNot, received: 'not offered', lines: [[`Phone:    ${phone}`], [`Image:    ${image}`], [`Received: cannot look: ${error.message}`]], evidence: [] });
  let wanted: Wanted;
  try {
    wanted = await want(phone, image, options);
  } catch (error) {
    if (isNotOffered(error)) return cannotLook(error);
    throw error;
  }
  const poll = await untilChecked((deadline) => look(phone, wanted, deadline, ctx.site), (s) => s.result.found !== isNot, timeout, ctx.startedAt, ctx.hostAllowance);
  let sight: Sight | undefined;
  try {
    sight = lastSight(poll);
  } catch (error) {
    if (isNotOffered(error)) return cannotLook(error);
    throw error;
  }
  const facts = { matcher: check.name, phone: String(phone), isNot, image, threshold: wanted.threshold, deltaE: wanted.deltaE, reads: readFacts(poll, timeout) };
  if (sight === undefined) {
    // No screen at all: the check fails whichever way it was asked (see noAnswer).
    const lines = [[`Phone:    ${phone}`], [`Image:    ${image}`], [`Received: ${noAnswer(poll)}`], [`Polled:   ${polled(poll, timeout, '', 'capture')}`], ...lastFailure(poll, 'search')];
    return { ...check, pass: isNot, received: 'no answer', lines, timeout, evidence: [], facts };
  }
  const { best, found } = sight.result;
  const lines: Part[][] = [
    [`Phone:    ${phone}`],
    [`Image:    ${describeImage(wanted, sight)}`],
    [`Expected: ${isNot ? 'the image not on the screen' : 'the image on the screen'}`],
    [`Received: ${found ? `found at ${best.width}×${best.height} (${best.x}, ${best.y}), centre (${best.center.x}, ${best.center.y}), score ${best.score}` : `not found; ${describeBest(sight, wanted)}`}`],
    [`Polled:   ${polled(poll, timeout, '', 'capture')}`],
  ];
  const verdict: Verdict = { ...check, pass: found, received: found ? best : `best score ${best.score}`, lines, timeout, evidence: [] };
  if (found === isNot) {
    phone.lab.sawWrongAnswer();
    await phone.hooks.screenAtFailure({ regions: [best] });
    verdict.evidence = await imageEvidence(wanted, sight);
    const { x, y, width, height, score, colorDelta } = best;
    verdict.facts = { ...facts, best: { x, y, width, height, score, colorDelta }, found };
  }
  return verdict;
}

/** `images/send.png (200×80, cut on a screen 1080 wide: ×0.667 on this 720×1280 one)`. */
function describeImage(wanted: Wanted, sight: Sight): string {
  const { image, cutOn } = wanted.template;
  const where = cutOn === undefined ? 'its cut screen not recorded: taken at this phone\'s scale' : `cut on a screen ${cutOn} wide: ×${Math.round(wanted.scale * 1000) / 1000} on this ${sight.screen.width}×${sight.screen.height} one`;
  return `${wanted.name} (${image.width}×${image.height}, ${where})`;
}

/**
 * The image and the best place seen, side by side in the report's image-diff viewer: `<name>-expected.png` the
 * image at the scale it was found at, `<name>-actual.png` the screen there.
 */
async function imageEvidence(wanted: Wanted, sight: Sight): Promise<Verdict['evidence']> {
  const image = await import('../image/index.js');
  const base = path.basename(wanted.name, path.extname(wanted.name));
  return [
    { name: `${base}-expected.png`, body: image.encodePng(wanted.template.image), contentType: 'image/png' },
    { name: `${base}-actual.png`, body: image.encodePng(image.cropImage(sight.screen, sight.result.best)), contentType: 'image/png' },
  ];
}

function isNotOffered(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.reason === 'not-offered';
}
