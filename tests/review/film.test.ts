// The review page plays a failure's film (phoneVideo) beside the phone's screen at the failure: from 3 s before the
// step that failed, the test's steps listed under it, a step clicked seeking the film to it. The film is served
// behind the page's token, host and origin checks, in byte ranges, and only from the run's results. One short run
// on one phone, read by every test of the file.
import { createHash } from 'node:crypto';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { cli } from '../helpers/bad-input.js';
import { config, MUST_PASS, sharedRun, spec } from '../helpers/inline.js';
import { BAR, expect, needsChromium, PHONES, scenario, send, startReview, test, WALLPAPER } from './harness.js';

needsChromium();

const PHONE = PHONES[0]!.name;
const FAILING = 'the bar turns black';

/** What the tests read of the page's video element (the suite is compiled without the DOM's types). */
interface Video {
  readyState: number;
  duration: number;
  currentTime: number;
  seeking: boolean;
  addEventListener(type: 'seeked', listener: () => void, options: { once: true }): void;
}

/**
 * Runs in the page (passed whole to evaluate): the video's length and place once its last seek has ended (a seek the
 * page asked for, before or while this runs, ends in 'seeked'). `away`: a seek from 0 is awaited even before it began
 * (the page places a film when its length is known, in the event after the one that says it is).
 */
function settled(el: unknown, away: boolean): Promise<{ duration: number; at: number }> {
  const v = el as Video;
  const now = () => ({ duration: v.duration, at: v.currentTime });
  if (v.readyState >= 1 && !v.seeking && !(away && v.currentTime === 0)) return Promise.resolve(now());
  return new Promise((resolve) => v.addEventListener('seeked', () => resolve(now()), { once: true }));
}

// A few seconds of the phone before the failing check, so that the film's start (3 s before it) is not its beginning.
const SPEC = spec(`
test.use({ phoneVideo: 'retain-on-failure' });

test('${FAILING}', async ({ device }) => {
  await device.press('home');
  await device.expectNoNotification({ app: 'com.example.ads' }, { within: 4_000 });
  await device.expectPixel(5, 5, { timeout: 1_000 }).toBe('0x000000');
});
`);

/** One phone, upright as most are: the status bar, a card. */
const PHONE_SCREEN = { width: 90, height: 160, fill: WALLPAPER, rects: [{ x: 0, y: 0, width: 90, height: 12, color: BAR }, { x: 20, y: 60, width: 50, height: 30, color: '0x3ddc84' }] };

const shared = sharedRun(async ({ project }) => {
  const phone = scenario().phones.find((ph) => ph.name === PHONE)!;
  const p = await project({
    'playwright.config.ts': config('', 'all', 'matrix.projects', MUST_PASS),
    'phonewright.config.json': JSON.stringify({ simulator: { scenario: 'phones.json' } }),
    'phones.json': JSON.stringify({ phones: [{ ...phone, screen: PHONE_SCREEN }] }),
    'specs/film.spec.ts': SPEC,
  });
  const run = await p.run();
  return { p, run };
});

