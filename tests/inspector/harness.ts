/**
 * The inspector's tests: `phonewright inspect` run in-process (tests/cli/helpers.ts), its page driven in
 * Debian's Chromium (one browser per worker, a fresh context per test), against simulators and fake servers
 * started by the test, with the inline Playwright projects of tests/helpers/inline.ts for real runs.
 */
import { existsSync } from 'node:fs';
import { chromium, mergeTests, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { launch, test as cliTest, type CliResult, type LiveCli, type RunOptions } from '../cli/helpers.js';
import { test as inlineTest } from '../helpers/inline.js';
import { startsHeavy } from '../helpers/test.js';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** A local page's command (`inspect`, `review`), running: the URL it printed and its parts. */
export interface Served {
  /** The printed URL, token included. */
  url: string;
  port: number;
  token: string;
  cli: LiveCli;
}

/** A running local page (the inspector, the review), its page open. */
export interface Opened extends Served {
  page: Page;
  /** Stops the command as Ctrl-C does, and waits for it. */
  stop(): Promise<CliResult>;
  /** Script errors in the page, and requests it made anywhere but its server: none expected. */
  problems(): string[];
}

/**
 * Starts `phonewright <command>` with `args` and returns its URL: the first line on stdout, `<label>: URL`.
 * @param label how the line names the page: `Inspector`, `Review`
 */
export async function startLocalPage(command: string, label: string, args: string[], options: RunOptions = {}): Promise<Served> {
  const cli = launch([command, ...args], options);
  const stdout = await cli.waitFor('stdout', /\n/);
  const m = new RegExp(`^${label}: (http://127\\.0\\.0\\.1:(\\d+)/\\?token=([\\w-]+))\n`).exec(stdout);
  if (!m) throw new Error(`the first line on stdout is not the URL of phonewright ${command}:\n${stdout}\n${cli.stderr()}`);
  return { url: m[1]!, port: Number(m[2]), token: m[3]!, cli };
}

/** Starts `phonewright inspect` with `args` and returns its URL (the first line on stdout). */
export function startInspect(args: string[], options: RunOptions = {}): Promise<Served> {
  return startLocalPage('inspect', 'Inspector', args, options);
}

/**
 * The files of a project whose specs the inspector drafts into: its Playwright config, a `fixtures/index.ts` for
 * the team's own specs to import (the drafted ones import phonewright/fixtures, which resolves there), and one
 * server `lab` whose password is in LAB_PASSWORD.
 * @param playwrightConfig the config's text (tests/helpers/inline.ts `config()`)
 */
export function labProject(playwrightConfig: string, url: string, devices: { id: string; name: string }[]): Record<string, string> {
  return {
    'playwright.config.ts': playwrightConfig,
    'fixtures/index.ts': "export * from 'phonewright/fixtures';\n",
    'phonewright.config.json': JSON.stringify({ servers: [{ name: 'lab', url, passwordEnv: 'LAB_PASSWORD', devices }] }),
  };
}

/**
 * The worker's Chromium, launched by the first test that asks, and killed with the worker's process (as every
 * browser Playwright launches is). Not a worker fixture: one gives the files that use it workers of their own,
 * each started anew at the end of the suite, 1–2 s apiece, with the other workers idle.
 */
let launched: Promise<Browser> | undefined;

export const test = mergeTests(cliTest, inlineTest).extend<{
  /** Starts the inspector with `args` and opens its page in a new browser context (1280×860, scale 1). */
  inspect: (args: string[], options?: RunOptions) => Promise<Opened>;
  /**
   * The worker's Chromium. A test asks in its own set-up, so under `npm run test:unit` each test skips itself
   * there (a skip thrown while a worker fixture was set up skipped the first test and left the worker's later
   * tests to pass without running).
   */
  chromiumBrowser: () => Promise<Browser>;
}>({
  chromiumBrowser: async ({}, use) => {
    await use(() => {
      startsHeavy('a browser');
      return (launched ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS }));
    });
  },
  inspect: async ({ chromiumBrowser }, use) => {
    const browser = await chromiumBrowser();
    const contexts: { close(): Promise<void> }[] = [];
    await use(async (args, options) => {
      const started = await startInspect(args, options);
      const { context, page, problems } = await openLocalPage(browser, started, { width: 1280, height: 860 });
      contexts.push(context);
      const stop = async () => {
        started.cli.interrupt();
        return started.cli.exited;
      };
      return { ...started, page, stop, problems };
    });
    for (const c of contexts) await c.close();
  },
});

