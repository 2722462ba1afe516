import { isDeviceId, type DeviceId } from '../core/device-id.js';
import { ServiceError, UsageError } from '../core/errors.js';
import { isFraction, resolvePoint, type Coordinate, type ResolvedPoint } from '../core/fraction.js';
import type { ScreenSize } from '../core/screen.js';
import type { CommandContext } from './context.js';

/** A device argument as typed and checked by `deviceArg`: `main`, a well-formed id, or a phone's name. */
export type DeviceRef = DeviceId | 'main' | (string & {});

/** A phone known by name: from phonewright.config.json (where `main` may have a name), or as the server lists it. */
interface NamedPhone<Id extends string = DeviceId> {
  name: string;
  id: Id;
}

/**
 * Resolves a device argument to an id: `main` asks the server for its main device; a name is looked up in
 * the configuration file's phones of this server, then among the embedded simulator's phones or, on a real
 * server that offers them, the phones its device list names. An unknown name is bad input (exit 2), in one
 * line that lists the names known.
 * @param ref what `deviceArg` read
 * @param ctx the command's client and connection
 */
export async function resolveDevice(ref: DeviceRef, ctx: CommandContext): Promise<DeviceId> {
  if (ref === 'main') return ctx.client.mainDevice({ signal: ctx.signal });
  if (isDeviceId(ref)) return ref;
  const configured = configuredPhones(ctx);
  const inFile = configured.find((p) => p.name === ref);
  if (inFile) return resolveDevice(inFile.id, ctx);
  const listed = await listedPhones(ctx);
  const hits = [...new Set((listed ?? []).filter((p) => p.name === ref).map((p) => p.id))];
  if (hits.length === 1) return hits[0]!;
  const where = ctx.simulatorPhones ? 'the embedded simulator' : ctx.client.url;
  if (hits.length > 1) throw new UsageError(`${hits.length} phones of ${where} are named "${ref}" (${hits.join(', ')})`, { hint: 'give the id of the one you mean' });
  const known = [...configured, ...(listed ?? [])].map((p) => `${p.name} (${p.id})`);
  if (known.length === 0) {
    throw new UsageError(`no phone named "${ref}": ${where} offers no device list and phonewright.config.json names no phone of it`, {
      hint: 'a device id such as device@1116106541, or main (phonewright main-device prints its id)',
    });
  }
  throw new UsageError(`no phone named "${ref}" on ${where}`, { hint: `one of ${[...new Set(known)].join(', ')}; or a device id, or main` });
}

/** How a phone is named in messages: `moto-g5 (device@-230441652)` when it was given by name, else its id. */
export function phoneLabel(ref: DeviceRef, id: DeviceId): string {
  return ref === id || ref === 'main' ? id : `${ref} (${id})`;
}

/**
 * The phone's screen size from its properties (a route beyond the interface); undefined on a server that
 * does not offer them, where a point cannot be checked before it is sent.
 * @param id the phone
 * @param ctx the command's client
 */
export async function screenOf(id: DeviceId, ctx: CommandContext): Promise<ScreenSize | undefined> {
  try {
    const { width, height } = await ctx.client.deviceInfo(id, { signal: ctx.signal });
    return { width, height };
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'not-offered') return undefined;
    throw error;
  }
}

/** The phones phonewright.config.json names for this server. */
function configuredPhones(ctx: CommandContext): NamedPhone<DeviceId | 'main'>[] {
  const devices = ctx.connection.devices;
  if (!Array.isArray(devices)) return [];
  return devices.flatMap((d) => (d.name === undefined ? [] : [{ name: d.name, id: d.id }]));
}

/**
 * The phones the server names: the embedded simulator's scenario as it runs, or a real server's device list
 * and each phone's properties; undefined when the server does not offer them.
 */
async function listedPhones(ctx: CommandContext): Promise<NamedPhone[] | undefined> {
  if (ctx.simulatorPhones) return [...ctx.simulatorPhones];
  const call = { signal: ctx.signal };
  try {
    const ids = await ctx.client.devices(call);
    return await Promise.all(ids.map(async (id) => ({ id, name: (await ctx.client.deviceInfo(id, call)).name })));
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'not-offered') return undefined;
    throw error;
  }
}

/**
 * A point the user typed, in pixels: percentages resolved against the phone's screen size (its properties,
 * read only when a percentage needs them).
 * @param device how the user named the phone, for messages
 */
export async function resolvePointOf(id: DeviceId, x: Coordinate, y: Coordinate, ctx: CommandContext, device: DeviceRef): Promise<ResolvedPoint> {
  if (!isFraction(x) && !isFraction(y)) return resolvePoint({ screen: undefined, toString: () => id }, x, y);
  return resolvePoint({ screen: await screenOf(id, ctx), toString: () => phoneLabel(device, id) }, x, y);
}
