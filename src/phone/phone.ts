import type { CallOptions, DeviceClient, DeviceInfo, KeyName, Pixel, RetryEvent } from '../client/index.js';
import { classify } from '../client/index.js';
import type { DeviceId } from '../core/device-id.js';
import { UsageError } from '../core/errors.js';
import { resolvePoint, resolveRect, type Coordinate, type RectInput } from '../core/fraction.js';
import { matchesNotification, type Notification, type NotificationFilter } from '../core/notifications.js';
import type { Rect, ScreenSize } from '../core/screen.js';
import type { DisplaySettings } from '../core/settings.js';
import type { Image } from '../image/png.js';
import type { PartialRegion } from '../image/region.js';
import * as acts from './acts.js';
import { NO_HOOKS, pointAt, type PhoneHooks, type StepOptions } from './hooks.js';
import { locate, tapImage, wholeScreen, type ImageMatch, type ImageOptions, type ImageTarget } from './image.js';
import { LabVerdict } from './lab-verdict.js';
import { Locator } from './locator.js';
import { readText } from './locator-look.js';
import { NotificationFeed } from './notification-feed.js';
import { readAll } from './notification-list.js';
import { NotificationWaiter, PhoneWaiters, type WaitOptions } from './notification-waiter.js';
import { expectNoNotification, type NoNotificationOptions } from './notification-window.js';
import { settingsOf, type NotificationQuery, type PhoneOptions, type PhoneSettings, type ReadOptions } from './phone-options.js';

export type { NotificationQuery, PhoneOptions, ReadOptions } from './phone-options.js';

/**
 * One phone of one server: everything a spec, the CLI or the inspector does with it. Every read goes through
 * {@link read} and every act through {@link act}, which give it its deadline, its report step (the hooks) and the
 * lab's bookkeeping (which failures the lab caused, a phone that dropped off while a read waited for it). The
 * checks (`check-*.ts`) read through it and return their verdict; the notification waiters read through its feed.
 */
export class Phone {
  readonly client: DeviceClient;
  readonly id: DeviceId;
  /** The phone's name: the Playwright project's name in a device matrix. */
  readonly name: string;
  readonly screen: ScreenSize | undefined;
  /** What this phone's reads met that the lab caused, for the infra-failure verdict. */
  readonly lab = new LabVerdict();
  readonly hooks: PhoneHooks;
  /** Its options with their defaults: the waiters' timeout, the files of images a spec names, the screen's languages. */
  readonly options: PhoneSettings;
  #waitMs: number | undefined;
  #waiters: PhoneWaiters | undefined;

  constructor(client: DeviceClient, id: DeviceId, options: PhoneOptions = {}) {
    this.client = client;
    this.id = id;
    this.name = options.name ?? id;
    this.screen = options.screen;
    this.hooks = options.hooks ?? NO_HOOKS;
    this.options = settingsOf(options);
  }

  /** The phone named for messages: `galaxy-s9 (device@1116106541)`. */
  toString(): string {
    return this.name === this.id ? this.id : `${this.name} (${this.id})`;
  }

