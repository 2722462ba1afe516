// What the inspector writes: goldens where a run looks for them, specs, tables and images under specs/, all through
// the one writer, inside the specs folder. A new file never replaces one that is there, unless the user said so for
// a golden or an image.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CallOptions } from '../client/index.js';
import { checkRectOnScreen } from '../core/screen.js';
import { FileExists, FolderWriter } from '../files/writer.js';
import { encodePng, MASK_COLOR, STEP_KEY, type Rect } from '../image/index.js';
import { readRegion, type RegionClient } from '../phone/screen.js';
import { fixturesImport, goldenFile } from './naming.js';
import type { InspectedPhone } from './phones.js';

export { FileExists };

/** The package's fixtures, by the name a spec imports them with. */
const PACKAGE_FIXTURES = 'phonewright/fixtures';

/**
 * What a spec written at `specFile` imports `test` and `expect` from, so that the import resolves from the folder
 * it is written to: the package's name wherever that resolves there (phonewright installed in the project, or
 * the repository's own specs, which import the package by its own name); else fixtures of the project's own, in
 * a folder beside the specs folder, by relative path; else the package's name still, which resolves once the
 * project installs phonewright.
 * @param specsDir the specs folder (absolute)
 * @param specFile the spec, relative to it
 */
export function fixturesImportFor(specsDir: string, specFile: string): string {
  const folder = path.dirname(path.join(specsDir, specFile));
  try {
    createRequire(path.join(folder, 'spec.js')).resolve(PACKAGE_FIXTURES);
    return PACKAGE_FIXTURES;
  } catch {
    const own = ['index.ts', 'index.js'].some((f) => existsSync(path.join(specsDir, '..', 'fixtures', f)));
    return own ? fixturesImport(specFile) : PACKAGE_FIXTURES;
  }
}

/** What a golden is made of: the spec and name a check gives it, its region and masks. */
export interface GoldenRequest {
  /** The specs folder (absolute): the matrix's testDir. */
  specsDir: string;
  /** The spec, relative to it. */
  specFile: string;
  /** The golden's name in the check, e.g. `status-bar.png`. */
  name: string;
  rect: Rect;
  mask: Rect[];
  /** Replace a golden that is there. */
  replace: boolean;
}

/**
 * Writes a phone's golden as a run of `toMatchRegion(rect, name, { mask })` would: the region read the same way
 * (one capture, or pixel by pixel on a server without it), masked parts in magenta, every pixel (step 1, recorded
 * in the file), at `<specs>/<spec>-snapshots/<name>-<project>.png`.
 * @param client the logged-in client
 * @param phone the phone, with its project
 * @param req the spec, name, region and masks
 * @returns the file written, and its size
 */
export async function writeGolden(client: RegionClient, phone: InspectedPhone, req: GoldenRequest, call: CallOptions): Promise<{ file: string; width: number; height: number }> {
  checkRectOnScreen({ screen: phone.screen, toString: () => phone.name }, req.rect);
  const file = goldenFile(req.specsDir, req.specFile, req.name, phone.goldenSuffix);
  const image = await readRegion(client, phone.id, req.rect, { ...call, step: 1, mask: req.mask.length ? req.mask : undefined, maskColor: MASK_COLOR });
  const png = encodePng(image, { [STEP_KEY]: '1' });
  await specsWriter(req.specsDir).write(file, png, { replace: req.replace, exists: 'replace it from the page (Write golden again), or write it under another name' });
  return { file, width: image.width, height: image.height };
}

/**
 * Writes a file that must not exist yet, inside the specs folder, its folders made as needed.
 * @param specsDir the specs folder (absolute)
 * @param file the absolute path
 * @param content what it holds
 * @param hint what to do when it exists
 */
export async function writeNew(specsDir: string, file: string, content: string | Buffer, hint: string): Promise<void> {
  await specsWriter(specsDir).write(file, content, { replace: false, exists: hint });
}

/** The writer of the specs folder: nothing the inspector writes lands outside it, through a link or by name. */
export function specsWriter(specsDir: string): FolderWriter {
  return new FolderWriter(specsDir, `the specs folder (${specsDir})`, 'write under the specs folder, with no symbolic link on the way out of it');
}
