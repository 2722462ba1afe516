// `phonewright pixel`: the done-when check, strict argument checks before any network work, and the
// exit code of each kind of failure. In-process, but for a failure in a process of its own (its exit code).
import { type BadUsage, badUsageTests, closedPort, errorLine, expect, GIVE_UP_SOON, on, run, spawnCli, test, VENDOR_MAIN_DEVICE } from './helpers.js';

test('done-when: against the vendor\'s documented pixel body, --json prints exactly the four fields', async ({ serve }) => {
  const server = await serve({ user: 'U', password: 'P' });
  const r = await run(['pixel', 'device@1116106541', '100', '100', '--url', server.url, '--user', 'U', '--password', 'P', '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe('{"r":37,"g":66,"b":92,"rgb":"0x25425c"}\n');
  const pixel = await server.waitFor('pixel');
  expect(pixel.query.get('x')).toBe('100');
  expect(pixel.query.get('y')).toBe('100');
});

test('without --json: one readable line; "main" is asked of the server first', async ({ serve }) => {
  const server = await serve();
  const r = await run(['pixel', 'main', '0', '1919', ...on(server)]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe(`${VENDOR_MAIN_DEVICE} (0, 1919): 0x25425c  r=37 g=66 b=92\n`);
  expect(server.requests.map((q) => q.op)).toEqual(['login', 'mainDevice', 'pixel']);
});

const BAD_ARGUMENTS: BadUsage[] = [
  { name: 'a device id without device@', args: ['1116106541', '1', '1'], says: /invalid device id "1116106541": a device id starts with device@; try: device@1116106541$/ },
  { name: 'a device number beyond 32 bits', args: ['device@99999999999', '1', '1'], says: /signed 32-bit integer/ },
  { name: 'a negative x', args: ['device@1116106541', '-1', '1'], says: /invalid x coordinate "-1"/ },
  { name: 'a fractional x', args: ['device@1116106541', '1.5', '1'], says: /invalid x coordinate "1.5"/ },
  { name: 'an exponent y', args: ['device@1116106541', '1', '1e3'], says: /invalid y coordinate "1e3"/ },
  { name: 'a word', args: ['device@1116106541', 'abc', '1'], says: /invalid x coordinate "abc"/ },
  { name: 'a hex number', args: ['device@1116106541', '0x10', '1'], says: /invalid x coordinate "0x10"/ },
  { name: 'a huge y', args: ['device@1116106541', '1', '99999999'], says: /invalid y coordinate "99999999": expected a whole number of pixels from 0 to 100000 or a percentage of the screen/ },
  { name: 'a missing y', args: ['device@1116106541', '1'], says: /not enough non-option arguments/ },
];

badUsageTests('pixel', BAD_ARGUMENTS);

test('a point off the screen: exit 2 (bad input, as for tap), naming the point and the screen size', async ({ serve }) => {
  const server = await serve();
  const r = await spawnCli(['pixel', VENDOR_MAIN_DEVICE, '1080', '5', ...on(server), '--json']);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toMatch(/pixel \(1080, 5\) is outside the screen of device@1116106541 \(1080×1920\)/);
});

test('a phone the server does not know: exit 1, naming the phone', async ({ serve }) => {
  const server = await serve();
  const r = await run(['pixel', 'device@-230441652', '1', '1', ...on(server)]);
  expect(r.code).toBe(1);
  expect(errorLine(r)).toMatch(/device@-230441652 is unknown to the server or offline/);
});

test('credentials refused: exit 3, naming the user and never the password', async ({ serve }) => {
  const server = await serve({ password: 'the-right-one' });
  const r = await run(['pixel', VENDOR_MAIN_DEVICE, '1', '1', ...on(server, { user: 'sigma', password: 'Wr0ng-Pa55' })]);
  expect(r.code).toBe(3);
  const line = errorLine(r);
  expect(line).toMatch(/login refused for user "sigma"/);
  expect(line).not.toContain('Wr0ng-Pa55');
  expect(server.count('pixel')).toBe(0);
});

test('nothing listening at the URL: exit 4, saying what to check', async () => {
  const port = await closedPort();
  const r = await run(['pixel', VENDOR_MAIN_DEVICE, '1', '1', '--url', `http://127.0.0.1:${port}`, '--json', ...GIVE_UP_SOON]);
  expect(r.code).toBe(4);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toMatch(/cannot reach the server \(ECONNREFUSED\).*try: is the server running/);
});

test('a point as percentages of the screen: resolved against the phone\'s size, both forms printed; tap alike', async ({ simulate }) => {
  const sim = await simulate();
  const r = await run(['pixel', 'main', '50%', '8%', ...on(sim)]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(/^device@1116106541 \(50%, 8%\) = \(540, 154\) on 1080×1920: 0x[0-9a-f]{6} {2}r=\d+ g=\d+ b=\d+\n$/);
  expect(await run(['tap', 'main', '50%', '100%', ...on(sim)])).toMatchObject({ code: 0, stdout: 'device@1116106541: tapped (50%, 100%) = (540, 1919) on 1080×1920\n' });
  expect(sim.acts()).toEqual([expect.objectContaining({ kind: 'tap', x: 540, y: 1919 })]);
  // Past the screen: refused before anything is sent.
  const past = await run(['pixel', 'main', '101%', '0', ...on(sim)]);
  expect(past.code).toBe(2);
  expect(errorLine(past)).toBe('phonewright: invalid x coordinate "101%": a percentage of the screen goes from 0% to 100%; try: phonewright pixel device@1116106541 100 100, or 50% 8% for a place by the screen\'s size');
});

test('a percentage on a server that does not say the screen size: exit 2, saying what it needs', async ({ serve }) => {
  const server = await serve();
  const r = await run(['pixel', 'main', '50%', '50%', ...on(server)]);
  expect(r.code).toBe(2);
  expect(errorLine(r)).toBe(`phonewright: (50%, 50%) on ${VENDOR_MAIN_DEVICE} needs the phone's screen size, which this server does not say (its device properties); try: give the point in pixels, or run on a server that offers the device properties`);
  expect(server.count('pixel')).toBe(0);
});
