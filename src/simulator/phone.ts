import type { DeviceId } from '../core/device-id.js';
import type { DisplaySettings } from '../core/settings.js';
import type { Element } from './elements.js';
import type { FrameSpec, PhoneSpec } from './scenario-types.js';
import type { Rect, Screen } from './screen.js';

/** What the simulator tells about a phone (the handle's `phones`, the CLI's listing, `GET /_sim/state`). */
export interface PhoneInfo {
  id: DeviceId;
  name: string;
  width: number;
  height: number;
  orientation: 'portrait' | 'landscape';
  main: boolean;
  online: boolean;
  /** How far the phone's clock (the `time` it stamps on messages) is from the simulator's, in ms. */
  clockOffsetMs: number;
  /** A frozen phone takes its reads, captures and acts and never answers them. */
  frozen: boolean;
  /** Where the phone's finger is down (a touch put down and not lifted yet), or null. */
  finger: { x: number; y: number } | null;
  /** The named screen shown (an app's, of the scenario's `screens`), or null: the home screen. */
  screen: string | null;
}

/** The package of the home screen's app: Android's own launcher. */
export const LAUNCHER = 'com.android.launcher3';

/** Most screens a phone keeps to go back to: a loop of taps (sign in, sign out, …) forgets the oldest. */
const MAX_BACK_STACK = 50;

/** A virtual phone at run time: a copy of its scenario entry that the admin API may change. */
export class Phone {
  readonly id: DeviceId;
  readonly name: string;
  online: boolean;
  settings: DisplaySettings;
  clockOffsetMs: number;
  frozen = false;
  /** The app launched and in front; '' on the home screen. Set by starting or closing apps. */
  app = '';
  /** Where the finger is down: set by a touch `down` or `move`, cleared by `up`, a tap and every whole gesture. */
  finger: { x: number; y: number } | undefined;
  /** What the phone's clipboard holds: set through the admin API or the handle. */
  clipboard = '';
  /** The group the vendor's device list filters by (`q=group`). */
  readonly group: string;
  /** The packages installed, in the order listed: the scenario's, then apps started that were not among them. */
  readonly installed: string[];
  /** What the vendor's device properties say of it. */
  readonly about: Pick<PhoneSpec, 'model' | 'manufacturer' | 'android' | 'sdk'>;
  /** The editable element a tap put the focus on, where typed text goes; cleared when the screen changes. */
  focus: Element | undefined;

  /**
   * The package in front, as the vendor's properties (`foregroundapp`) and `apps?q=foreground_app` name it: the
   * app launched, or on the home screen the launcher (a phone always has an app in front).
   */
  get foreground(): string {
    return this.app || LAUNCHER;
  }
  #frames: FrameSpec[];
  #loop: boolean;
  #cycleMs: number;
  #spec: PhoneSpec;
  /** The named screens, as they are now (an element's text set stays until the app restarts or a reset). */
  #screens: Map<string, Screen>;
  #launch: ReadonlyMap<string, string>;
  /** The named screens shown over the home screen, the one in front last; empty: the home screen. */
  #stack: string[] = [];

  /** @param clockOffsetMs the phone's clock offset, as the scenario, the lab and the options decide it */
  constructor(spec: PhoneSpec, clockOffsetMs: number) {
    this.id = spec.id;
    this.name = spec.name;
    this.online = spec.online;
    this.about = { model: spec.model, manufacturer: spec.manufacturer, android: spec.android, sdk: spec.sdk };
    this.group = spec.group;
    this.installed = [...spec.apps];
    this.clockOffsetMs = clockOffsetMs;
    this.settings = { ...spec.settings, display_resolution: { ...spec.settings.display_resolution } };
    this.#frames = spec.frames.map((f) => ({ screen: f.screen.clone(), durationMs: f.durationMs }));
    this.#loop = spec.loop;
    this.#cycleMs = this.#frames.reduce((sum, f) => sum + f.durationMs, 0);
    this.#spec = spec;
    this.#screens = new Map([...spec.screens].map(([name, screen]) => [name, screen.clone()]));
    this.#launch = spec.launch;
  }

