// "Every phone": the points picked on one phone, read at the same places on each phone of the matrix.
import type { CallOptions, DeviceClient } from '../client/index.js';
import { UsageError } from '../core/errors.js';
import type { InspectedPhone } from './phones.js';
import { scalePoint, tableSettings, type NamedPoint, type TableSettings } from './table.js';

/**
 * The most points read on every phone at once: more than a person picks by hand, and each is one read on every
 * phone of the matrix (200 points on 16 phones: 3,200 reads), where a body of 1 MB held 20,000 of them.
 */
export const MAX_POINTS = 200;

/** A point as read on one phone: its place there, and its colour or why it could not be read. */
export interface PointCell extends NamedPoint {
  color?: string;
  error?: string;
}

/** One phone's row of the table as the page shows it. */
export interface EveryRow {
  id: string;
  project: string;
  name: string;
  model: string | undefined;
  screen: { width: number; height: number } | undefined;
  points: PointCell[];
  settings?: TableSettings;
  /** Why the settings could not be read; the row is then left out of the table. */
  error?: string;
}

/**
 * Reads the points on every phone: each placed by its screen's size relative to the phone they were picked on
 * (where both sizes are known; the page then reads a place moved by hand as a single point), its colour by a
 * pixel read; and each phone's display settings. Phones are read side by side; a failure fills its cell, not
 * the whole table.
 * @param client the logged-in client
 * @param phones every phone of the table
 * @param from the phone the points were picked on
 * @param points the points as picked
 * @param clean scrubs secrets from an error's message
 */
export async function readEveryPhone(
  client: Pick<DeviceClient, 'pixel' | 'settings'>,
  phones: readonly InspectedPhone[],
  from: InspectedPhone,
  points: readonly NamedPoint[],
  clean: (error: unknown) => string,
  call: CallOptions,
): Promise<EveryRow[]> {
  if (points.length > MAX_POINTS) throw new UsageError(`${points.length} points to read on every phone, more than ${MAX_POINTS}`, { hint: 'read them on several tables' });
  return Promise.all(
    phones.map(async (phone) => {
      const placed = points.map((p) => (phone.id === from.id ? { ...p } : scalePoint(p, from.screen, phone.screen)));
      const [settings, cells] = await Promise.all([
        client.settings(phone.id, call).then(
          (s) => ({ settings: tableSettings(s) }),
          (e: unknown) => ({ error: clean(e) }),
        ),
        Promise.all(
          placed.map((p) =>
            client.pixel(phone.id, p.x, p.y, call).then(
              (px): PointCell => ({ ...p, color: px.rgb }),
              (e: unknown): PointCell => ({ ...p, error: clean(e) }),
            ),
          ),
        ),
      ]);
      return { id: phone.id, project: phone.project, name: phone.name, model: phone.model, screen: phone.screen, points: cells, ...settings };
    }),
  );
}
