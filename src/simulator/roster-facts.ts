import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { DeviceId } from '../core/device-id.js';
import { readScenarioFile, rosterOf, type ScenarioRoster } from './roster.js';

/** A scenario's phone as the device matrix shows it: what the vendor's device properties would say of it. */
export interface RosterPhone {
  id: DeviceId;
  name: string;
  /** The model the phone reports: the scenario's `model`, else the phone's name (as the simulator does). */
  model: string;
  /** The screen's size, from the first screen's `width` and `height` or its PNG's header; undefined when unreadable. */
  screen: { width: number; height: number } | undefined;
}

/** The roster with each phone's model and screen size. */
export interface RosterWithFacts extends ScenarioRoster {
  phones: RosterPhone[];
}

/**
 * The roster of a scenario ({@link rosterOf}) with each phone's model and screen size, read from the JSON
 * without building a screen: the device matrix puts them in each phone's project, in the runner and in every
 * worker, which need neither pngjs nor the simulator for it. A screen the simulator would refuse simply has no
 * size here; the simulator reports it when it starts.
 * @param input a path to a JSON file, or the scenario object
 * @param source how an object is named in messages
 * @param baseDir where PNG paths of an object scenario are resolved (a file's are relative to the file)
 * @default baseDir process.cwd()
 */
export function loadRosterFacts(input: unknown, source = 'scenario', baseDir: string = process.cwd()): RosterWithFacts {
  const read = typeof input === 'string' ? readScenarioFile(input) : { json: input, source };
  const roster = rosterOf(read.json, read.source);
  const dir = typeof input === 'string' ? path.dirname(read.source) : baseDir;
  const raw = (read.json as { phones: Record<string, unknown>[] }).phones;
  const phones = roster.phones.map((p, i) => {
    const json = raw[i]!;
    const model = typeof json.model === 'string' && json.model ? json.model : p.name;
    const frames = json.frames;
    const first = json.screen ?? (Array.isArray(frames) ? frames[0] : undefined);
    return { ...p, model, screen: screenSize(first, dir) };
  });
  return { ...roster, phones };
}

/** A screen's size as the simulator reads it: `{"png"}` from the PNG's header, or `{"width", "height"}`. */
function screenSize(screen: unknown, dir: string): RosterPhone['screen'] {
  if (typeof screen !== 'object' || screen === null) return undefined;
  const s = screen as Record<string, unknown>;
  if (s.png !== undefined) return pngSize(s.png, dir);
  const side = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
  return side(s.width) && side(s.height) ? { width: s.width as number, height: s.height as number } : undefined;
}

/** The PNG header's first 24 bytes hold the size: the 8-byte signature, the IHDR chunk's length and type, then width and height (PNG spec §11.2.2). */
const PNG_HEAD = 24;

function pngSize(png: unknown, dir: string): RosterPhone['screen'] {
  let head: Uint8Array;
  if (png instanceof Uint8Array) {
    head = png.subarray(0, PNG_HEAD);
  } else if (typeof png === 'string' && png !== '') {
    head = new Uint8Array(PNG_HEAD);
    let fd: number | undefined;
    try {
      fd = openSync(path.resolve(dir, png), 'r');
      head = head.subarray(0, readSync(fd, head, 0, PNG_HEAD, 0));
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  } else {
    return undefined;
  }
  if (head.length < PNG_HEAD || Buffer.from(head.subarray(12, 16)).toString('latin1') !== 'IHDR') return undefined;
  const view = new DataView(head.buffer, head.byteOffset, PNG_HEAD);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}
