import { UsageError } from './errors.js';

/** A phone's id on the device-control server: `device@<signed 32-bit integer>`. */
export type DeviceId = `device@${number}`;

const DEVICE_ID = /^device@(-?(?:0|[1-9]\d*))$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const EXAMPLE = 'device@1116106541';

/** True when `value` is a well-formed device id. */
export function isDeviceId(value: unknown): value is DeviceId {
  if (typeof value !== 'string') return false;
  const m = DEVICE_ID.exec(value);
  if (!m) return false;
  const n = Number(m[1]);
  // The vendor's ids are signed 32-bit integers, negative ones included (field notes).
  return n >= INT32_MIN && n <= INT32_MAX && m[1] !== '-0';
}

/**
 * Checks a device id given by a user.
 * @param value the text to check, e.g. `device@1116106541` or `device@-230441652`
 * @param what how the value is named in the error message
 * @default what `"device id"`
 */
export function parseDeviceId(value: string, what = 'device id'): DeviceId {
  if (isDeviceId(value)) return value;
  const shown = JSON.stringify(String(value).slice(0, 80));
  const m = /^device@(-?\d+)$/.exec(value);
  if (m) {
    throw new UsageError(`invalid ${what} ${shown}: the number must be a signed 32-bit integer without leading zeros`, {
      hint: `an id as the server lists it, e.g. ${EXAMPLE}`,
    });
  }
  throw new UsageError(`invalid ${what} ${shown}: expected device@<integer>`, {
    hint: `an id such as ${EXAMPLE}, or "main" where the main device is meant (phonewright main-device prints it)`,
  });
}
