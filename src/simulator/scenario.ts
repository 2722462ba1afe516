import path from 'node:path';
import type { DeviceId } from '../core/device-id.js';
import { ConfigError } from '../core/errors.js';
import type { DisplaySettings, Resolution } from '../core/settings.js';
import { checkBehaviour } from './behaviour.js';
import { checkObject, isInt, type Fail } from './check.js';
import { checkLab, checkOffsetKeys, isClockOffset, OFFSET_HINT, type LabOptions } from './lab.js';
import { DEFAULT_APPS, type FrameSpec, type NotificationRule, type PhoneSpec, type Scenario, type ScenarioInput } from './scenario-types.js';
import type { Screen } from './screen.js';
import { checkOpens, readScreen, SCREEN_NAME } from './screen-input.js';
import { failIn, PHONE_NAME, readScenarioFile, rosterOf, type ScenarioRoster } from './roster.js';
import { applySettings, defaultSettings } from './settings-input.js';

const RULE_KEYS = ['device', 'app', 'text', 'atMs', 'everyMs', 'startMs'];
const MAX_MS = 2 ** 31 - 1;
/** An Android package name, as the app routes take it. */
const PACKAGE = /^[A-Za-z0-9_.]{1,255}$/;
const MAX_APPS = 1_000;

/** The group of a phone whose scenario names none. */
export const DEFAULT_GROUP = 'default';

/**
 * Reads a scenario: a JSON file, or an object. PNG paths are relative to the file (or to `baseDir`).
 * Every refusal is a ConfigError naming the file, the JSON path and what to write there.
 * @param input a path to a JSON file, or the scenario object
 * @param baseDir where PNG paths of an object scenario are resolved
 * @default baseDir process.cwd()
 */
export function loadScenario(input: string | ScenarioInput, baseDir: string = process.cwd()): Scenario {
  if (typeof input !== 'string') return validateScenario(input, 'scenario', baseDir);
  const { json, source } = readScenarioFile(input);
  return validateScenario(json, source, path.dirname(source));
}

/**
 * Checks a parsed scenario and builds its phones' screens.
 * @param json the parsed scenario
 * @param source the file name (or `scenario`) for messages
 * @param baseDir where PNG paths are resolved
 */
export function validateScenario(json: unknown, source: string, baseDir: string): Scenario {
  const fail = failIn(source);
  const { main, phones: roster } = rosterOf(json, source);
  const top = json as Record<string, unknown>;
  const ids = new Set<string>(roster.map((p) => p.id));
  const phones = (top.phones as unknown[]).map((raw, i) => readPhone(raw, `phones[${i}]`, roster[i]!, baseDir, fail));
  let behaviour = {};
  if (top.behaviour !== undefined) {
    const checked = checkBehaviour(top.behaviour, 'behaviour');
    if (typeof checked === 'string') throw new ConfigError(`${source}: ${checked}`);
    behaviour = checked;
  }
  let lab: LabOptions | undefined;
  if (top.lab !== undefined) {
    const checked = checkLab(top.lab, 'lab');
    if (typeof checked === 'string') throw new ConfigError(`${source}: ${checked}`);
    const unknown = checked ? checkOffsetKeys(checked.clockOffsetMs, phones, 'lab.clockOffsetMs') : undefined;
    if (unknown !== undefined) throw new ConfigError(`${source}: ${unknown}`);
    lab = checked || undefined;
  }
  const rules: NotificationRule[] = [];
  if (top.notifications !== undefined) {
    if (!Array.isArray(top.notifications)) fail('notifications', 'must be a list of {"device", "app", "text", "atMs" or "everyMs"}');
    (top.notifications as unknown[]).forEach((raw, i) => rules.push(readRule(raw, `notifications[${i}]`, ids, fail)));
  }
  return { source, main, behaviour, lab, phones, rules };
}