/** A caption's start in seconds: `00:00:04.512 --> …` before the line that names the step. */
function captionAt(vtt: string, step: RegExp): number {
  const cue = vtt.split('\n\n').find((c) => step.test(c));
  const m = cue && /(\d+):(\d+):(\d+\.\d+) -->/.exec(cue);
  if (!m) throw new Error(`no caption ${step} in\n${vtt}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

test("the film plays beside the screen at the failure from 3 s before the failing step; a step clicked seeks it there", async ({ review }, testInfo) => {
  const { p, run } = await shared();
  expect(run.summary.total, run.output).toEqual({ passed: 0, failed: 1, skipped: 0, flaky: 0 });
  const failed = run.test(FAILING, PHONE);
  expect(failed.attachmentNames, JSON.stringify(failed.annotations)).toContain('phone-video');
  const vtt = failed.attachment('phone-video-captions').toString();
  const check = captionAt(vtt, /\n✗ toHavePixel\(/);
  const press = captionAt(vtt, /\n✓ press home /);
  // The check comes after four seconds of watching: the film starts inside it, not at its beginning.
  expect(check, vtt).toBeGreaterThan(3.5);

  const { page, problems } = await review(p.dir);
  await expect(page.locator('#screen-card')).toHaveClass(/filmed/);
  await expect(page.locator('#phone-screen')).toBeVisible();
  const video = page.locator('#phone-film');
  await expect(video).toBeVisible();
  // Loaded, its length known, and placed at its start: the page seeks there once the film's length is known. Its
  // 'seeked' is awaited, as long as a loaded machine's browser takes to load the film.
  const placed = await video.evaluate(settled, true);
  expect(Number.isFinite(placed.duration) && placed.duration, vtt).toBeGreaterThan(check);
  expect(placed.at, vtt).toBeCloseTo(check - 3, 1);
  await expect(page.locator('#film-caption')).toHaveText(/3 s before the failing step/);

  // The steps, in the order they began, the failing one marked.
  const steps = page.locator('#film-steps li');
  await expect(steps.filter({ hasText: 'press home' })).toHaveCount(1);
  await expect(steps.filter({ hasText: 'toHavePixel' })).toHaveClass(/failing/);
  await expect(steps.filter({ hasText: 'toHavePixel' }).locator('.mark')).toHaveText('✗');

  for (const [name, at] of [['toHavePixel', check], ['press home', press]] as const) {
    await steps.filter({ hasText: name }).getByRole('button').click();
    expect((await video.evaluate(settled, false)).at, name).toBeCloseTo(at, 2);
    await expect(steps.filter({ hasText: name })).toHaveAttribute('aria-current', 'step');
  }
  // The page as a reviewer sees it, at the last step clicked, kept beside the test's output to look at.
  await page.screenshot({ path: testInfo.outputPath('review-film.png') });
  await testInfo.attach('review-film.png', { path: testInfo.outputPath('review-film.png'), contentType: 'image/png' });
  expect(problems()).toEqual([]);
});

test('the film is served behind the token, host and origin checks, in byte ranges, and never from outside the run\'s results', async () => {
  const { p, run } = await shared();
  const film = run.test(FAILING, PHONE).attachment('phone-video');
  const served = await startReview(p.dir);
  try {
    const url = `/api/film?id=f0&token=${served.token}`;
    const whole = await send(served.port, url);
    expect([whole.status, whole.headers['content-type'], whole.headers['accept-ranges']]).toEqual([200, 'video/webm', 'bytes']);
    expect(Buffer.from(whole.body, 'latin1').equals(film)).toBe(true);
    const part = await send(served.port, url, { range: 'bytes=4-9' });
    expect([part.status, part.headers['content-range']]).toEqual([206, `bytes 4-9/${film.length}`]);
    expect(Buffer.from(part.body, 'latin1').equals(film.subarray(4, 10))).toBe(true);
    expect((await send(served.port, url, { range: `bytes=${film.length}-` })).status).toBe(416);
    expect((await send(served.port, '/api/film?id=f0')).status).toBe(401);
    expect((await send(served.port, `/api/film?id=f0&token=${served.token}x`)).status).toBe(401);
    expect((await send(served.port, url, { host: 'evil.example:80' })).status).toBe(403);
    expect((await send(served.port, url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await send(served.port, url, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await send(served.port, `/api/film?id=f9&token=${served.token}`)).status).toBe(400);
  } finally {
    served.cli.interrupt();
    await served.cli.exited;
  }

  // A report whose film is named outside the run's results (a file of the project), or is a link from inside them
  // to outside: the failure shows no film, and the API reads neither.
  const report = JSON.parse(await readFile(p.path('reports/results.json'), 'utf8')) as { suites: unknown };
  const attached = JSON.stringify(report).match(/"name":"phone-video","contentType":"video\/webm","path":"([^"]+)"/)?.[1];
  expect(attached, 'the report names the film by path').toBeDefined();
  const link = p.path('test-results', 'elsewhere.webm');
  await symlink(p.path('phones.json'), link);
  for (const [name, target] of [['outside', p.path('phones.json')], ['link', link]] as const) {
    await mkdir(p.path(`reports-${name}`), { recursive: true });
    await writeFile(p.path(`reports-${name}`, 'results.json'), JSON.stringify(report).replaceAll(attached!, target));
    const other = await startReview(p.dir, ['--report', `reports-${name}`]);
    try {
      const answer = await send(other.port, `/api/review?token=${other.token}`);
      const doc = JSON.parse(Buffer.from(answer.body, 'latin1').toString('utf8')) as { items: { test: string; film?: unknown }[] };
      expect(doc.items.map((i) => [i.test, i.film]), name).toEqual([[`specs/film.spec.ts › ${FAILING}`, undefined]]);
      const refused = await send(other.port, `/api/film?id=f0&token=${other.token}`);
      expect([refused.status, refused.body], name).toEqual([404, JSON.stringify({ error: "this failure has no film in the run's results" })]);
    } finally {
      other.cli.interrupt();
      await other.cli.exited;
    }
  }
});

test('--static links the film the HTML report holds, and plays it from the disk with its steps', async ({ chromiumBrowser }) => {
  const { p, run } = await shared();
  const r = await cli(['review', '--static', 'reports/html/review'], { cwd: p.dir });
  expect([r.code, r.stderr]).toEqual([0, '']);
  const sha1 = createHash('sha1').update(run.test(FAILING, PHONE).attachment('phone-video')).digest('hex');
  const data = await readFile(p.path('reports/html/review/data.js'), 'utf8');
  expect(data).toContain(`"film":{"url":"../data/${sha1}.webm"`);
  expect(data).toMatch(/"title":"toHavePixel\(x, y, color\)","at":[\d.]+,"ms":\d+,"failed":true/);

  const check = captionAt(run.test(FAILING, PHONE).attachment('phone-video-captions').toString(), /\n✗ toHavePixel\(/);
  const context = await (await chromiumBrowser()).newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(p.path('reports/html/review/index.html')).href);
    await page.locator('body[data-ready="true"]').waitFor();
    const placed = await page.locator('#phone-film').evaluate(settled, true);
    expect(placed.duration).toBeGreaterThan(check);
    expect(placed.at).toBeCloseTo(check - 3, 1);
    await expect(page.locator('#film-steps li')).toHaveCount(2);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
