// The inspector's template mode: a rectangle of the phone's screen saved as an image that specs look for with
// `expect(device).toShow('images/<name>.png')`, beside the spec that will use it, recording the screen it was
// cut on so that it is found at the scale of any other phone.
import path from 'node:path';
import type { CallOptions, DeviceClient } from '../client/index.js';
import { UsageError } from '../core/errors.js';
import { checkRectOnScreen } from '../core/screen.js';
import { encodeTemplate, type Rect } from '../image/index.js';
import { captureImage } from '../phone/screen.js';
import { specsWriter } from './files.js';
import { specFile } from './naming.js';
import type { InspectedPhone } from './phones.js';

/** The folder, beside a spec, that its images are kept in: a spec names them `images/<name>.png`. */
export const IMAGES_DIR = 'images';

/** What a template is made of: the spec that will look for it, its name, the rectangle. */
export interface TemplateRequest {
  /** The specs folder (absolute): the matrix's testDir. */
  specsDir: string;
  /** The spec, relative to it (checked by checkSpecName): the image goes in `images/` beside it. */
  specFile: string;
  /** The image's file name, e.g. `send-button.png`. */
  name: string;
  rect: Rect;
  /** Replace an image that is there. */
  replace: boolean;
}

/**
 * Cuts a template: the rectangle in one capture of the phone's screen (the vendor's capture: the run looks
 * for it in captures too), written as `<spec's folder>/images/<name>` with the phone's screen size recorded.
 * @returns the file written, its size, and the path a spec in that folder gives it
 */
export async function writeTemplate(client: Pick<DeviceClient, 'capture'>, phone: InspectedPhone, req: TemplateRequest, call: CallOptions): Promise<{ file: string; image: string; width: number; height: number }> {
  const screen = phone.screen;
  if (!screen) throw new UsageError(`the screen size of ${phone.name} is not known, and an image records the screen it was cut on`, { hint: 'cut images on a server that offers the device properties' });
  checkRectOnScreen({ screen, toString: () => phone.name }, req.rect);
  if (req.rect.width < 8 || req.rect.height < 8) throw new UsageError(`an image of ${req.rect.width}×${req.rect.height} is too small to be told from the rest of the screen`, { hint: 'drag at least 8×8 pixels, with the edges of what it shows' });
  const image = `${IMAGES_DIR}/${req.name}`;
  const file = specFile(req.specsDir, path.join(path.dirname(req.specFile), image));
  const png = encodeTemplate(await captureImage(client, phone.id, req.rect, call), screen);
  await specsWriter(req.specsDir).write(file, png, { replace: req.replace, exists: 'replace it from the page (Save image again), or save it under another name' });
  return { file, image, width: req.rect.width, height: req.rect.height };
}

/**
 * Checks an image's name: a file name of letters, digits, `.`, `_` and `-`, ending in `.png`.
 * @param name e.g. `send-button.png`
 */
export function checkImageName(name: unknown): string {
  if (typeof name !== 'string' || !/^[\w.-]+\.png$/.test(name)) {
    throw new UsageError(`invalid image name ${JSON.stringify(String(name).slice(0, 80))}: expected a file name ending in .png, e.g. 'send-button.png'`);
  }
  return name;
}
