import { applyAct } from './act-effects.js';
import { recordAct, type Act } from './act-log.js';
import { emptyStats, type NotificationPost, type RectFill, type SimulatorStats, type StartSettings } from './state-types.js';
import { CaptureStore } from './capture-store.js';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import type { Notification } from '../core/notifications.js';
import type { Operation } from '../core/routes.js';
import { checkBehaviour, DEFAULT_BEHAVIOUR, type Behaviour } from './behaviour.js';
import { checkColor, checkObject, isInt, type Fail } from './check.js';
import { checkFaults, FaultInjector, type FaultSpec } from './faults.js';
import { checkLab, checkOffsetKeys, clockOffsets, isClockOffset, labLatency, OFFSET_HINT, type LabLatency, type LabOptions } from './lab.js';
import { NotificationStore, wireTime, type StampingPhones } from './notification-store.js';
import { Phone, type PhoneInfo } from './phone.js';
import { checkOpens, readScreen } from './screen-input.js';
import type { DrawnScreenInput, Scenario, SettingsInput } from './scenario-types.js';
import { Screen } from './screen.js';
import { applySettings } from './settings-input.js';
import { TokenStore } from './tokens.js';

// The types and counters are in state-types.ts; re-exported here, where callers have always found them.
export type { NotificationPost, RectFill, SimulatorStats, StartSettings } from './state-types.js';

const FAIL: Fail = (where, what) => {
  throw new UsageError(`${where} ${what}`);
};
const MAX_SIDE = 16_384;
/** A clipboard holds text a user copied, not files: a megabyte of it is a mistake. */
const MAX_CLIPBOARD = 1_000_000;

/**
 * Everything the simulator knows at run time, and the operations that change it (shared by the admin API
 * and the in-process handle). `reset()` goes back to the scenario's start.
 */
