// `phonewright screenshot`: a PNG of exactly the rectangle asked for, whichever form the server's capture
// answer takes; a server of the interface only refuses with one line, exit 1, whichever form its lacking
// route answers in; an unplugged phone is said to be missing; bad input changes nothing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { CAPTURE_FORMS, capturing, colorAt } from '../helpers/vendor-capture.js';
import type { MissingRouteForm, SimulatorHandle } from '../../src/simulator/index.js';
import { lacking, MISSING_FORMS, notOffered, seedSimFixture } from '../helpers/missing-routes.js';
import { errorLine, expect, on, PASSWORD, run, test as base, USER } from './helpers.js';

const test = base.extend<{ seedSim: (form: MissingRouteForm) => Promise<SimulatorHandle> }>({ seedSim: seedSimFixture });

const PHONE = 'device@1116106541';

for (const [form, answer] of CAPTURE_FORMS.slice(0, 2)) {
  test(`screenshot --rect 10,20,30,40 writes exactly those 30×40 pixels: ${form}`, async ({ serve, tmp }) => {
    const server = await serve();
    capturing(server, answer(server));
    const r = await run(['screenshot', PHONE, '--rect', '10,20,30,40', '--out', 'corner.png', '--json', ...on(server)], { cwd: tmp });
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ file: 'corner.png', width: 30, height: 40 });
    const png = PNG.sync.read(readFileSync(path.join(tmp, 'corner.png')));
    expect([png.width, png.height]).toEqual([30, 40]);
    for (const [x, y] of [[0, 0], [29, 39], [13, 7]] as const) {
      const o = (y * 30 + x) * 4;
      expect([png.data[o], png.data[o + 1], png.data[o + 2]], `(${x}, ${y})`).toEqual([...colorAt(10 + x, 20 + y)]);
    }
  });
}

test('screenshot of the whole screen on the embedded simulator: the size its properties give', async ({ tmp }) => {
  const r = await run(['screenshot', 'main', '--out', 'screen.png'], { cwd: tmp });
  expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe('device@1116106541: 1080×1920 at (0, 0) saved to screen.png\n');
  const png = PNG.sync.read(readFileSync(path.join(tmp, 'screen.png')));
  expect([png.width, png.height]).toEqual([1080, 1920]);
});

for (const form of MISSING_FORMS) {
  test(`a server whose capture answers ${form.name}: one line naming what it lacks, exit 1, no file`, async ({ serve, tmp }) => {
    const server = await serve();
    lacking(server, form.reply);
    const r = await run(['screenshot', PHONE, '--rect', '0,0,4,4', '--out', 'x.png', ...on(server)], { cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toBe(`phonewright: ${notOffered('screen capture', server.url)}`);
    expect(existsSync(path.join(tmp, 'x.png'))).toBe(false);
    // The capture, and a 1×1 capture at 0,0 whose lacking answer too shows that the route is missing.
    expect(server.count('capture')).toBe(2);
  });

  test(`the simulator under seed, its capture answering ${form.name}: what it lacks at once; on an unplugged phone, that the phone is missing`, async ({ seedSim, tmp }) => {
    const sim = await seedSim(form.sim);
    const args = ['screenshot', PHONE, '--rect', '0,0,4,4', '--out', 'x.png', '--url', sim.url, '--user', USER, '--password', PASSWORD];
    sim.setOnline(PHONE, false);
    const unplugged = await run(args, { cwd: tmp });
    expect(unplugged.code).toBe(1);
    // The rectangle is first checked against the phone's screen: that read is what finds the phone missing.
    expect(errorLine(unplugged)).toMatch(new RegExp(`^phonewright: device-info failed for ${PHONE}: the phone is unknown to the server or offline`));
    sim.setOnline(PHONE, true);
    const r = await run(args, { cwd: tmp });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(errorLine(r)).toBe(`phonewright: ${notOffered('screen capture', sim.url)}`);
    // Without --rect the screen's size is asked of the phone's properties, a route beyond the interface too.
    const whole = await run(args.filter((a, i) => a !== '--rect' && args[i - 1] !== '--rect'), { cwd: tmp });
    expect(errorLine(whole)).toBe(`phonewright: ${notOffered('device properties', sim.url)}`);
    expect(existsSync(path.join(tmp, 'x.png'))).toBe(false);
  });
}

test('a rectangle off the phone\'s screen: exit 2, one line, nothing captured', async ({ serve, tmp }) => {
  const server = await serve();
  server.handle('deviceInfo', { json: { status: true, value: { name: 'phone-b', width: 720, height: 1280, model: 'm', manufacturer: 'x', androidVersionRelease: '9' } } });
  capturing(server, (p) => ({ status: true, value: p }));
  const r = await run(['screenshot', PHONE, '--rect', '700,1270,50,50', '--out', 'x.png', ...on(server)], { cwd: tmp });
  expect([r.code, r.stdout]).toEqual([2, '']);
  expect(errorLine(r)).toBe(`phonewright: the region 50×50 at (700, 1270) is off the 720×1280 screen of ${PHONE}; try: a region within it: x from 0 to 719, y from 0 to 1279, x + width ≤ 720, y + height ≤ 1280`);
  expect([server.count('capture'), existsSync(path.join(tmp, 'x.png'))]).toEqual([0, false]);
});

test('a server that captures but refuses this rectangle: its own message, exit 1, never "does not offer"', async ({ serve, tmp }) => {
  const server = await serve();
  // A 1×1 capture at 0,0 is made (its image is not fetched); every other rectangle is refused.
  server.handle('capture', (req) => ({ json: req.query.get('rect') === '[0,0,1,1]' ? { status: true, value: '/1/1.png' } : { status: null, value: 'bad rect' } }));
  for (const round of [1, 2]) {
    const r = await run(['screenshot', PHONE, '--rect', '10,20,30,40', '--out', 'x.png', ...on(server)], { cwd: tmp });
    expect([r.code, r.stdout], `round ${round}`).toEqual([1, '']);
    expect(errorLine(r)).toMatch(/^phonewright: screen capture failed for device@1116106541: the server said "bad rect" — GET /);
  }
  expect(existsSync(path.join(tmp, 'x.png'))).toBe(false);
});

test('bad input: exit 2 with what to write, before any request, and no file', async ({ serve, tmp }) => {
  const server = await serve();
  const cases: [string[], RegExp][] = [
    [['--rect', '10,20,0,40', '--out', 'x.png'], /^phonewright: invalid --rect width "0": expected a whole number from 1 to 100000; try: phonewright screenshot /],
    [['--rect', '10,20,30', '--out', 'x.png'], /^phonewright: invalid --rect "10,20,30": expected x,y,width,height, e.g. 10,20,30,40/],
    [['--out', 'no/such/folder/x.png'], /^phonewright: --out "no\/such\/folder\/x.png": the folder "no\/such\/folder" does not exist; try: create it first/],
    [['--out', '.'], /^phonewright: --out "." is a folder: name the PNG file to write/],
  ];
  for (const [args, message] of cases) {
    const r = await run(['screenshot', PHONE, ...args, ...on(server)], { cwd: tmp });
    expect(r.code, args.join(' ')).toBe(2);
    expect(errorLine(r)).toMatch(message);
  }
  expect(server.count()).toBe(0);
  expect(existsSync(path.join(tmp, 'x.png'))).toBe(false);
});
