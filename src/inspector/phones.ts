// The phones the inspector offers: the server's (its device list, or the embedded simulator's scenario), the
// config file's, and the one asked for; each with its model and screen where the server tells them.
import type { CallOptions, DeviceClient, DeviceInfo } from '../client/index.js';
import type { DeviceId } from '../core/device-id.js';
import { ServiceError, UsageError } from '../core/errors.js';
import type { ScreenSize } from '../core/screen.js';
import { projectOf, type ServerFacts } from './naming.js';

/** A phone as the page shows it and the goldens name it. */
export interface InspectedPhone {
  id: DeviceId;
  /** Its name (scenario, config file or server), or its id. */
  name: string;
  model: string | undefined;
  manufacturer: string | undefined;
  screen: ScreenSize | undefined;
  /** Its Playwright project in a run of the device matrix. */
  project: string;
  /** What its goldens' names end with: the project, or the main device's model and screen. */
  goldenSuffix: string;
}

/** What the inspector knows of the phones before asking the server. */
export interface DirectoryInput {
  client: Pick<DeviceClient, 'devices' | 'deviceInfo' | 'mainDevice'>;
  /** The phone the command was given. */
  selected: DeviceId;
  /** Phones known by name: the embedded simulator's scenario, or the config file's (`main` for the main device). */
  named: readonly { id: DeviceId | 'main'; name: string }[];
  /** The embedded simulator: its scenario lists its phones, no device list is asked. */
  embedded: boolean;
  server: Omit<ServerFacts, 'mainDevice' | 'embedded'>;
  call: CallOptions;
}

/**
 * Lists the phones: the embedded simulator's or the server's device list (a route beyond the interface; a
 * server without it gives the config file's phones), the one asked for first. Each phone's properties give its
 * model and screen; a phone whose properties cannot be read is listed without them.
 */
export async function listPhones(input: DirectoryInput): Promise<InspectedPhone[]> {
  const { client, call } = input;
  const mainDevice = await client.mainDevice(call);
  const named = input.named.map((p) => ({ id: p.id === 'main' ? mainDevice : p.id, name: p.name }));
  const listed = input.embedded ? [] : await offered(client.devices(call), []);
  const ids = [...new Set([input.selected, ...named.map((p) => p.id), ...listed])];
  const server: ServerFacts = { ...input.server, mainDevice, embedded: input.embedded };
  return Promise.all(
    ids.map(async (id) => {
      const info: DeviceInfo | undefined = await offered(client.deviceInfo(id, call), undefined).catch(() => undefined);
      const screen = info && { width: info.width, height: info.height };
      const name = named.find((p) => p.id === id)?.name ?? (info?.name || undefined);
      const { project, goldenSuffix } = projectOf({ id, name, model: info?.model || undefined, screen }, server);
      return { id, name: name ?? id, model: info?.model || undefined, manufacturer: info?.manufacturer || undefined, screen, project, goldenSuffix };
    }),
  );
}

/**
 * The phone a request names, among those listed.
 * @param phones the listed phones
 * @param id the id the page sent
 */
export function phoneById(phones: readonly InspectedPhone[], id: unknown): InspectedPhone {
  const phone = phones.find((p) => p.id === id);
  if (!phone) throw new UsageError(`no phone ${JSON.stringify(String(id).slice(0, 40))} in this inspector`, { hint: `one of ${phones.map((p) => p.id).join(', ')}` });
  return phone;
}

/** A call's answer, or `fallback` when the server does not offer the route. */
async function offered<T>(call: Promise<T>, fallback: T): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'not-offered') return fallback;
    throw error;
  }
}