/** A phone beyond its id and name (the roster checked those): its screens, settings and state. */
function readPhone(raw: unknown, at: string, who: ScenarioRoster['phones'][number], baseDir: string, fail: Fail): PhoneSpec {
  const p = raw as Record<string, unknown>;
  if (p.online !== undefined && typeof p.online !== 'boolean') fail(`${at}.online`, 'must be true or false');
  if (p.loop !== undefined && typeof p.loop !== 'boolean') fail(`${at}.loop`, 'must be true or false');
  if (p.clockOffsetMs !== undefined && !isClockOffset(p.clockOffsetMs)) fail(`${at}.clockOffsetMs`, `is ${JSON.stringify(p.clockOffsetMs)}; ${OFFSET_HINT}`);
  for (const key of ['model', 'manufacturer', 'android']) {
    const v = p[key];
    if (v !== undefined && (typeof v !== 'string' || v.length === 0 || v.length > 100)) fail(`${at}.${key}`, `is ${JSON.stringify(v)}; write a text of 1 to 100 characters`);
  }
  if (p.sdk !== undefined && !isInt(p.sdk, 1, 99)) fail(`${at}.sdk`, `is ${JSON.stringify(p.sdk)}; write the Android SDK level, an integer such as 33`);
  if (p.group !== undefined && (typeof p.group !== 'string' || !PHONE_NAME.test(p.group))) fail(`${at}.group`, `is ${JSON.stringify(p.group)}; write a group name of letters, digits, ".", "_" or "-", e.g. "lab-a"`);
  if (p.apps !== undefined && (!Array.isArray(p.apps) || p.apps.length > MAX_APPS || p.apps.some((a) => typeof a !== 'string' || !PACKAGE.test(a)))) {
    fail(`${at}.apps`, `is ${JSON.stringify(p.apps).slice(0, 120)}; write a list of up to ${MAX_APPS} package names, e.g. ["com.example.chat"]`);
  }
  if ((p.screen === undefined) === (p.frames === undefined)) fail(at, 'must have either "screen" or "frames" (not both)');
  let frames: FrameSpec[];
  if (p.screen !== undefined) {
    frames = [{ screen: readScreen(p.screen, `${at}.screen`, baseDir, fail, []), durationMs: 0 }];
  } else {
    if (!Array.isArray(p.frames) || p.frames.length === 0) fail(`${at}.frames`, 'must be a non-empty list of screens with "durationMs"');
    frames = (p.frames as unknown[]).map((f, i) => {
      const where = `${at}.frames[${i}]`;
      const screen = readScreen(f, where, baseDir, fail, ['durationMs']);
      const ms = (f as Record<string, unknown>).durationMs;
      if (!isInt(ms, 1, MAX_MS)) fail(`${where}.durationMs`, `is ${JSON.stringify(ms)}; write how long the frame shows, in milliseconds (an integer ≥ 1)`);
      return { screen, durationMs: ms as number };
    });
    const { width, height } = frames[0]!.screen;
    frames.forEach((f, i) => {
      if (f.screen.width !== width || f.screen.height !== height) fail(`${at}.frames[${i}]`, `is ${f.screen.width}×${f.screen.height} but frame 0 is ${width}×${height}; every frame of a phone has the phone's size`);
    });
  }
  const { width, height } = frames[0]!.screen;
  const screens = readNamedScreens(p.screens, `${at}.screens`, { width, height }, baseDir, fail);
  const names = new Set(screens.keys());
  frames.forEach((f, i) => checkOpens(f.screen, names, p.screen !== undefined ? `${at}.screen` : `${at}.frames[${i}]`, fail));
  for (const [name, screen] of screens) checkOpens(screen, names, `${at}.screens.${name}`, fail);
  return {
    id: who.id,
    name: who.name,
    online: (p.online as boolean | undefined) ?? true,
    settings: readSettings(p.settings, `${at}.settings`, { w: width, h: height }, fail),
    frames,
    loop: (p.loop as boolean | undefined) ?? true,
    clockOffsetMs: p.clockOffsetMs as number | undefined,
    model: (p.model as string | undefined) ?? who.name,
    manufacturer: (p.manufacturer as string | undefined) ?? 'phonewright',
    android: (p.android as string | undefined) ?? '13',
    sdk: (p.sdk as number | undefined) ?? 33,
    group: (p.group as string | undefined) ?? DEFAULT_GROUP,
    apps: [...new Set((p.apps as string[] | undefined) ?? DEFAULT_APPS)],
    screens,
    launch: readLaunch(p.launch, `${at}.launch`, names, fail),
  };
}

