/**
 * The review's tests: a small project on the embedded simulator's phones (three phones, two of one model), its
 * goldens cut from the phones' screens before a change, a real Playwright run after it (tests/helpers/inline.ts),
 * then `phonewright review` run in-process (tests/cli/helpers.ts) and its page driven in Debian's Chromium (one
 * browser per worker, a fresh context per page), every request but the review's cut.
 */
import { request as httpRequest } from 'node:http';
import { startSimulator } from '../../src/simulator/index.js';
import { cropImage, decodePng, encodePng, type Image } from '../../src/image/index.js';
import type { CliResult } from '../cli/helpers.js';
import { config, MUST_PASS, spec, type Files } from '../helpers/inline.js';
import { openLocalPage, startLocalPage, test as base, type Opened, type Served } from '../inspector/harness.js';

export { CHROMIUM, needsChromium } from '../inspector/harness.js';
export { expect } from '../helpers/test.js';

/** The badge: a 40×30 region whose golden the spec keeps per phone, its top-right corner (a clock) masked. */
export const BADGE = { x: 60, y: 30, width: 40, height: 30 };
export const CLOCK = { x: 90, y: 30, width: 10, height: 10 };
/** What the badge changes to: a dot inside it. */
export const DOT = { x: 66, y: 38, width: 6, height: 6 };
export const WALLPAPER = '0x25425c';
export const BAR = '0x101820';

export interface Phone {
  id: string;
  name: string;
  model: string;
}

export const PHONES: Phone[] = [
  { id: 'device@7101', name: 'galaxy-s9', model: 'SM-G960F' },
  { id: 'device@7102', name: 'galaxy-s9-lab', model: 'SM-G960F' },
  { id: 'device@7103', name: 'pixel-7', model: 'Pixel 7' },
];

/** How a run's phone differs from the goldens: a dot of this colour in the badge, another wallpaper or bar. */
export interface Change {
  dot?: string;
  wallpaper?: string;
  bar?: string;
}

/** A phone's screen: wallpaper, a status bar, the badge, as changed. */
export function screenOf(change: Change = {}) {
  const rects = [
    { x: 0, y: 0, width: 120, height: 12, color: change.bar ?? BAR },
    { ...BADGE, color: '0x3ddc84' },
    { ...CLOCK, color: '0xe0e0e0' },
    ...(change.dot ? [{ ...DOT, color: change.dot }] : []),
  ];
  return { width: 120, height: 80, fill: change.wallpaper ?? WALLPAPER, rects };
}

/** The scenario of a run: each phone's dot and wallpaper, by name. */
export function scenario(changes: Record<string, Change> = {}) {
  return { phones: PHONES.map((p) => ({ id: p.id, name: p.name, model: p.model, manufacturer: 'test', screen: screenOf(changes[p.name]) })) };
}

/**
 * The spec: the badge against its golden, the wallpaper by a literal colour, the bar by a table's. A check FAILS
 * names (`pixel-7/bar`, or a phone for all of its checks) is expected to fail: it gives up after 5 s, a busy
 * machine's first sample included; the others, which must pass, wait up to 15 s.
 */
export const SPEC = spec(`
const COLOURS = { bar: '${BAR}' };
const T = (check: string) => {
  const phone = test.info().project.name;
  return (process.env.FAILS ?? '').split(',').some((f) => f === phone || f === phone + '/' + check) ? 5_000 : 15_000;
};

test.describe('home screen', () => {
  test('the badge matches its golden', async ({ device }) => {
    await expect(device).toMatchRegion(${JSON.stringify(BADGE)}, 'badge.png', { mask: [${JSON.stringify(CLOCK)}], timeout: T('badge') });
  });

  test('the wallpaper colour', async ({ device }) => {
    await device.expectPixel(5, 40, { timeout: T('wallpaper') }).toBe('${WALLPAPER}');
  });

  test('the bar colour', async ({ device }) => {
    await device.expectPixel(5, 5, { timeout: T('bar') }).toBe(COLOURS.bar);
  });
});
`);

/** Where a phone's badge golden is kept. */
export const golden = (phone: string) => `specs/home.spec.ts-snapshots/badge-${phone}.png`;

/** Every phone's badge golden, cut from its screen before any change (the clock masked in magenta, as a run writes it). */
export async function goldens(): Promise<Files> {
  const sim = await startSimulator({ port: 0, scenario: scenario() });
  try {
    return Object.fromEntries(PHONES.map((p) => [golden(p.name), encodePng(masked(cropImage(decodePng(sim.screenshot(p.id), 'the screen'), BADGE)))]));
  } finally {
    await sim.close();
  }
}

function masked(image: Image): Image {
  for (let y = CLOCK.y - BADGE.y; y < CLOCK.y - BADGE.y + CLOCK.height; y++) {
    for (let x = CLOCK.x - BADGE.x; x < CLOCK.x - BADGE.x + CLOCK.width; x++) image.data.set([255, 0, 255, 255], (y * image.width + x) * 4);
  }
  return image;
}

/** The project: the matrix config (every report), the embedded simulator's scenario file, the spec and its goldens. */
export async function projectFiles(changes: Record<string, Change>): Promise<Files> {
  return {
    'playwright.config.ts': config('', 'all', 'matrix.projects', MUST_PASS),
    'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'phones.json' } }),
    'phones.json': JSON.stringify(scenario(changes)),
    'specs/home.spec.ts': SPEC,
    ...(await goldens()),
  };
}

/** Starts `phonewright review` with `args` in `cwd` and returns its URL (the first line on stdout). */
export function startReview(cwd: string, args: string[] = []): Promise<Served> {
  return startLocalPage('review', 'Review', args, { cwd });
}

/** One request with exactly these headers (Host included). */
export function send(port: number, path: string, headers: Record<string, string> = {}, options: { method?: string; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('latin1').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const test = base.extend<{
  /** Starts the review in `cwd` and opens its page in a new browser context (1400×1000, scale 1). */
  review: (cwd: string, args?: string[]) => Promise<Opened>;
}>({
  review: async ({ chromiumBrowser }, use) => {
    const browser = await chromiumBrowser();
    const opened: { context: { close(): Promise<void> }; stop: () => Promise<CliResult> }[] = [];
    await use(async (cwd, args) => {
      const started = await startReview(cwd, args);
      const { context, page, problems } = await openLocalPage(browser, started, { width: 1400, height: 1000 });
      await page.locator('body[data-ready="true"]').waitFor();
      let stopped: Promise<CliResult> | undefined;
      const stop = () => {
        if (!stopped) {
          started.cli.interrupt();
          stopped = started.cli.exited;
        }
        return stopped;
      };
      opened.push({ context, stop });
      return { ...started, page, stop, problems };
    });
    for (const o of opened) {
      await o.context.close();
      await o.stop();
    }
  },
});