  /** ms: the waiters' default timeout (a device matrix's expect timeout). */
  get waitTimeout(): number {
    return (this.#waitMs ??= this.options.waitTimeout());
  }

  /**
   * Runs one read of this phone: as its report step, within its deadline, its failures noted for the lab's
   * verdict and the moments the phone was away while the client waited for it. A failure points at the spec.
   * @param title what is read, e.g. `pixel device@1 (10, 20)`
   */
  read<T>(title: string, options: ReadOptions, body: (o: CallOptions) => Promise<T>): Promise<T> {
    let away: unknown;
    const onRetry = (e: RetryEvent) => {
      if (away === undefined && classify(e.error) === 'phone-gone') this.lab.away((away = e.error));
    };
    const call = { deadline: options.deadline, signal: options.signal, onRetry };
    // Back, or failed for good (then the error itself is remembered): the moment away is forgotten.
    return this.#run(title, options, {}, () => body(call).finally(() => away !== undefined && this.lab.back(away)));
  }

  /**
   * Runs one act: a step named for what it did ("tap (540, 210) on galaxy-s9") with its parameters, its input
   * checked first (a point on the known screen), then sent after this phone's waiters are armed, so a message it
   * causes counts as new. Never sent twice once the server may have done it (the client's policy).
   */
  act(what: string, params: Record<string, string | number>, options: ReadOptions, body: (o: CallOptions) => Promise<unknown>, check?: () => void): Promise<void> {
    const title = `${what} on ${this.name}`;
    return this.#run(title, options, { params: { ...params, phone: String(this) } }, async (step) => {
      check?.();
      await this.#waiters?.ready(title);
      await body({ deadline: options.deadline, signal: options.signal });
      await this.hooks.screenAfterAct(step);
    });
  }

  /** Reads one pixel's colour; x and y in pixels, or percentages of the screen (`'50%'`). */
  pixel(x: Coordinate, y: Coordinate, options: ReadOptions = {}): Promise<Pixel> {
    return this.read(`pixel ${this.id} (${x}, ${y})`, options, (o) => {
      const p = resolvePoint(this, x, y);
      return this.client.pixel(this.id, p.x, p.y, o);
    });
  }

  /** The phone's properties (a vendor route beyond the interface): model, maker, screen size, Android release. */
  info(options: ReadOptions = {}): Promise<DeviceInfo> {
    return this.read(`device info ${this.id}`, options, (o) => this.client.deviceInfo(this.id, o));
  }

  /** The phone's display settings. */
  settings(options: ReadOptions = {}): Promise<DisplaySettings> {
    return this.read(`settings ${this.id}`, options, (o) => this.client.settings(this.id, o));
  }

  /** This phone's messages as the server lists them (its whole list, page by page), filtered on the client. */
  notifications(query: NotificationQuery = {}, options: ReadOptions = {}): Promise<Notification[]> {
    const { position = 1, count = 100, ...filter } = query;
    return this.read(`notifications ${this.id} position=${position} count=${count}`, options, async (o) => {
      if (!Number.isInteger(position) || position < 1) throw new UsageError(`invalid position ${String(position)}: expected an integer ≥ 1`);
      if (!Number.isInteger(count) || count < 1) throw new UsageError(`invalid count ${String(count)}: expected an integer ≥ 1`);
      const mine = (await readAll(this.client, o)).filter((n) => n.id === this.id && matchesNotification(n, filter));
      return mine.slice(position - 1, position - 1 + count);
    });
  }

  /**
   * Captures a rectangle of the screen (default: the whole screen) as PNG bytes of exactly its size, in one
   * request: the vendor's screen capture, beyond the interface. A server without it fails the call with one line
   * that says so; {@link sampleRegion} reads the same pixels one by one on any server.
   */
  screenshot(options: ReadOptions & { rect?: RectInput } = {}): Promise<Buffer> {
    const rect = options.rect;
    return this.read(`screenshot ${this.id}${rect ? ` ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})` : ''}`, options, async (o) => {
      const [{ captureScreenshot }, area] = await Promise.all([import('./screen.js'), rect ? resolveRect(this, rect) : wholeScreen(this)]);
      return captureScreenshot(this.client, this.id, area, o);
    });
  }

  /** Reads a rectangle of the screen pixel by pixel, over the client's keep-alive pool, as PNG bytes: any server. */
  async sampleRegion(rect: RectInput, options: ReadOptions = {}): Promise<Buffer> {
    const [image, { encodePng }] = await Promise.all([this.sample(resolveRect(this, rect), options), import('../image/png.js')]);
    return encodePng(image);
  }

  /**
   * Reads a rectangle as the image its grid (step, mask) describes: from one screen capture where the server has
   * it, pixel by pixel where it does not (the same image either way). With `resume`, a read that fails keeps what
   * it read, and the next one reads only the rest.
   */
  region(rect: Rect, options: ReadOptions & { resume?: PartialRegion } = {}): Promise<Image> {
    const title = `read region ${this.id} ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`;
    return this.read(title, options, async (o) => (await import('./screen.js')).readRegion(this.client, this.id, rect, { ...o, resume: options.resume }));
  }

  /** A rectangle sampled pixel by pixel, on any server (see {@link region}). */
  sample(rect: Rect, options: ReadOptions & { resume?: PartialRegion } = {}): Promise<Image> {
    const title = `sample region ${this.id} ${rect.width}×${rect.height} at (${rect.x}, ${rect.y})`;
    return this.read(title, options, async (o) => (await import('./screen.js')).sampleRegion(this.client, this.id, rect, { ...o, resume: options.resume }));
  }

  /**
   * Taps (x, y), or the centre of an image on the screen (`{ image: 'images/send.png' }`, waited for as {@link locate}
   * does), through the vendor's routes beyond the interface: a server without them fails the act with one line.
   * Like every act, it first waits for this phone's waiters to be armed, and is never sent twice.
   */
  tap(x: Coordinate, y: Coordinate, options?: ReadOptions): Promise<void>;
  tap(target: ImageTarget, options?: ReadOptions): Promise<void>;
  tap(a: Coordinate | ImageTarget, b?: Coordinate | ReadOptions, c: ReadOptions = {}): Promise<void> {
    return typeof a === 'object' ? tapImage(this, a, b as ReadOptions) : acts.tap(this, a, b as Coordinate, c);
  }

  /** Where an image (a PNG cut from a phone's screen, relative to the spec's folder) is on the screen, waited for. */
  locate(image: string, options: ImageOptions = {}): Promise<ImageMatch> {
    return locate(this, image, options);
  }

  /** Text on the screen, as Playwright's `getByText`: a substring, case and spaces aside, unless `exact`; or a RegExp. */
  getByText(text: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return new Locator(this, { by: 'text', text, exact: options.exact ?? false });
  }

  /** An element by its content description (an icon's label), as {@link getByText}; needs the vendor's UI elements. */
  getByDescription(text: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return new Locator(this, { by: 'description', text, exact: options.exact ?? false });
  }

  /** An element by its resource id, `com.example.app:id/login` (`.login`: the app in front's); needs the UI elements. */
  getById(id: string): Locator {
    return new Locator(this, { by: 'id', id });
  }

  /** Elements by a query of the vendor's engine, `T:OK&&C:.Button`, for what the others cannot say. */
  getByQuery(query: string): Locator {
    return new Locator(this, { by: 'query', query });
  }

  /** An image cut from a phone's screen (relative to the spec's folder), as a locator; see {@link locate}. */
  getByImage(image: string, options: Omit<ImageOptions, 'timeout'> = {}): Locator {
    return new Locator(this, { by: 'image', image, options });
  }

  /** The text on the screen (or in `rect`), read from one capture, line by line. */
  readText(options: ReadOptions & { rect?: RectInput } = {}): Promise<string> {
    return readText(this, options.rect === undefined ? undefined : resolveRect(this, options.rect), options);
  }

  /** Swipes from one point to another (pixels or percentages) in `durationMs` (default 300), an act as {@link tap}. */
  swipe(from: acts.PointInput, to: acts.PointInput, options: acts.GestureOptions = {}): Promise<void> {
    return acts.swipe(this, from, to, options);
  }

  /** Holds a finger on one point for `durationMs` (default 1000), an act as {@link tap}. */
  longPress(at: acts.PointInput, options: acts.GestureOptions = {}): Promise<void> {
    return acts.longPress(this, at, options);
  }

  /** Types text into the phone's focused field (the step names its length, not the text), an act as {@link tap}. */
  type(text: string, options: ReadOptions = {}): Promise<void> {
    return acts.type(this, text, options);
  }

  /**
   * Presses a key: `home`, `back`, `menu`, `space`, `backspace`, `enter`, `up`, `down`, `left`, `right`, `power`,
   * `recentapp`, or a constant of the vendor's scripting library such as `KEY_VOLUME_UP` (through the JS bridge
   * only). An act, as {@link tap}.
   */
  press(key: KeyName | (string & {}), options: ReadOptions = {}): Promise<void> {
    return acts.press(this, key, options);
  }

  /** Starts an app by its package name, bringing it to the front (an act, as {@link tap}). */
  launch(pkg: string, options: ReadOptions = {}): Promise<void> {
    return acts.setApp(this, pkg, 'active', options);
  }

  /** Closes an app by its package name (an act, as {@link tap}). */
  closeApp(pkg: string, options: ReadOptions = {}): Promise<void> {
    return acts.setApp(this, pkg, 'inactive', options);
  }

  /**
   * Waits for a message of this phone matching `filter` that arrives after this call. Armed when called:
   * create it before the act, await it after. Its `armed` promise resolves once its first read after the call
   * was answered: a spec that acts by other means than phonewright awaits it before the act.
   */
  waitForNotification(filter: NotificationFilter = {}, options: WaitOptions = {}): NotificationWaiter {
    return this.waiters.wait(filter, options);
  }

  /** Fails if a message of this phone matching `filter` arrives within `within` ms (default 3 s). */
  expectNoNotification(filter: NotificationFilter = {}, options: NoNotificationOptions = {}): Promise<void> {
    return expectNoNotification(this, this.waiters.feed, filter, options);
  }

  /**
   * Resolves once every notification waiter of this phone made so far is armed (or over). An act made
   * through phonewright waits for it, so a message it causes can never be taken for an old one.
   */
  armed(): Promise<void> {
    return this.#waiters?.armed() ?? Promise.resolve();
  }

  /**
   * The lab's failures of the test that just ended (none when a check saw a definite wrong answer), for the
   * `infra-failure` annotation; the test's waiters are forgotten.
   */
  takeInfraErrors(): unknown[] {
    this.#waiters?.forget();
    return this.lab.take();
  }

  /** This phone's waiters and their feed, made with the first of them: its reads go through {@link read}. @internal */
  get waiters(): PhoneWaiters {
    const feed = () => new NotificationFeed(this.client, { read: (title, o, body) => this.read(title, o, body), title: `new notifications (${this.id}'s server)` });
    return (this.#waiters ??= new PhoneWaiters(this, feed()));
  }

  /** A read or an act: a step at the spec's line, its failure noted for the lab and pointed at that line. */
  #run<T>(title: string, options: ReadOptions, step: StepOptions, body: (step: unknown) => Promise<T>): Promise<T> {
    const site = options.site ?? this.hooks.callSite();
    return this.hooks.step(
      title,
      async (info) => {
        try {
          return await body(info);
        } catch (error) {
          this.lab.note(error);
          throw pointAt(error, site);
        }
      },
      { ...step, location: site },
    );
  }
}