/** A phone's named screens, each the phone's size. */
function readNamedScreens(raw: unknown, at: string, size: { width: number; height: number }, baseDir: string, fail: Fail): Map<string, Screen> {
  const screens = new Map<string, Screen>();
  if (raw === undefined) return screens;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(at, 'must be an object of screen name → screen, e.g. {"sign-in": {"width": 1080, "height": 1920, …}}');
  for (const [name, input] of Object.entries(raw as Record<string, unknown>)) {
    if (!SCREEN_NAME.test(name)) fail(`${at}.${name}`, 'is not a screen name; write letters, digits, ".", "_" or "-" (at most 64), e.g. "sign-in"');
    const screen = readScreen(input, `${at}.${name}`, baseDir, fail, []);
    if (screen.width !== size.width || screen.height !== size.height) fail(`${at}.${name}`, `is ${screen.width}×${screen.height} but the phone is ${size.width}×${size.height}; every screen of a phone has the phone's size`);
    screens.set(name, screen);
  }
  return screens;
}

/** Package → the screen its start shows: packages as the app routes take them, screens of the phone's. */
function readLaunch(raw: unknown, at: string, names: ReadonlySet<string>, fail: Fail): Map<string, string> {
  const launch = new Map<string, string>();
  if (raw === undefined) return launch;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(at, 'must be an object of package → screen name, e.g. {"com.example.app": "sign-in"}');
  for (const [pkg, name] of Object.entries(raw as Record<string, unknown>)) {
    if (!PACKAGE.test(pkg)) fail(`${at}.${pkg}`, 'is not a package name; write letters, digits, "_" and dots, e.g. "com.example.app"');
    if (typeof name !== 'string' || !names.has(name)) fail(`${at}.${pkg}`, `is ${JSON.stringify(name)}, which is not a screen of the phone; write one of its "screens" (${[...names].join(', ') || 'it has none'})`);
    launch.set(pkg, name as string);
  }
  return launch;
}

function readSettings(raw: unknown, at: string, size: Resolution, fail: Fail): DisplaySettings {
  const base = defaultSettings(size);
  if (raw === undefined) return base;
  const explicit = applySettings(raw, at, base, fail);
  // A resolution given without an orientation still gets the orientation that goes with it.
  const given = raw as Record<string, unknown>;
  if (given.display_orientation === undefined) explicit.display_orientation = explicit.display_resolution.w > explicit.display_resolution.h ? 2 : 1;
  return explicit;
}

function readRule(raw: unknown, at: string, ids: Set<string>, fail: Fail): NotificationRule {
  const r = checkObject(raw, at, RULE_KEYS, fail);
  if (typeof r.device !== 'string' || !ids.has(r.device)) fail(`${at}.device`, `is ${JSON.stringify(r.device)}; write the id of one of the phones`);
  if (typeof r.app !== 'string' || r.app === '') fail(`${at}.app`, 'must be a package name, e.g. "com.example.chat"');
  if (typeof r.text !== 'string') fail(`${at}.text`, 'must be the message text (a string)');
  if ((r.atMs === undefined) === (r.everyMs === undefined)) fail(at, 'needs either "atMs" (once) or "everyMs" (repeatedly), not both');
  if (r.atMs !== undefined) {
    if (!isInt(r.atMs, 0, MAX_MS)) fail(`${at}.atMs`, `is ${JSON.stringify(r.atMs)}; write milliseconds after the start (an integer ≥ 0)`);
    if (r.startMs !== undefined) fail(`${at}.startMs`, 'goes with "everyMs" only');
    return { device: r.device as DeviceId, app: r.app as string, text: r.text as string, firstMs: r.atMs as number, everyMs: 0 };
  }
  if (!isInt(r.everyMs, 1, MAX_MS)) fail(`${at}.everyMs`, `is ${JSON.stringify(r.everyMs)}; write the interval in milliseconds (an integer ≥ 1)`);
  if (r.startMs !== undefined && !isInt(r.startMs, 0, MAX_MS)) fail(`${at}.startMs`, `is ${JSON.stringify(r.startMs)}; write milliseconds after the start (an integer ≥ 0)`);
  const everyMs = r.everyMs as number;
  return { device: r.device as DeviceId, app: r.app as string, text: r.text as string, firstMs: (r.startMs as number | undefined) ?? everyMs, everyMs };
}
