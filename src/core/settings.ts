import { UsageError } from './errors.js';

/** A screen size, as `display_resolution` carries it (`"1080*1920"` or `{ w, h }` on the wire). */
export interface Resolution {
  w: number;
  h: number;
}

/** A phone's display settings, normalized: enums as numbers, `display_hw_decode` as 0/1, resolution `{w, h}`. */
export interface DisplaySettings {
  display_mode: number;
  display_quality: number;
  display_accl: number;
  display_hw_decode: 0 | 1;
  display_resolution_mode: number;
  display_orientation: number;
  display_resolution: Resolution;
}

export type SettingsField = keyof DisplaySettings;

/** The seven fields in the order the interface lists them. */
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  'display_mode',
  'display_quality',
  'display_accl',
  'display_hw_decode',
  'display_resolution_mode',
  'display_orientation',
  'display_resolution',
];

type EnumField = Exclude<SettingsField, 'display_resolution' | 'display_hw_decode'>;

/** A name for every enum value of the interface. */
export const SETTINGS_ENUMS: Readonly<Record<EnumField | 'display_hw_decode', Readonly<Record<number, string>>>> = {
  display_mode: { 1: 'HA1', 2: 'HA2', 3: 'Comp' },
  display_quality: { 1: 'High', 2: 'Medium', 3: 'Low' },
  display_accl: { 1: 'GDI', 2: 'DirectX', 3: 'OpenGL' },
  display_hw_decode: { 0: 'no', 1: 'yes' },
  display_resolution_mode: { 1: '480p', 2: '640p', 3: '720p', 4: '1080p' },
  display_orientation: { 1: 'portrait', 2: 'landscape' },
};

/** Short names users write in expectations, e.g. `{ orientation: 'portrait' }`. */
const SHORT_NAMES: Readonly<Record<string, SettingsField>> = {
  mode: 'display_mode',
  quality: 'display_quality',
  accl: 'display_accl',
  hwDecode: 'display_hw_decode',
  hw_decode: 'display_hw_decode',
  resolutionMode: 'display_resolution_mode',
  resolution_mode: 'display_resolution_mode',
  orientation: 'display_orientation',
  resolution: 'display_resolution',
};

/** What a user may write in `toHaveSettings(...)`: short or wire names; enum names or numbers. */
export type SettingsExpectation = Partial<Record<string, string | number | boolean | Resolution>>;

/** One field that differs between expected and actual settings. */
export interface SettingsMismatch {
  field: SettingsField;
  expected: string;
  actual: string;
}

/**
 * Decodes the `value` of a settings answer. Throws a plain `Error` naming the bad field; the client wraps it
 * into a protocol error with the operation and a redacted excerpt.
 * @param value the decoded JSON `value` of the envelope
 */
export function decodeSettings(value: unknown): DisplaySettings {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`settings value is ${describeType(value)}, expected an object with the seven display fields`);
  }
  const v = value as Record<string, unknown>;
  const enumField = (field: EnumField): number => {
    const n = v[field];
    // Unknown positive values are kept (a newer server may add a mode); wrong types are refused.
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
    if (typeof n === 'string' && /^[1-9]\d*$/.test(n)) return Number(n);
    throw new Error(`settings field ${field} is ${describeType(n)}, expected a positive integer`);
  };
  return {
    display_mode: enumField('display_mode'),
    display_quality: enumField('display_quality'),
    display_accl: enumField('display_accl'),
    display_hw_decode: decodeHwDecode(v.display_hw_decode),
    display_resolution_mode: enumField('display_resolution_mode'),
    display_orientation: enumField('display_orientation'),
    display_resolution: decodeResolution(v.display_resolution),
  };
}

/** Formats a resolution as the sample bodies do: `1080*1920`. */
export function formatResolution(r: Resolution): string {
  return `${r.w}*${r.h}`;
}

/**
 * Reads a resolution written by a user or a server: `"1080*1920"` or `{ w: 1080, h: 1920 }`.
 * Returns undefined when it is neither.
 */
export function readResolution(value: unknown): Resolution | undefined {
  if (typeof value === 'string') {
    const m = /^\s*(\d{1,6})\s*[*x×]\s*(\d{1,6})\s*$/.exec(value);
    return m ? { w: Number(m[1]), h: Number(m[2]) } : undefined;
  }
  if (value && typeof value === 'object') {
    const { w, h } = value as Record<string, unknown>;
    if (isDimension(w) && isDimension(h)) return { w, h };
  }
  return undefined;
}

