import type { DeviceId } from '../core/device-id.js';
import type { DisplaySettings } from '../core/settings.js';
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
}

/** A virtual phone at run time: a copy of its scenario entry that the admin API may change. */
export class Phone {
  readonly id: DeviceId;
  readonly name: string;
  online: boolean;
  settings: DisplaySettings;
  clockOffsetMs: number;
  frozen = false;
  /** The app in front, as the vendor's properties name it (`foregroundapp`); set by starting or closing apps. */
  foreground = '';
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
  #frames: FrameSpec[];
  #loop: boolean;
  #cycleMs: number;

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
  }

  /** The screen shown `elapsedMs` after the start. */
  screenAt(elapsedMs: number): Screen {
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

  /** Shows one screen from now on (the frames stop). */
  setScreen(screen: Screen): void {
    this.#frames = [{ screen, durationMs: 0 }];
    this.#cycleMs = 0;
  }

  /** Paints a rectangle on every frame, so the change shows whatever frame is up. */
  fillRect(rect: Rect): void {
    for (const frame of this.#frames) frame.screen.fillRect(rect);
  }

  /** Moves the rectangles that scroll, on every frame, by a swipe's (dx, dy). */
  scroll(dx: number, dy: number): void {
    for (const frame of this.#frames) frame.screen.scroll(dx, dy);
  }

  /** The phone's screen size (of its first frame; all frames have it). */
  get size(): { width: number; height: number } {
    const { width, height } = this.#frames[0]!.screen;
    return { width, height };
  }

  /** A description for listings. */
  info(mainId: string): PhoneInfo {
    const { width, height } = this.size;
    return { id: this.id, name: this.name, width, height, orientation: width > height ? 'landscape' : 'portrait', main: this.id === mainId, online: this.online, clockOffsetMs: this.clockOffsetMs, frozen: this.frozen, finger: this.finger ? { ...this.finger } : null };
  }
}