/**
 * Opens a local page (the inspector's, the review's) in a new browser context at scale 1: every request to
 * anywhere but its server is cut, and `problems()` lists those and the page's script errors (none expected).
 */
export async function openLocalPage(browser: Browser, served: { url: string; port: number }, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; problems: () => string[] }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const foreign: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`http://127.0.0.1:${served.port}/`)) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(served.url);
  return { context, page, problems: () => [...errors, ...foreign.map((u) => `a request off the machine: ${u}`)] };
}

/** What the tests read of a canvas in the page (the test files have no DOM types). */
export interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } };
}

/** Every pixel of the screen canvas, RGBA row by row: what the page drew. */
export async function canvasPixels(page: Page): Promise<number[]> {
  // Sent as one base64 string: an array crosses Playwright's protocol as one checked object per number (a
  // 320×240 canvas is 307,200 of them, seconds of CPU over a test's polls).
  const base64 = await page.locator('#screen').evaluate((node) => {
    const c = node as unknown as Canvas;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let bytes = '';
    for (let i = 0; i < data.length; i++) bytes += String.fromCharCode(data[i]!);
    return btoa(bytes);
  });
  return Array.from(Buffer.from(base64, 'base64'));
}

/** The screen canvas's size in phone pixels, and its box on the page. */
export async function screenBox(page: Page): Promise<{ x: number; y: number; width: number; height: number; phoneWidth: number; phoneHeight: number }> {
  const canvas = page.locator('#screen');
  const box = (await canvas.boundingBox())!;
  const [phoneWidth, phoneHeight] = await canvas.evaluate((c) => [(c as unknown as Canvas).width, (c as unknown as Canvas).height]);
  return { ...box, phoneWidth: phoneWidth!, phoneHeight: phoneHeight! };
}

/**
 * Where on the page phone pixel (x, y) is drawn: `at` is the place within the pixel's square, from 0 (its
 * top-left corner) to 1 (its bottom-right); 0.5 its centre.
 */
export async function pagePoint(page: Page, x: number, y: number, at = 0.5): Promise<{ x: number; y: number }> {
  const b = await screenBox(page);
  return { x: b.x + ((x + at) * b.width) / b.phoneWidth, y: b.y + ((y + at) * b.height) / b.phoneHeight };
}

/** Clicks phone pixel (x, y) on the page's screen. */
export async function clickPixel(page: Page, x: number, y: number, at = 0.5): Promise<void> {
  const p = await pagePoint(page, x, y, at);
  const view = (await page.locator('#viewport').boundingBox())!;
  if (p.x < view.x || p.y < view.y || p.x >= view.x + view.width || p.y >= view.y + view.height) throw new Error(`phone pixel (${x}, ${y}) is scrolled out of view`);
  await page.mouse.click(p.x, p.y);
}

/** Drags from phone pixel `from` to `to` (both included), with shift held when `shift`. */
export async function dragPixels(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, shift = false): Promise<void> {
  const a = await pagePoint(page, from.x, from.y);
  const b = await pagePoint(page, to.x, to.y);
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

/** The colour the page shows at a page position, read from a screenshot: what the user sees there. */
export async function shownColour(page: Page, at: { x: number; y: number }): Promise<string> {
  const png = PNG.sync.read(await page.screenshot({ clip: { x: Math.floor(at.x), y: Math.floor(at.y), width: 1, height: 1 } }));
  return `0x${[png.data[0]!, png.data[1]!, png.data[2]!].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** A PNG of `width`×`height` where every pixel tells where it is: r = x, g = y, b = 0x80 (x, y < 256). */
export function placesPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) png.data.set([x & 0xff, y & 0xff, 0x80, 255], (y * width + x) * 4);
  }
  return PNG.sync.write(png);
}

/** The colour of (x, y) in {@link placesPng}. */
export const placeColour = (x: number, y: number) => `0x${[x & 0xff, y & 0xff, 0x80].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** Skips the file's tests where Debian's chromium is not installed. */
export function needsChromium(): void {
  test.skip(!existsSync(CHROMIUM), `Debian's chromium is not installed at ${CHROMIUM}: apt-get install -y chromium`);
}

export { expect } from '../helpers/test.js';
