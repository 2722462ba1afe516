import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeviceId, type DeviceId } from '../core/device-id.js';
import { ConfigError } from '../core/errors.js';
import { checkObject, type Fail } from './check.js';

/** The phones of a scenario, as a device matrix needs them: no screen is built to know them. */
export interface ScenarioRoster {
  /** The file it came from, or a description of where it was given, for messages. */
  source: string;
  main: DeviceId;
  phones: { id: DeviceId; name: string }[];
}

/** A phone's name: fit for a Playwright project and a file name. */
export const PHONE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const TOP_KEYS = ['$schema', 'main', 'behaviour', 'lab', 'phones', 'notifications'];
export const PHONE_KEYS = ['id', 'name', 'online', 'settings', 'screen', 'frames', 'loop', 'clockOffsetMs', 'model', 'manufacturer', 'android', 'sdk', 'group', 'apps', 'screens', 'launch'];

/**
 * The ids, names and main device of a scenario, checked as the simulator checks them (the rest of the
 * scenario is the simulator's to check when it starts). The device matrix lists its projects from this in
 * the runner and again in every worker, which need not load the simulator's screens for it.
 * @param input a path to a JSON file, or the scenario object
 * @param source how an object is named in messages
 */
export function loadRoster(input: unknown, source = 'scenario'): ScenarioRoster {
  const read = typeof input === 'string' ? readScenarioFile(input) : { json: input, source };
  return rosterOf(read.json, read.source);
}

/** Reads a scenario file as JSON; a missing file or bad JSON is a ConfigError naming the file. */
export function readScenarioFile(input: string): { json: unknown; source: string } {
  const file = path.resolve(input);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`scenario ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`, {
      hint: 'pass the path of a scenario JSON file; phonewright sim --print-scenario prints the default one to start from',
      cause: e,
    });
  }
  try {
    return { json: JSON.parse(text), source: file };
  } catch (e) {
    throw new ConfigError(`scenario ${file} is not valid JSON: ${(e as Error).message}`, { hint: 'fix the syntax', cause: e });
  }
}

/** Every refusal of a scenario: a ConfigError naming the source, the JSON path and what to write there. */
export function failIn(source: string): Fail {
  return (where, what) => {
    throw new ConfigError(`${source}: ${where} ${what}`);
  };
}

/** Checks the top level, the phones' ids and names (each its own) and the main device. */
export function rosterOf(json: unknown, source: string): ScenarioRoster {
  const fail = failIn(source);
  const top = checkObject(json, '', TOP_KEYS, fail);
  if (!Array.isArray(top.phones) || top.phones.length === 0) fail('phones', 'must be a non-empty list of phones, e.g. [{"id": "device@1116106541", "screen": {"width": 1080, "height": 1920, "fill": "0x25425c"}}]');
  const phones: ScenarioRoster['phones'] = [];
  const ids = new Set<string>();
  const names = new Set<string>();
  (top.phones as unknown[]).forEach((raw, i) => {
    const at = `phones[${i}]`;
    const p = checkObject(raw, at, PHONE_KEYS, fail);
    if (!isDeviceId(p.id)) fail(`${at}.id`, `is ${JSON.stringify(p.id)}; write device@<signed 32-bit integer>, e.g. "device@1116106541"`);
    const name = p.name ?? `phone-${i + 1}`;
    if (typeof name !== 'string' || !PHONE_NAME.test(name)) fail(`${at}.name`, `is ${JSON.stringify(name)}; write a short name of letters, digits, ".", "_" or "-", e.g. "galaxy-s9"`);
    if (ids.has(p.id as string)) fail(`${at}.id`, `${JSON.stringify(p.id)} is used by an earlier phone; give each phone its own id`);
    if (names.has(name as string)) fail(`${at}.name`, `${JSON.stringify(name)} is used by an earlier phone; give each phone its own name`);
    ids.add(p.id as string);
    names.add(name as string);
    phones.push({ id: p.id as DeviceId, name: name as string });
  });
  let main = phones[0]!.id;
  if (top.main !== undefined) {
    if (typeof top.main !== 'string' || !ids.has(top.main)) fail('main', `is ${JSON.stringify(top.main)}; write the id of one of the phones, e.g. ${JSON.stringify(main)}`);
    main = top.main as DeviceId;
  }
  return { source, main, phones };
}
