import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { HistoryRecord } from './history-types.js';

/** A record file: the run's start in UTC, `:` and `.` made `-` so the name is valid everywhere and sorts by time. */
const RECORD_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.json$/;

/**
 * The file name of a record started at `date`, e.g. `2025-11-22T02-30-00-000Z.json`: sorting names sorts runs.
 * @param date when the run started
 */
export function recordFileName(date: Date): string {
  return `${date.toISOString().replace(/[:.]/g, '-')}.json`;
}

/**
 * Writes a record into the history folder (created when missing) and returns its path. Two runs started in
 * the same millisecond get consecutive milliseconds, so no record overwrites another and order holds.
 * @param dir the history folder, e.g. `reports/history`
 * @param record the run
 */
export async function writeRecord(dir: string, record: HistoryRecord): Promise<string> {
  await mkdir(dir, { recursive: true });
  let time = Date.parse(record.startedAt);
  for (;;) {
    const file = path.join(dir, recordFileName(new Date(time)));
    try {
      await writeFile(file, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      time++;
    }
  }
}

/**
 * The record files of a history folder, oldest first (file names only); [] when the folder does not exist.
 * @param dir the history folder
 */
export function listRecords(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => RECORD_NAME.test(name))
    .sort();
}

/**
 * Reads one record; a file that is not a record of this version is refused with its name.
 * @param file the record's path
 */
export function readRecord(file: string): HistoryRecord {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file} is not a readable history record: ${(error as Error).message}`, { hint: 'move it out of the history folder', cause: error });
  }
  const record = json as Partial<HistoryRecord>;
  if (record?.version !== 1 || !Array.isArray(record.tests) || typeof record.phones !== 'object') {
    throw new ConfigError(`${file} is not a history record of version 1`, { hint: 'move it out of the history folder' });
  }
  return record as HistoryRecord;
}

/**
 * The last `count` records up to and including `upTo` (a file name), oldest first, each with its name.
 * @param dir the history folder
 * @param upTo the newest record to include
 * @param count how many at most
 */
export function recentRecords(dir: string, upTo: string, count: number): { name: string; record: HistoryRecord }[] {
  const names = listRecords(dir).filter((name) => name <= upTo);
  return names.slice(-count).map((name) => ({ name, record: readRecord(path.join(dir, name)) }));
}