/** Names a setting's value for messages: `1 (portrait)`, `1080*1920`. */
export function describeSetting(field: SettingsField, value: DisplaySettings[SettingsField]): string {
  if (field === 'display_resolution') return formatResolution(value as Resolution);
  const name = SETTINGS_ENUMS[field][value as number];
  return name ? `${value} (${name})` : `${value} (unknown)`;
}

/**
 * Checks and normalizes an expectation such as `{ orientation: 'portrait', resolution: '1080*1920' }`.
 * Throws a usage error for an unknown field or value, naming what is allowed.
 */
export function parseSettingsExpectation(input: SettingsExpectation): Partial<DisplaySettings> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new UsageError('expected settings must be an object, e.g. { orientation: "portrait" }');
  }
  const out: Partial<Record<SettingsField, unknown>> = {};
  for (const [key, raw] of Object.entries(input)) {
    const field = SHORT_NAMES[key] ?? (SETTINGS_FIELDS.includes(key as SettingsField) ? (key as SettingsField) : undefined);
    if (!field) {
      throw new UsageError(`unknown settings field "${key}"`, {
        hint: `one of ${Object.keys(SHORT_NAMES).filter((k) => !k.includes('_')).join(', ')} (or the display_* names)`,
      });
    }
    out[field] = field === 'display_resolution' ? expectResolution(raw) : expectEnum(field, raw);
  }
  return out as Partial<DisplaySettings>;
}

/** The fields of `expected` that `actual` does not have, in interface order. */
export function settingsMismatches(actual: DisplaySettings, expected: Partial<DisplaySettings>): SettingsMismatch[] {
  const out: SettingsMismatch[] = [];
  for (const field of SETTINGS_FIELDS) {
    const want = expected[field];
    if (want === undefined) continue;
    const have = actual[field];
    const same =
      field === 'display_resolution'
        ? (want as Resolution).w === (have as Resolution).w && (want as Resolution).h === (have as Resolution).h
        : want === have;
    if (!same) out.push({ field, expected: describeSetting(field, want), actual: describeSetting(field, have) });
  }
  return out;
}

function decodeHwDecode(value: unknown): 0 | 1 {
  // One vendor sample carries the string "1"; both forms are accepted (field notes).
  if (value === 0 || value === '0' || value === false) return 0;
  if (value === 1 || value === '1' || value === true) return 1;
  throw new Error(`settings field display_hw_decode is ${describeType(value)}, expected 0 or 1 (number or string)`);
}

function decodeResolution(value: unknown): Resolution {
  const r = readResolution(value);
  if (!r) throw new Error(`settings field display_resolution is ${describeType(value)}, expected "W*H" or {"w": W, "h": H}`);
  return r;
}

function expectEnum(field: EnumField | 'display_hw_decode', raw: unknown): number {
  const names = SETTINGS_ENUMS[field];
  if (field === 'display_hw_decode') {
    if (raw === true || raw === 1 || raw === '1' || raw === 'yes') return 1;
    if (raw === false || raw === 0 || raw === '0' || raw === 'no') return 0;
  } else if (typeof raw === 'number' && names[raw] !== undefined) {
    return raw;
  } else if (typeof raw === 'string') {
    const hit = Object.entries(names).find(([, name]) => name.toLowerCase() === raw.trim().toLowerCase());
    if (hit) return Number(hit[0]);
  }
  const allowed = Object.entries(names)
    .map(([n, name]) => `'${name}' (${n})`)
    .join(', ');
  throw new UsageError(`invalid value ${JSON.stringify(raw)} for ${field}: expected one of ${allowed}`);
}

function expectResolution(raw: unknown): Resolution {
  const r = readResolution(raw);
  if (!r) throw new UsageError(`invalid resolution ${JSON.stringify(raw)}: expected '1080*1920' or { w: 1080, h: 1920 }`);
  return r;
}

function isDimension(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 1_000_000;
}

function describeType(value: unknown): string {
  if (value === undefined) return 'missing';
  const json = JSON.stringify(value);
  return json === undefined ? typeof value : json.length > 40 ? `${json.slice(0, 40)}…` : json;
}
