import { parseColor, type ColorInput } from '../core/color.js';
import { UsageError } from '../core/errors.js';
import { resolveRect, type RectInput } from '../core/fraction.js';
import { checkRectOnScreen } from '../core/screen.js';
import type { Deadline } from '../client/deadline.js';
import type { CompareOptions, Image, Mismatch, UpdateMode } from '../image/index.js';
import type { Phone } from './phone.js';
import { pixelByPixel, readGolden, unfinished, writeGolden } from './region-golden.js';
import { untilChecked, type PollResult } from './until.js';
import { polled, readFacts, unanswered, type Attachment, type CheckContext, type Part, type Verdict } from './verdict.js';

export interface RegionOptions extends CompareOptions {
  /** ms to keep sampling until the region matches; default: the expect timeout. */
  timeout?: number;
  /** Parts of the screen (screen coordinates) to leave out: not read, never compared, shown in `maskColor`. */
  mask?: RectInput[];
  /** The colour masked parts show in the images. @default '#ff00ff' (Playwright's) */
  maskColor?: ColorInput;
  /**
   * Reads every n-th pixel on both axes, for large areas: a 200×200 region at step 4 is 2,500 reads. The
   * golden records its step; a golden of another step is refused. @default 1
   */
  step?: number;
  /** Compares only once two samples in a row are alike, as Playwright's `toHaveScreenshot` waits for a still page. */
  stable?: boolean;
}

/** Where a region's golden is kept, and what the run's `--update-snapshots` mode does with it. */
export interface Golden {
  /** Its absolute path. */
  path: string;
  /** Its path relative to the working folder, for messages. */
  relative: string;
  mode: UpdateMode;
}

/**
 * `toMatchRegion`: samples the region and compares it with a golden PNG, re-sampling until it matches or the
 * timeout passes. A missing or different golden is handled as Playwright 1.65 handles snapshots under each
 * `--update-snapshots` mode (`src/image/update-modes.ts`).
 * @param golden where the golden named `name` is kept: asked once the arguments are checked
 */
