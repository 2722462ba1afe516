// `phonewright settings`: the seven fields normalized whatever the wire form, a table for people, and failures.
// In-process (the exit codes of a real process: login.test.ts, pixel.test.ts).
import { errorLine, expect, on, run, test, VENDOR_MAIN_DEVICE } from './helpers.js';

const NORMALIZED = '{"display_mode":1,"display_quality":2,"display_accl":2,"display_hw_decode":1,"display_resolution_mode":2,"display_orientation":1,"display_resolution":{"w":1080,"h":1920}}\n';

test('--json: the vendor\'s sample body (hw_decode "1", resolution "1080*1920") comes out normalized', async ({ serve }) => {
  const server = await serve();
  const r = await run(['settings', VENDOR_MAIN_DEVICE, ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe(NORMALIZED);
  expect((await server.waitFor('settings')).device).toBe(VENDOR_MAIN_DEVICE);
});

test('--json: the other wire forms (a number for hw_decode, {w, h} for the resolution) print the same way', async ({ serve }) => {
  const server = await serve();
  server.handle('settings', {
    json: { status: true, value: { display_mode: 3, display_quality: 1, display_accl: 3, display_hw_decode: 0, display_resolution_mode: 3, display_orientation: 2, display_resolution: { w: 1280, h: 720 } } },
  });
  const r = await run(['settings', 'main', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual({
    display_mode: 3,
    display_quality: 1,
    display_accl: 3,
    display_hw_decode: 0,
    display_resolution_mode: 3,
    display_orientation: 2,
    display_resolution: { w: 1280, h: 720 },
  });
});

test('without --json: a table with the enum names, one field a line', async ({ serve }) => {
  const server = await serve();
  const r = await run(['settings', VENDOR_MAIN_DEVICE, ...on(server)]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout.split('\n').map((l) => l.trim().replace(/\s{2,}/g, ' | '))).toEqual([
    VENDOR_MAIN_DEVICE,
    'display_mode | 1 (HA1)',
    'display_quality | 2 (Medium)',
    'display_accl | 2 (DirectX)',
    'display_hw_decode | 1 (yes)',
    'display_resolution_mode | 2 (640p)',
    'display_orientation | 1 (portrait)',
    'display_resolution | 1080*1920',
    '',
  ]);
});

test('a phone the server does not know: exit 1, the server\'s message and the phone named', async ({ serve }) => {
  const server = await serve();
  const r = await run(['settings', 'device@24681357', ...on(server), '--json']);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toMatch(/settings failed for device@24681357: the server said "device not found".*try: check the id/);
});

test('an answer that is not the interface: exit 1, naming the bad field', async ({ serve }) => {
  const server = await serve();
  server.handle('settings', { json: { status: true, value: { display_mode: 1 } } });
  const r = await run(['settings', VENDOR_MAIN_DEVICE, ...on(server)]);
  expect(r.code).toBe(1);
  expect(errorLine(r)).toMatch(/settings field display_quality is missing/);
});

for (const bad of ['device@', 'device@01', 'DEVICE@1', '']) {
  test(`bad device id ${JSON.stringify(bad)}: exit 2, nothing sent`, async ({ serve }) => {
    const server = await serve();
    const r = await run(['settings', bad, ...on(server)]);
    expect(r.code).toBe(2);
    expect(errorLine(r)).toMatch(/invalid device id/);
    expect(server.requests).toEqual([]);
  });
}