  /** The names of the phone's app screens (the scenario's `screens`). */
  get screenNames(): string[] {
    return [...this.#screens.keys()];
  }

  /** The name of the named screen shown, or undefined for the home screen. */
  get shown(): string | undefined {
    return this.#stack[this.#stack.length - 1];
  }

  /**
   * Shows an app's screen when it starts: the one the scenario's `launch` names, as it was left (`fresh`: as
   * the scenario has it, with every screen reachable from it, for a restart). An app the scenario gives no
   * screen shows the home screen's pixels (the simulator has none of its own for it).
   */
  launch(app: string, fresh: boolean): void {
    const name = this.#launch.get(app);
    if (name === undefined) return this.#show([]);
    if (fresh) for (const reachable of this.#reachableFrom(name)) this.#screens.set(reachable, this.#spec.screens.get(reachable)!.clone());
    this.#show([name]);
  }

  /** Shows a named screen over the one shown (a tap on an element that opens it). */
  open(name: string): void {
    if (!this.#screens.has(name)) return;
    this.#show([...this.#stack, name].slice(-MAX_BACK_STACK));
  }

  /** Goes back one screen; from an app's first screen, to the home screen (the app leaves the front). */
  back(): void {
    if (this.#stack.length === 0) return;
    this.#show(this.#stack.slice(0, -1));
    if (this.#stack.length === 0) this.app = '';
  }

  /** Shows the home screen: the app in front leaves it. */
  home(): void {
    this.#show([]);
    this.app = '';
  }

  /** The screen shown `elapsedMs` after the start: the named screen in front, or the home screen's frame. */
  screenAt(elapsedMs: number): Screen {
    if (this.#stack.length !== 0) return this.#screens.get(this.#stack[this.#stack.length - 1]!)!;
    const frames = this.#frames;
    if (frames.length === 1) return frames[0]!.screen;
    let t = elapsedMs < 0 ? 0 : elapsedMs;
    if (t >= this.#cycleMs) {
      if (!this.#loop) return frames[frames.length - 1]!.screen;
      t %= this.#cycleMs;
    }
    for (const frame of frames) {
      if (t < frame.durationMs) return frame.screen;
      t -= frame.durationMs;
    }
    return frames[frames.length - 1]!.screen;
  }

  /**
   * Shows one screen from now on, in place of the home screen and any app screen (the frames stop). One of
   * another size leaves the phone without its named screens: they no longer fit it (until a reset).
   */
  setScreen(screen: Screen): void {
    const { width, height } = this.size;
    if (screen.width !== width || screen.height !== height) {
      this.#screens.clear();
      this.#launch = new Map();
    }
    this.#frames = [{ screen, durationMs: 0 }];
    this.#cycleMs = 0;
    this.#show([]);
  }

  /** Paints a rectangle on the named screen shown, or on every frame of the home screen (whatever frame is up). */
  fillRect(rect: Rect): void {
    for (const screen of this.#screensShown()) screen.fillRect(rect);
  }

  /** Moves the rectangles that scroll, on the named screen shown or every frame, by a swipe's (dx, dy). */
  scroll(dx: number, dy: number): void {
    for (const screen of this.#screensShown()) screen.scroll(dx, dy);
  }

  #screensShown(): Screen[] {
    const name = this.shown;
    return name === undefined ? this.#frames.map((f) => f.screen) : [this.#screens.get(name)!];
  }

  #show(stack: string[]): void {
    this.#stack = stack;
    this.focus = undefined;
  }

  /** A screen's name, and the names of every screen its elements open, and theirs… */
  #reachableFrom(name: string): Set<string> {
    const seen = new Set<string>();
    const next = [name];
    while (next.length) {
      const at = next.pop()!;
      if (seen.has(at) || !this.#spec.screens.has(at)) continue;
      seen.add(at);
      for (const e of this.#spec.screens.get(at)!.elements) if (e.opens !== undefined) next.push(e.opens);
    }
    return seen;
  }

  /** The phone's screen size (of its first frame; all frames have it). */
  get size(): { width: number; height: number } {
    const { width, height } = this.#frames[0]!.screen;
    return { width, height };
  }

  /** A description for listings. */
  info(mainId: string): PhoneInfo {
    const { width, height } = this.size;
    return { id: this.id, name: this.name, width, height, orientation: width > height ? 'landscape' : 'portrait', main: this.id === mainId, online: this.online, clockOffsetMs: this.clockOffsetMs, frozen: this.frozen, finger: this.finger ? { ...this.finger } : null, screen: this.shown ?? null };
  }
}
