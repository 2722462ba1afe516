import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DeviceClient } from '../client/index.js';
import { isPhonewrightError } from '../core/errors.js';
import { FolderWriter } from '../files/writer.js';
import type { Image } from '../image/png.js';
import type { PartialRegion } from '../image/region.js';
import type { PollResult } from './until.js';

/** A golden's bytes, or undefined when there is none yet. */
export function readGolden(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return undefined;
  }
}

/**
 * Writes a golden, making its folder, through the one writer: in the folder of its snapshots' folder (the spec's),
 * never through a link at the golden or a snapshots folder that links out of it.
 */
export async function writeGolden(file: string, png: Buffer): Promise<void> {
  const specs = path.dirname(path.dirname(file));
  await new FolderWriter(specs, specs, 'a golden is written beside its spec: remove the symbolic link, then run again').write(file, png);
}

/**
 * On a server without screen capture, a region not sampled in time although its reads were answered: its cost,
 * `this region is read pixel by pixel here: 3,072 reads, about 5.1 s; …`, timed from the reads made. Undefined
 * otherwise (a capture that did not answer, a phone that stopped answering: the lab's).
 */
export function pixelByPixel(client: Pick<DeviceClient, 'extensions'>, partial: PartialRegion, poll: PollResult<Image>, timeout: number): string | undefined {
  if (!client.extensions.lacks('capture') || partial.read === 0 || !(poll.error === undefined || isPhonewrightError(poll.error, 'PW_TIMEOUT'))) return undefined;
  // Still answering at the end: its last read within a second, or ten reads' time, of the end.
  const perRead = poll.ms / partial.read;
  if (performance.now() - partial.lastReadAt > Math.max(1_000, 10 * perRead)) return undefined;
  const total = partial.grid.width * partial.grid.height;
  const seconds = (perRead * total) / 1000;
  const about = seconds < 10 ? seconds.toFixed(1) : String(Math.round(seconds));
  return `this region is read pixel by pixel here (the server has no screen capture): ${total.toLocaleString('en-US')} reads, about ${about} s, and ${partial.read.toLocaleString('en-US')} were read in its ${timeout} ms; try: raise its timeout ({ timeout: ${Math.ceil((seconds * 1.5) / 5) * 5_000} }), a larger { step }, or a server with capture`;
}

/** What a region check received when no sample finished in time. */
export function unfinished(reads: number, timeout: number): string {
  return `no complete sample within ${timeout} ms: the region is ${reads} pixel reads; try: a longer timeout ({ timeout }), a larger { step }, or a smaller region`;
}
