import { readResolution, SETTINGS_ENUMS, type DisplaySettings, type Resolution } from '../core/settings.js';
import { checkObject, type Fail } from './check.js';

const ENUM_FIELDS = Object.keys(SETTINGS_ENUMS).filter((f) => f !== 'display_hw_decode') as (keyof typeof SETTINGS_ENUMS)[];
const KEYS = [...Object.keys(SETTINGS_ENUMS), 'display_resolution'];

/**
 * The settings a phone without any in its scenario reports: the vendor's sample body, with the resolution
 * and orientation of its screen and a resolution mode that fits it.
 * @param size the screen size
 */
export function defaultSettings(size: Resolution): DisplaySettings {
  const short = Math.min(size.w, size.h);
  return {
    display_mode: 1,
    display_quality: 2,
    display_accl: 2,
    display_hw_decode: 1,
    display_resolution_mode: short >= 1080 ? 4 : short >= 720 ? 3 : short >= 640 ? 2 : 1,
    display_orientation: size.w > size.h ? 2 : 1,
    display_resolution: { w: size.w, h: size.h },
  };
}

/**
 * Applies settings written with their wire names over `base`, checking each value.
 * @param raw e.g. `{"display_orientation": 2, "display_resolution": "1920*1080"}`
 * @param at the JSON path, for messages
 */
export function applySettings(raw: unknown, at: string, base: DisplaySettings, fail: Fail): DisplaySettings {
  const s = checkObject(raw, at, KEYS, fail);
  const out: DisplaySettings = { ...base, display_resolution: { ...base.display_resolution } };
  for (const field of ENUM_FIELDS) {
    const v = s[field];
    if (v === undefined) continue;
    if (typeof v !== 'number' || SETTINGS_ENUMS[field][v] === undefined) {
      fail(`${at}.${field}`, `is ${JSON.stringify(v)}; write one of ${Object.entries(SETTINGS_ENUMS[field]).map(([n, name]) => `${n} (${name})`).join(', ')}`);
    }
    (out as unknown as Record<string, number>)[field] = v as number;
  }
  const hw = s.display_hw_decode;
  if (hw !== undefined) {
    if (hw === 1 || hw === '1' || hw === true) out.display_hw_decode = 1;
    else if (hw === 0 || hw === '0' || hw === false) out.display_hw_decode = 0;
    else fail(`${at}.display_hw_decode`, `is ${JSON.stringify(hw)}; write 1 (yes) or 0 (no)`);
  }
  if (s.display_resolution !== undefined) {
    const r = readResolution(s.display_resolution);
    if (!r) fail(`${at}.display_resolution`, `is ${JSON.stringify(s.display_resolution)}; write "1080*1920" or {"w": 1080, "h": 1920}`);
    out.display_resolution = r!;
  }
  return out;
}
