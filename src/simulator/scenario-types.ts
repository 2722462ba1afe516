import type { DeviceId } from '../core/device-id.js';
import type { DisplaySettings, Resolution } from '../core/settings.js';
import type { Behaviour } from './behaviour.js';
import type { LabOptions } from './lab.js';
import type { Screen } from './screen.js';

/**
 * The packages of a phone whose scenario lists none: Android's settings and browser, and the vendor's own app.
 * Here, not in scenario.ts, so that the built-in scenario (scenarios/default.ts) loads without the simulator's
 * screens: the device matrix reads its roster in the runner and in every worker.
 */
export const DEFAULT_APPS: readonly string[] = ['com.android.settings', 'com.android.chrome', 'com.sigma_rt.totalcontrol'];

/** A scenario as written in a JSON file or passed as an object: the virtual phones and what happens on them. */
export interface ScenarioInput {
  /** The main device's id; default: the first phone. */
  main?: string;
  /** Answers where the interface says "not shown" (see {@link Behaviour}). */
  behaviour?: Partial<Behaviour>;
  phones: PhoneInput[];
  /** Make the server behave like a phone lab: `true` for the preset (LAB_PRESET), or the settings. Options win. */
  lab?: boolean | LabOptions;
  /** Messages that arrive at a time after the start (`atMs`) or again and again (`everyMs`). */
  notifications?: NotificationRuleInput[];
}

export interface PhoneInput {
  /** `device@<signed 32-bit integer>`. */
  id: string;
  /** A short name fit for a Playwright project, e.g. `galaxy-s9`; default `phone-<n>`. */
  name?: string;
  /** False: the phone is connected to nothing; the server answers "device not found". @default true */
  online?: boolean;
  /** Wire names; missing ones are derived from the screen (resolution, orientation) or the vendor's sample. */
  settings?: SettingsInput;
  /** What the phone shows; give this or `frames`. */
  screen?: ScreenInput;
  /** Screens that follow each other, each shown for `durationMs`. */
  frames?: FrameInput[];
  /** Start again after the last frame (otherwise the last one stays). @default true */
  loop?: boolean;
  /**
   * How far the phone's clock is from the simulator's, in ms (within a day either way): the `time` it stamps
   * on messages. @default 0, or the lab's offset
   */
  clockOffsetMs?: number;
  /** What the vendor's device properties (`GET devices/<id>`) say of the phone. @default the phone's name */
  model?: string;
  /** @default "phonewright" */
  manufacturer?: string;
  /** The Android release, e.g. "13". @default "13" */
  android?: string;
  /** The Android SDK level, e.g. 33. @default 33 */
  sdk?: number;
  /** The group the vendor's device list finds the phone in (`q=group&name=…`). @default "default" */
  group?: string;
  /**
   * The packages installed, as the phone's app list answers them (`apps?q=installed_apk_list`).
   * @default a few Android system packages and the vendor's own app (DEFAULT_APPS)
   */
  apps?: string[];
  /**
   * Screens of the phone's apps, by name (letters, digits, `.`, `_`, `-`), each the phone's size: an app's
   * start shows one (`launch`), a tap on an element shows the one it `opens`. `screen` or `frames` is the home
   * screen, shown again by the home key and when the app in front closes.
   */
  screens?: Record<string, ScreenInput>;
  /** Package → the name of the screen (of `screens`) it shows when started (`apps/<package>` with `state=active`). */
  launch?: Record<string, string>;
}

/** A PNG file (relative to the scenario file), or a fill colour with rectangles painted over it in order. */
export type ScreenInput = { png: string | Uint8Array } | DrawnScreenInput;

export interface DrawnScreenInput {
  width: number;
  height: number;
  /** `0xrrggbb`, `#rrggbb` or `rrggbb`. @default "0x000000" */
  fill?: string;
  rects?: RectInput[];
  /** Lines of text drawn over the rectangles, in Roboto, antialiased (an OCR engine reads them). */
  texts?: TextInput[];
  /** UI elements: the phone's accessibility tree on this screen (the vendor's `sendAai` searches it), each drawn. */
  elements?: ElementInput[];
}

