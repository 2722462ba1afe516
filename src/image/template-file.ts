// A template's file: a PNG cut from a phone's screen, which records the size of that screen, so that it is
// searched for at the scale of the phone it is looked for on.
import { UsageError } from '../core/errors.js';
import type { ScreenSize } from '../core/screen.js';
import { decodePng, encodePng, pngText, type Image } from './png.js';

/** The tEXt key of the screen a template was cut on, as `<width>x<height>` in pixels (`1080x2400`). */
export const CUT_ON_KEY = 'phonewright-cut-on';

/** A template as a search takes it. */
export interface Template {
  image: Image;
  /** The narrower side of the screen it was cut on, in pixels (1080 for a 1080×2400 phone, either way up), if known. */
  cutOn: number | undefined;
}

/**
 * Decodes a template's PNG and the screen it records it was cut on.
 * @param bytes the file's content
 * @param what how to name it in messages: its path
 */
export function decodeTemplate(bytes: Buffer, what: string): Template {
  const image = decodePng(bytes, what, 'cut it again with phonewright inspect, or export it as PNG');
  const recorded = pngText(bytes)[CUT_ON_KEY];
  const m = recorded === undefined ? null : /^(\d{1,6})x(\d{1,6})$/.exec(recorded);
  return { image, cutOn: m ? Math.min(Number(m[1]), Number(m[2])) : undefined };
}

/**
 * A template's PNG, recording the screen it was cut on.
 * @param screen the whole screen's size, in pixels
 */
export function encodeTemplate(image: Image, screen: ScreenSize): Buffer {
  return encodePng(image, { [CUT_ON_KEY]: `${screen.width}x${screen.height}` });
}

/**
 * Screen pixels per template pixel: the ratio of the two screens' narrower sides, which grow with a phone's
 * density (a phone and its landscape are one scale; a 720-wide phone shows a 1080-wide one's button at two
 * thirds). A template that does not say where it was cut is taken at the phone's own scale.
 * @param cutOn the narrower side of the screen the template was cut on
 * @param screen the phone's screen it is looked for on
 */
export function templateScale(cutOn: number | undefined, screen: ScreenSize): number {
  return cutOn === undefined ? 1 : Math.min(screen.width, screen.height) / cutOn;
}

/** Checks the `cutOn` a spec gives: a whole number of pixels. */
export function parseCutOn(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 8 && value <= 100_000) return value;
  throw new UsageError(`invalid cutOn ${JSON.stringify(value) ?? String(value)}: expected the narrower side, in pixels, of the screen the template was cut on`, { hint: '{ cutOn: 1080 } for a template cut on a 1080×2400 phone' });
}
