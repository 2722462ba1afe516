// The recorder of a phone's film: its screen captured in the background while a test runs, at a few frames a
// second and after each act, handed to a sink (the Playwright layer writes them to files; src/video encodes them).
import { Deadline, type CaptureImage, type DeviceClient } from '../client/index.js';
import { isPhonewrightError, ProtocolError, ServiceError, TimeoutError } from '../core/errors.js';
import type { Rect, ScreenSize } from '../core/screen.js';

/** Where the recorder hands each frame: the capture's bytes as the server sent them, their type, and when it was taken. */
export interface FrameSink {
  /**
   * @param at ms from the recorder's start, the moment the capture was asked for
   * @param type the image's type: one film's frames are all of one type
   */
  frame(bytes: Buffer, at: number, type: 'png' | 'jpg'): Promise<void>;
}

/** How a film is taken. */
export interface RecorderOptions {
  /** Frames per second, 1 to {@link MAX_FILM_FPS}. @default 2 */
  fps?: number;
  /** The clock, ms (tests hand their own). @default performance.now */
  now?: () => number;
  /**
   * The image type asked for first: a server that refuses `'jpg'` is asked for PNG (and its later films too).
   * @default 'jpg'
   */
  type?: 'png' | 'jpg';
}

/** The phone as the recorder needs it. */
export type FilmedPhone = { client: Pick<DeviceClient, 'deviceInfo'> & { extensions: Pick<DeviceClient['extensions'], 'captureImage'> }; id: Parameters<DeviceClient['capture']>[0]; screen: ScreenSize | undefined; toString(): string };

/** The most frames a second a film takes: each is a capture of the phone's whole screen, a request and a download. */
export const MAX_FILM_FPS = 10;
/** Frames a second unless told: enough to see a dialog come and go, at a capture every half second. */
export const DEFAULT_FILM_FPS = 2;
/**
 * How long one capture may take before the film gives it up: a capture is tens of ms on a lab, and one still
 * running at the next tick makes the recorder skip that tick, never queue behind it.
 */
const CAPTURE_MS = 5_000;
/**
 * Captures in a row that may run out of their time before the film ends: a starved host or a busy phone makes one
 * slow, and the film goes on without that frame; a phone that stopped answering makes them all slow.
 */
const SLOW_IN_A_ROW = 3;
/**
 * The clients of servers seen refusing a JPEG capture (or answering it with another image) while a PNG one of the
 * same phone was answered: their films are taken in PNG without asking for JPEG first again.
 */
const PNG_ONLY = new WeakSet<object>();

/**
 * Records a phone's screen as frames: a capture every 1/fps s and one right after each act ({@link now}), never two
 * of one phone in flight (a tick that finds one running is skipped). Its captures are not steps of the test and not
 * the lab's failures: a capture that fails ends the film ({@link ended} says why) and nothing else; one that runs out
 * of its time is a frame skipped, and {@link SLOW_IN_A_ROW} of them in a row end the film too. A frame the same
 * as the one before it is not handed on: the one before is shown longer.
 */
export class FilmRecorder {
  readonly #phone: FilmedPhone;
  readonly #sink: FrameSink;
  readonly #period: number;
  readonly #now: () => number;
  #started = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #inFlight: Promise<void> | undefined;
  readonly #stop = new AbortController();
  #last: Buffer | undefined;
  #frames = 0;
  #skipped = 0;
  #ended: string | undefined;
  #stopped = false;
  #slow = 0;
  /** The film's frames' type, set by its first frame: JPEG where the server gives it, PNG otherwise. */
  #type: 'png' | 'jpg' | undefined;
  readonly #asked: 'png' | 'jpg';

  constructor(phone: FilmedPhone, sink: FrameSink, options: RecorderOptions = {}) {
    const fps = options.fps ?? DEFAULT_FILM_FPS;
    if (!(fps > 0 && fps <= MAX_FILM_FPS)) throw new RangeError(`invalid fps ${fps}: expected more than 0 and at most ${MAX_FILM_FPS}`);
    this.#phone = phone;
    this.#sink = sink;
    this.#period = 1000 / fps;
    this.#now = options.now ?? (() => performance.now());
    this.#asked = options.type ?? 'jpg';
  }