/** A line of text on a drawn screen. */
export interface TextInput {
  /** The left edge of the text. */
  x: number;
  /** The top of its line box (the font's ascender; the baseline is 0.93 × `size` below it, for Roboto). */
  y: number;
  /** One line: no line breaks. */
  text: string;
  /** The font size in pixels (the em; capitals are 0.71 of it). */
  size: number;
  /** @default "0x000000" */
  color?: string;
  /** @default "regular" */
  weight?: 'regular' | 'bold';
}

/** A UI element of a drawn screen: what the accessibility tree says of it, and how it is drawn. */
export interface ElementInput {
  /** What it shows; drawn in its bounds, so the pixels and the tree agree. */
  text?: string;
  /** Its content description (an icon's spoken name): not drawn. */
  description?: string;
  /** Its resource id, e.g. `com.example.app:id/login`. */
  id?: string;
  /** e.g. `android.widget.Button`. @default android.widget.EditText when editable, android.widget.TextView with a text, else android.view.View */
  class?: string;
  /** `[left, top, right, bottom]` (right and bottom outside it, as Android's), or `{x, y, width, height}`. */
  bounds: [number, number, number, number] | { x: number; y: number; width: number; height: number };
  /** @default false */
  clickable?: boolean;
  /** A text field: `setText` and typing after a tap on it change its text. @default false */
  editable?: boolean;
  /** The rectangle drawn in its bounds, under its text. @default none */
  fill?: string;
  /** @default "0x000000" */
  textColor?: string;
  /** The font size of its text, in pixels. @default half its height, at most 48 */
  textSize?: number;
  /** @default "regular" */
  weight?: 'regular' | 'bold';
  /** Where its text sits from left to right (from top to bottom it is centred). @default "left", "center" for a clickable element that is not editable */
  align?: 'left' | 'center' | 'right';
  /** The name of a screen of the phone's `screens` that a tap on it (or an AAI click) shows. */
  opens?: string;
}

export interface RectInput {
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  /** The rectangle moves with the phone's swipes, by each swipe's (dx, dy), as a list under the finger. @default false */
  scrolls?: boolean;
}

export type FrameInput = ScreenInput & { durationMs: number };

export type SettingsInput = Partial<{
  display_mode: number;
  display_quality: number;
  display_accl: number;
  display_hw_decode: number | string | boolean;
  display_resolution_mode: number;
  display_orientation: number;
  display_resolution: string | Resolution;
}>;

export interface NotificationRuleInput {
  device: string;
  app: string;
  /** Unicode text; `{n}` is replaced by the 1-based count of the rule's messages so far. */
  text: string;
  /** Arrives once, this many milliseconds after the start. */
  atMs?: number;
  /** Arrives every this many milliseconds. */
  everyMs?: number;
  /** With `everyMs`: when the first one arrives. @default everyMs */
  startMs?: number;
}

/** A validated phone of a scenario; its screens are templates copied on every reset. */
export interface PhoneSpec {
  id: DeviceId;
  name: string;
  online: boolean;
  settings: DisplaySettings;
  frames: readonly FrameSpec[];
  loop: boolean;
  /** The phone's own clock offset, when the scenario gives one. */
  clockOffsetMs?: number | undefined;
  /** What the vendor's device properties say of it. */
  model: string;
  manufacturer: string;
  android: string;
  sdk: number;
  group: string;
  apps: readonly string[];
  /** The named screens (templates, copied on every reset). */
  screens: ReadonlyMap<string, Screen>;
  /** Package → the name of the screen its start shows. */
  launch: ReadonlyMap<string, string>;
}

export interface FrameSpec {
  screen: Screen;
  durationMs: number;
}

export interface NotificationRule {
  device: DeviceId;
  app: string;
  text: string;
  /** First arrival, in ms after the start. */
  firstMs: number;
  /** Interval; 0 for a message that arrives once. */
  everyMs: number;
}

/** A validated scenario. */
export interface Scenario {
  /** The file it came from, or a description of where it was given, for messages. */
  source: string;
  main: DeviceId;
  behaviour: Partial<Behaviour>;
  /** The scenario's lab, if it asks for one. */
  lab: LabOptions | undefined;
  phones: readonly PhoneSpec[];
  rules: readonly NotificationRule[];
}
