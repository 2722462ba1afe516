// Where the inspector's goldens and specs go, named as a run of the device matrix names them: pure path and
// name logic, no I/O (fixtures/matrix.ts and fixtures/device.ts are the run's side of it).
import path from 'node:path';
import { qualifiedName } from '../config/names.js';
import { ALL_DEVICES, type DeviceSelection } from '../config/schema.js';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { ScreenSize } from '../core/screen.js';
import { within } from '../files/writer.js';

/** What the matrix needs to know of a phone to name its project. */
export interface PhoneFacts {
  id: DeviceId;
  /** The phone's own name: the scenario's, the config file's, or the one the server's list gives. */
  name: string | undefined;
  model: string | undefined;
  screen: ScreenSize | undefined;
}

/** Where the phone's server stands in the run: its phones in the matrix, and how its projects are named. */
export interface ServerFacts {
  /** The server's phones in the matrix (the config file's `devices`, or PHONEWRIGHT_DEVICES); undefined: the default. */
  devices: DeviceSelection | undefined;
  /** The embedded simulator, whose phones are named after the scenario's names. */
  embedded: boolean;
  /** The server's main device now. */
  mainDevice: DeviceId;
  /** The server's name in the config file: a phone's project is `<server>-<name>` where another server names a phone alike. */
  name: string;
  /** The names the file's other servers give their phones (src/config/names.ts): a phone named alike is qualified. */
  othersNames: ReadonlySet<string>;
}

/** A phone's Playwright project, and the name its goldens end with. */
export interface ProjectName {
  project: string;
  /** `<golden>-<this>.png`: the project's name, or for the main device's project its model and screen. */
  goldenSuffix: string;
}

/**
 * The project a run of the device matrix gives a phone, and so the name of its goldens: the pool or name the
 * config file gives it (`main` for the main device listed as `main`), the scenario's name on the embedded
 * simulator, else its id. The main device's project, `main` on every server, names its goldens after the
 * phone's model and screen (`SM-G960F-1080x1920`), as a run does.
 * @param phone the phone
 * @param server the phone's server in the run
 */
export function projectOf(phone: PhoneFacts, server: ServerFacts): ProjectName {
  const listed = Array.isArray(server.devices) ? server.devices : [];
  const entry = listed.find((d) => d.id === phone.id) ?? listed.find((d) => d.id === 'main' && phone.id === server.mainDevice);
  const own = server.embedded && phone.name ? phone.name : phone.id;
  let project: string;
  let byPhone = false;
  if (entry) {
    // The embedded simulator's phones keep the scenario's names; a real server's take the file's.
    project = entry.pool ?? (server.embedded ? own : (entry.name ?? entry.id));
    byPhone = entry.id === 'main' && !server.embedded;
  } else if (server.devices === undefined && !server.embedded && phone.id === server.mainDevice) {
    project = 'main';
    byPhone = true;
  } else {
    project = own;
  }
  const full = qualifiedName(server.name, project, server.othersNames);
  return { project: full, goldenSuffix: byPhone ? phoneKey(phone) : full };
}

/** A phone's name for its goldens: `SM-G960F-1080x1920`, or its id where the model or screen is not known. */
export function phoneKey(phone: Pick<PhoneFacts, 'id' | 'model' | 'screen'>): string {
  const { model, screen, id } = phone;
  return model && screen ? `${model}-${screen.width}x${screen.height}`.replace(/[^\w.-]+/g, '_') : id;
}

/**
 * Checks a spec file's name: a path under the specs folder, in folders and names of letters, digits, `.`, `_`
 * and `-`, ending in `.spec.ts`. Refuses absolute paths and any that leave the folder.
 * @param file the name as typed, e.g. `home-screen.spec.ts` or `settings/dark.spec.ts`
 * @param ext what the name must end with
 * @default ext '.spec.ts'
 */
export function checkSpecName(file: unknown, ext = '.spec.ts'): string {
  const text = typeof file === 'string' ? file.trim() : '';
  const parts = text.split('/');
  const fine = text.endsWith(ext) && text.length > ext.length && text.length <= 200 && parts.every((p) => /^[\w.-]+$/.test(p) && p !== '.' && p !== '..');
  if (!fine) {
    throw new UsageError(`invalid file name ${JSON.stringify(String(file).slice(0, 80))}: expected a name ending in ${ext}, inside specs/`, {
      hint: `home-screen${ext}, or a folder in specs/: settings/dark${ext} (letters, digits, ".", "_" and "-"; no "..")`,
    });
  }
  return text;
}

/**
 * Checks a golden's name as `toMatchRegion` does: a file name ending in `.png`.
 * @param name e.g. `status-bar.png`
 */
export function checkGoldenName(name: unknown): string {
  if (typeof name !== 'string' || !/^[\w.-]+\.png$/.test(name)) {
    throw new UsageError(`invalid golden name ${JSON.stringify(String(name).slice(0, 80))}: expected a file name ending in .png, e.g. 'status-bar.png'`);
  }
  return name;
}

/**
 * Where a run keeps a golden: the matrix's snapshot path, `{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}-{projectName}{ext}`.
 * @param specsDir the matrix's testDir (absolute)
 * @param specFile the spec, relative to it (checked by {@link checkSpecName})
 * @param name the golden's name as the spec gives it, e.g. `status-bar.png`
 * @param suffix the phone's {@link ProjectName.goldenSuffix}
 */
export function goldenFile(specsDir: string, specFile: string, name: string, suffix: string): string {
  const base = name.replace(/\.png$/, '');
  return inside(specsDir, path.join(specsDir, path.dirname(specFile), `${path.basename(specFile)}-snapshots`, `${base}-${suffix}.png`));
}

/**
 * A file in the specs folder, refusing a path that leaves it.
 * @param specsDir the specs folder (absolute)
 * @param file the name, checked by {@link checkSpecName}
 */
export function specFile(specsDir: string, file: string): string {
  return inside(specsDir, path.join(specsDir, file));
}

/** How a spec in `specFile` imports fixtures of the project's own, in a folder `fixtures` beside the specs folder. */
export function fixturesImport(specFile: string): string {
  const depth = specFile.split('/').length;
  return `${'../'.repeat(depth)}fixtures`;
}

function inside(dir: string, file: string): string {
  // `..` as the first part, not as the start of a name: `...draft.spec.ts` is a file of the folder.
  if (!within(dir, file)) throw new UsageError(`${JSON.stringify(file)} is outside ${dir}`, { hint: 'a name inside specs/' });
  return file;
}

/** The phones of the server in a run: the config file's, or else PHONEWRIGHT_DEVICES's ids (`all` included). */
export function matrixDevices(configured: DeviceSelection | undefined, envList: string[] | typeof ALL_DEVICES | undefined): DeviceSelection | undefined {
  if (configured !== undefined) return configured;
  if (envList === ALL_DEVICES) return ALL_DEVICES;
  return envList?.filter((d) => d === 'main' || d.startsWith('device@')).map((id) => ({ id: id as DeviceId | 'main' }));
}