  /** Frames handed to the sink so far. */
  get frames(): number {
    return this.#frames;
  }

  /** Ticks skipped because the capture before was still running. */
  get skipped(): number {
    return this.#skipped;
  }

  /** Why the film stopped before the test's end (a capture failed, no capture on the server); undefined while it runs. */
  get ended(): string | undefined {
    return this.#ended;
  }

  /** The clock's reading when the recording began: the film's time 0. */
  get startedAt(): number {
    return this.#started;
  }

  /** Begins: a frame now, then one every tick. */
  start(): void {
    this.#started = this.#now();
    this.now();
    this.#timer = setInterval(() => this.now(), this.#period);
    // A film never keeps a worker alive.
    this.#timer.unref?.();
  }

  /** Takes a frame now, unless one is being taken (then this one is skipped) or the film has ended. Never waits. */
  now(): void {
    if (this.#stopped || this.#ended !== undefined) return;
    if (this.#inFlight) {
      this.#skipped++;
      return;
    }
    this.#inFlight = this.#take().finally(() => (this.#inFlight = undefined));
  }

  /**
   * Stops: no frame after this call is taken; the one being taken is given up at once (its deadline ended).
   * Resolves once the sink has every frame it will get.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#stop.abort(new Error('the film stopped'));
    await this.#inFlight;
  }

  async #take(): Promise<void> {
    const deadline = Deadline.in(CAPTURE_MS, this.#stop.signal);
    const at = this.#now() - this.#started;
    try {
      const { width, height } = this.#phone.screen ?? (await this.#phone.client.deviceInfo(this.#phone.id, { deadline, phoneReconnectMs: 0 }));
      const image = await this.#capture({ x: 0, y: 0, width, height }, deadline);
      if (this.#stopped && this.#frames > 0) return;
      this.#slow = 0;
      // A server that changed its mind about the type mid-film: that frame is skipped (a film is one type).
      if (this.#type !== undefined && image.type !== this.#type) return;
      if (this.#last?.equals(image.bytes)) return;
      this.#type = image.type;
      this.#last = image.bytes;
      this.#frames++;
      await this.#sink.frame(image.bytes, at, image.type);
    } catch (error) {
      if (this.#stopped) return;
      if (!isPhonewrightError(error)) throw error;
      // A capture that ran out of its time is a skipped frame, unless the phone has stopped answering altogether.
      if (error instanceof TimeoutError && ++this.#slow < SLOW_IN_A_ROW) return;
      const lacks = error instanceof ServiceError && error.reason === 'not-offered';
      this.#ended = lacks ? `the server has no screen capture for ${this.#phone}: ${error.message}` : `a capture of ${this.#phone} failed after ${Math.round(at / 100) / 10} s of film: ${error.message}`;
      clearInterval(this.#timer);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * One capture of the whole screen, in the film's type, or for its first frame in the type asked: a JPEG (a third
   * of a PNG's decoding for the encoder, and a fraction of its bytes on a real phone's screen) the server refuses,
   * or answers with an image that is neither, is asked again as PNG within the same deadline, and the server's
   * films are PNG from then on, once that PNG came.
   */
  async #capture(rect: Rect, deadline: Deadline): Promise<CaptureImage> {
    const { client, id } = this.#phone;
    const call = { deadline, phoneReconnectMs: 0 };
    const type = this.#type ?? (PNG_ONLY.has(client) ? 'png' : this.#asked);
    if (type === 'png') return client.extensions.captureImage(id, rect, 'png', call);
    try {
      return await client.extensions.captureImage(id, rect, 'jpg', call);
    } catch (error) {
      if (this.#type !== undefined || !refusesType(error)) throw error;
      const png = await client.extensions.captureImage(id, rect, 'png', call);
      PNG_ONLY.add(client);
      return png;
    }
  }
}

/** Whether a capture's failure may be the server's refusal of the type asked: its failure answer, or an image of another kind. */
function refusesType(error: unknown): boolean {
  return (error instanceof ServiceError && (error.reason === 'failed' || error.reason === 'bare-false')) || (error instanceof ProtocolError && error.reason === 'off-interface');
}