export async function checkRegion(phone: Phone, given: RectInput, name: string, options: RegionOptions, ctx: CheckContext, golden: (name: string) => Golden): Promise<Verdict> {
  const check = { name: 'toMatchRegion', args: 'rect, name' };
  const { isNot, timeout } = ctx;
  // Percentages of the screen resolve against this phone's, the region's and the masks' alike.
  const rect = resolveRect(phone, given);
  const mask = options.mask?.map((m) => resolveRect(phone, m));
  // Loaded with the first region check: a worker that never makes one starts without pngjs and pixelmatch.
  const image = await import('../image/index.js');
  const maskColor = options.maskColor === undefined ? image.MASK_COLOR : parseColor(options.maskColor);
  const grid = new image.RegionGrid(rect, { step: options.step, mask, maskColor });
  checkRectOnScreen(phone, rect);
  if (typeof name !== 'string' || !/^[\w.-]+\.png$/.test(name)) {
    throw new UsageError(`invalid golden name ${JSON.stringify(name)}: expected a file name ending in .png, e.g. 'status-bar.png'`);
  }
  if (options.stable !== undefined && typeof options.stable !== 'boolean') throw new UsageError(`invalid stable ${JSON.stringify(options.stable)}: expected true or false`);
  const { path: file, relative, mode } = golden(name);
  image.checkCompareOptions(options);
  const base = name.replace(/\.png$/, '');
  const encode = (img: Image) => image.encodePng(img, { [image.STEP_KEY]: String(grid.step) });
  const evidence = (kind: string, img: Image): Attachment => ({ name: `${base}-${kind}.png`, body: encode(img), contentType: 'image/png' });
  const ignored = grid.masked && { masked: grid.masked, color: maskColor };
  // A sample cut short by a failed read is finished by the next one, which reads only the pixels it lacks.
  const partial = new image.PartialRegion(grid);
  const sample = (deadline: Deadline) => phone.region(rect, { deadline, site: ctx.site, resume: partial });
  // With `stable`, a sample counts once it equals the one before it.
  let previous: Image | undefined;
  let still = !options.stable;
  const settled = (img: Image) => {
    if (options.stable) still = previous !== undefined && Buffer.compare(previous.data, img.data) === 0;
    previous = img;
    return still;
  };
  const say = (text: string, more: Partial<Verdict> = {}): Verdict => ({ ...check, pass: !isNot, lines: [[text]], evidence: [], ...more });
  const facts = (p: PollResult<Image>, outcome: string, more: object = {}) => ({
    ...{ matcher: check.name, phone: String(phone), isNot, region: { x: rect.x, y: rect.y, width: rect.width, height: rect.height } },
    // The parts left out, in screen coordinates: the review shows them on its diff.
    ...(mask?.length ? { mask: mask.map(({ x, y, width, height }) => ({ x, y, width, height })) } : {}),
    ...{ golden: relative, goldenPath: file, actualAttachment: `${base}-actual.png`, outcome, reads: readFacts(p, timeout), ...more },
  });
  const noSample = (p: PollResult<Image>): Verdict => {
    const cost = pixelByPixel(phone.client, partial, p, timeout);
    // Every read answered, just too many of them for the timeout: the run's cost, never the lab's failure.
    if (cost) phone.lab.ranOutOfTime();
    return unanswered(phone, { ...check, expected: name }, ctx, p, facts(p, 'unsampled'), cost ?? unfinished(grid.width * grid.height, timeout));
  };
  const stillMoving = async (p: PollResult<Image>, last: Image): Promise<Verdict> => {
    phone.lab.sawWrongAnswer();
    await phone.hooks.screenAtFailure({ regions: [rect] });
    const lines = [[`Region:   ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`], [`Golden:   ${relative}`], ['Received: the region never held still: no two samples in a row were alike'], [`Polled:   ${polled(p, timeout, 'stable: two samples alike in a row', 'sample')}`]];
    return { ...check, pass: isNot, lines, timeout, evidence: [evidence('actual', last)], facts: facts(p, 'unstable') };
  };

  const bytes = readGolden(file);
  const expected = bytes && image.decodePng(bytes, file);
  const goldenStep = bytes && Number(image.pngText(bytes)[image.STEP_KEY] ?? 1);
  if (goldenStep !== undefined && goldenStep !== grid.step && image.refusesOtherStep(mode) && !isNot) {
    throw new UsageError(`${relative} was sampled at step ${goldenStep}, and this check samples at step ${grid.step}`, {
      hint: `pass { step: ${goldenStep} }, or write the golden again at step ${grid.step}: --update-snapshots=changed`,
    });
  }

  if (!expected) {
    // As Playwright: `.not` never writes a golden, and passes without one.
    if (isNot) return say(`A golden region doesn't exist at ${file}, matchers using ".not" won't write them automatically.`, { pass: false });
    const first = await untilChecked(sample, settled, timeout, ctx.startedAt, ctx.hostAllowance);
    if (first.last === undefined) return noSample(first);
    const actual = first.last;
    if (!first.done) return stillMoving(first, actual);
    const { write, verdict } = image.whenMissing(mode);
    if (write) await writeGolden(file, encode(actual));
    const message = `A golden region doesn't exist at ${file}${write ? ', writing actual; the next run compares against it.' : '.'}`;
    const attached = [evidence('actual', actual)];
    if (verdict === 'pass') return say(message, { evidence: attached, log: message });
    await phone.hooks.screenAtFailure({ regions: [rect] });
    const missing = { evidence: attached, facts: facts(first, 'missing', { written: write }) };
    return verdict === 'fail' ? say(message, { pass: false, ...missing }) : say(message, { ...missing, atEnd: message });
  }

  let mismatch: Mismatch | null = null;
  const compare = (img: Image) => (mismatch = image.compareImages(expected, img, options, ignored));
  const waits = isNot || image.waitsForMatch(mode);
  const wanted = (img: Image) => settled(img) && (waits ? (compare(img) === null) !== isNot : (compare(img), true));
  const poll = await untilChecked(sample, wanted, timeout, ctx.startedAt, ctx.hostAllowance);
  if (poll.last === undefined) return noSample(poll);
  const last = poll.last;
  const found = mismatch as Mismatch | null;
  const state = { matches: found === null, samePixels: Buffer.compare(expected.data, last.data) === 0, sameStep: goldenStep === grid.step };
  if (!isNot && still && image.rewritesGolden(mode, state)) {
    await writeGolden(file, encode(last));
    return say(`${file} running with --update-snapshots, writing actual.`, { log: `${file} is re-generated, writing actual.` });
  }
  if (!still) return stillMoving(poll, last);
  const pass = found === null;
  const lines: Part[][] = [
    [`Phone:    ${phone}`],
    [`Region:   ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})${grid.step > 1 ? `, every ${ordinal(grid.step)} pixel` : ''}${mask?.length ? `, ${mask.length} part(s) masked` : ''}`],
    [`Golden:   ${relative}`],
    [isNot ? 'Expected: the region to differ from the golden, and it matched.' : `Received: ${found?.errorMessage ?? ''}`],
    [`Polled:   ${polled(poll, timeout, options.stable ? 'stable: two samples alike in a row' : '', 'sample')}`],
  ];
  const verdict: Verdict = { ...check, pass, expected: name, received: found?.diffPixels ?? 0, lines, timeout, evidence: [] };
  if (pass === isNot) {
    phone.lab.sawWrongAnswer();
    await phone.hooks.screenAtFailure({ regions: [rect] });
    verdict.evidence = [evidence('expected', expected), evidence('actual', last), ...(found?.diff ? [evidence('diff', found.diff)] : [])];
    verdict.facts = found ? facts(poll, 'differs', { mismatch: found.errorMessage }) : facts(poll, 'matches');
  }
  return verdict;
}

/** 2 → `2nd`, 3 → `3rd`, 4 → `4th`, 11 → `11th`, 22 → `22nd`. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}