export class SimulatorState {
  readonly now: () => number;
  readonly notes = new NotificationStore();
  readonly tokens = new TokenStore();
  readonly faults = new FaultInjector();
  /** The images of the latest screen captures, for download. */
  readonly captures = new CaptureStore();
  /** Taps, touches, gestures, keys, text and app changes made through the vendor's routes, oldest first (the newest ACTS_KEPT). */
  readonly acts: Act[] = [];
  readonly phones = new Map<string, Phone>();
  behaviour: Behaviour = { ...DEFAULT_BEHAVIOUR };
  main: DeviceId;
  startMs = 0;
  stats: SimulatorStats = emptyStats();
  /** The lab's latency in force; undefined without a lab, so the hot path pays one check. */
  latency: LabLatency | undefined;
  /** How many phones are frozen; 0 spares the hot path a phone lookup. */
  frozenCount = 0;
  #lab: LabOptions | undefined;
  #scenario: Scenario;
  #start: StartSettings;
  #clocks: StampingPhones = {
    isOnline: (id) => this.phones.get(id)?.online ?? false,
    offsetOf: (id) => this.phones.get(id)?.clockOffsetMs ?? 0,
  };

  /** @param start behaviour, faults, lab and clock offsets from the options, in force after every reset */
  constructor(scenario: Scenario, start: StartSettings, now: () => number) {
    const unknown = checkOffsetKeys(start.clockOffsetMs, scenario.phones, 'clockOffsetMs') ?? checkOffsetKeys(start.lab ? start.lab.clockOffsetMs : undefined, scenario.phones, 'lab.clockOffsetMs');
    if (unknown !== undefined) throw new UsageError(unknown);
    this.#scenario = scenario;
    this.#start = start;
    this.now = now;
    this.main = scenario.main;
    this.reset();
  }

  /** The lab in force (what `lab: true` stands for, spelt out), or undefined. */
  get lab(): LabOptions | undefined {
    return this.#lab && structuredClone(this.#lab);
  }

  /** Phones, messages, behaviour, faults, tokens and counters back to the scenario's start; the clock restarts. */
  reset(): void {
    const { lab } = this.#start;
    this.#useLab(lab === undefined ? this.#scenario.lab : lab || undefined);
    const offsets = clockOffsets(this.#scenario.phones, this.#lab, this.#start.clockOffsetMs);
    this.phones.clear();
    this.#scenario.phones.forEach((spec, i) => this.phones.set(spec.id, new Phone(spec, offsets[i]!)));
    this.frozenCount = 0;
    this.main = this.#scenario.main;
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...this.#scenario.behaviour, ...this.#start.behaviour };
    this.startMs = this.now();
    this.notes.reset(this.#scenario.rules, this.startMs);
    this.tokens.clear();
    this.captures.clear();
    this.acts.length = 0;
    this.faults.set(this.#start.faults);
    this.stats = emptyStats();
  }

  /** The phone with this id, online or not; undefined when there is none. */
  find(id: string): Phone | undefined {
    return this.phones.get(id);
  }

  /** A phone's place in the scenario, from 1: the vendor's `No`, and the folder of its screen captures. */
  numberOf(phone: Phone): number {
    return [...this.phones.keys()].indexOf(phone.id) + 1;
  }

  /** The screen a phone shows now. */
  screenOf(phone: Phone): Screen {
    return phone.screenAt(this.now() - this.startMs);
  }

  /**
   * Records an act made on a phone through the vendor's routes, then does what it does there: a tap on an
   * element, a key that goes home or back, text into the focused field, an app started (see applyAct).
   */
  record(act: Act): void {
    recordAct(this.acts, act);
    const phone = this.phones.get(act.device);
    if (phone) applyAct(phone, this.screenOf(phone), act);
  }

  /** Delivers the scenario's messages that fell due by now. */
  catchUp(): void {
    this.notes.catchUp(this.now(), this.behaviour.messagesHeld, this.#clocks);
  }

  /** Every phone, the main one marked. */
  info(): PhoneInfo[] {
    return [...this.phones.values()].map((p) => p.info(this.main));
  }

  /**
   * Shows a new screen on a phone: PNG bytes, or `{width, height, fill, rects, texts, elements}`, in place of
   * the home screen and any app screen. A different size changes the phone's reported resolution and
   * orientation with it, and leaves the phone without its app screens.
   */
  setScreen(device: string, screen: Uint8Array | DrawnScreenInput): void {
    const phone = this.#phone(device);
    let next: Screen;
    if (screen instanceof Uint8Array) {
      try {
        next = Screen.fromPng(screen);
      } catch (e) {
        throw new UsageError(`the screen for ${device} is not a PNG image: ${(e as Error).message}`, { cause: e });
      }
    } else {
      next = readScreen(screen, 'screen', process.cwd(), FAIL, []);
    }
    const { width, height } = phone.size;
    checkOpens(next, new Set(next.width === width && next.height === height ? phone.screenNames : []), 'screen', FAIL);
    if (next.width !== width || next.height !== height) {
      phone.settings = { ...phone.settings, display_resolution: { w: next.width, h: next.height }, display_orientation: next.width > next.height ? 2 : 1 };
    }
    phone.setScreen(next);
  }

  /** Paints a rectangle on a phone's screen. */
  fillRect(device: string, rect: RectFill): void {
    const phone = this.#phone(device);
    const r = checkObject(rect, 'rect', ['x', 'y', 'width', 'height', 'color'], FAIL);
    for (const key of ['x', 'y']) if (!isInt(r[key], 0, MAX_SIDE)) FAIL(`rect.${key}`, `is ${JSON.stringify(r[key])}; write an integer from 0 to ${MAX_SIDE}`);
    for (const key of ['width', 'height']) if (!isInt(r[key], 1, MAX_SIDE)) FAIL(`rect.${key}`, `is ${JSON.stringify(r[key])}; write an integer from 1 to ${MAX_SIDE}`);
    phone.fillRect({ x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: checkColor(r.color, 'rect.color', FAIL) });
  }

  /** Posts a message as if the phone had received it; answers it as the wire carries it. */
  postNotification(post: NotificationPost): Notification {
    const p = checkObject(post, 'notification', ['device', 'app', 'text', 'time'], FAIL);
    const phone = this.#phone(String(p.device));
    if (typeof p.app !== 'string' || p.app === '') FAIL('notification.app', 'must be a package name, e.g. "com.example.chat"');
    if (typeof p.text !== 'string') FAIL('notification.text', 'must be the message text (a string)');
    if (p.time !== undefined && !isInt(p.time, 0, Number.MAX_SAFE_INTEGER)) FAIL('notification.time', 'must be milliseconds since the epoch');
    this.catchUp();
    const given = p.time as number | undefined;
    const now = this.now();
    const note = { app: p.app as string, text: p.text as string, time: given ?? now + phone.clockOffsetMs, id: phone.id };
    const posted = this.notes.post(note, given ?? now, this.behaviour.messagesHeld);
    return { ...posted, time: wireTime(posted.time, this.behaviour.timeUnit) };
  }

  /**
   * Sets how far a phone's clock is off, until the next reset: messages it receives from now on carry it.
   * @param ms within a day either way
   */
  setClockOffset(device: string, ms: number): void {
    const phone = this.#phone(device);
    if (!isClockOffset(ms)) FAIL('offsetMs', `is ${JSON.stringify(ms)}; ${OFFSET_HINT}`);
    // Messages due before the change were received with the old clock.
    this.catchUp();
    phone.clockOffsetMs = ms;
  }

  /** Freezes a phone (its pixel and settings requests are taken and never answered), or thaws it. */
  setFrozen(device: string, frozen: boolean): void {
    const phone = this.#phone(device);
    if (phone.frozen === frozen) return;
    phone.frozen = frozen;
    this.frozenCount += frozen ? 1 : -1;
  }

  /** True when requests to this phone's own routes are to be held unanswered. */
  isFrozen(device: string): boolean {
    return this.phones.get(device)?.frozen ?? false;
  }

  /**
   * Replaces the lab until the next reset (`true`: the preset; undefined, false or `{}`: none). Every phone's
   * clock offset is worked out again from the options, the new lab and the scenario.
   */
  setLab(lab: boolean | LabOptions | undefined): void {
    const checked = lab === undefined ? false : checkLab(lab, 'lab');
    if (typeof checked === 'string') throw new UsageError(checked);
    const unknown = checked ? checkOffsetKeys(checked.clockOffsetMs, this.#scenario.phones, 'lab.clockOffsetMs') : undefined;
    if (unknown !== undefined) throw new UsageError(unknown);
    this.catchUp();
    this.#useLab(checked || undefined);
    const offsets = clockOffsets(this.#scenario.phones, this.#lab, this.#start.clockOffsetMs);
    this.#scenario.phones.forEach((spec, i) => {
      const phone = this.phones.get(spec.id);
      if (phone) phone.clockOffsetMs = offsets[i]!;
    });
  }

  /** Changes some of a phone's display settings (wire names). */
  setSettings(device: string, settings: SettingsInput): void {
    const phone = this.#phone(device);
    phone.settings = applySettings(settings, 'settings', phone.settings, FAIL);
  }

  /** Puts text on a phone's clipboard, as the phone's user copying it would: `screen/texts?type=clipboard_text` reads it. */
  setClipboard(device: string, text: string): void {
    const phone = this.#phone(device);
    if (typeof text !== 'string') FAIL('clipboard.text', 'must be the text to put on the clipboard (a string)');
    if (text.length > MAX_CLIPBOARD) FAIL('clipboard.text', `is ${text.length} characters long; write at most ${MAX_CLIPBOARD}`);
    phone.clipboard = text;
  }

  /** Connects or disconnects a phone; an offline phone is "device not found" and misses timed messages. */
  setOnline(device: string, online: boolean): void {
    const phone = this.#phone(device);
    if (typeof online !== 'boolean') FAIL('online', 'must be true or false');
    this.catchUp();
    phone.online = online;
  }

  /** Replaces the faults in force (undefined or `{}`: none). */
  setFaults(spec: FaultSpec | undefined): void {
    const checked = spec === undefined ? undefined : checkFaults(spec);
    if (typeof checked === 'string') throw new UsageError(checked);
    this.faults.set(checked);
  }

  /** Switches some behaviours until the next reset. */
  setBehaviour(behaviour: Partial<Behaviour>): void {
    const checked = checkBehaviour(behaviour, 'behaviour');
    if (typeof checked === 'string') throw new UsageError(checked);
    this.catchUp();
    this.behaviour = { ...this.behaviour, ...checked };
  }

  /** Counts a request to an operation. */
  count(op: Operation): void {
    this.stats.total++;
    this.stats.operations[op]++;
  }

  #useLab(lab: LabOptions | undefined): void {
    this.#lab = lab;
    // A new generator and free screens: the lab's draws repeat from its seed.
    this.latency = labLatency(lab);
  }

  #phone(device: string): Phone {
    const phone = this.phones.get(device);
    if (!phone) throw new UsageError(`no phone ${JSON.stringify(device)} in this simulator`, { hint: `one of ${[...this.phones.keys()].join(', ')}` });
    return phone;
  }
}
