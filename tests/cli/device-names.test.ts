// A phone's name wherever the CLI takes a device: the names of phonewright.config.json's phones, of the
// embedded simulator's scenario, and of a real server's device list where it offers one. An unknown name is
// bad input: exit 2, one line listing the names known, and no act sent.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorLine, expect, on, run, test, VENDOR_MAIN_DEVICE } from './helpers.js';

const S9 = 'device@1116106541';
const MOTO = 'device@-230441652';

test('pixel and settings on the embedded simulator take its scenario\'s names', async ({ tmp }) => {
  const pixel = await run(['pixel', 'galaxy-s9', '10', '10'], { cwd: tmp });
  expect(pixel).toMatchObject({ code: 0, stderr: '' });
  expect(pixel.stdout).toMatch(new RegExp(`^${S9} \\(10, 10\\): 0x[0-9a-f]{6}`));
  const settings = await run(['settings', 'moto-g5', '--json'], { cwd: tmp });
  expect(settings.code).toBe(0);
  expect(JSON.parse(settings.stdout).display_resolution).toEqual({ w: 1280, h: 720 });
});

test('a real server\'s device list gives the names; the phone named is the one read', async ({ simulate }) => {
  const sim = await simulate();
  const r = await run(['settings', 'moto-g5', '--json', ...on(sim)]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout).display_resolution).toEqual({ w: 1280, h: 720 });
  sim.postNotification({ device: S9, app: 'com.example.chat', text: 'for the galaxy' });
  sim.postNotification({ device: MOTO, app: 'com.example.chat', text: 'for the moto' });
  const note = await run(['notifications', '--device', 'moto-g5', '--app', 'com.example.chat', '--json', ...on(sim)]);
  expect(note.code).toBe(0);
  expect((JSON.parse(note.stdout) as { id: string; text: string }[]).map((n) => [n.id, n.text])).toEqual([[MOTO, 'for the moto']]);
});

test('the config file\'s names need no device list: the server is asked for nothing else', async ({ serve, tmp }) => {
  const server = await serve();
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ url: server.url, devices: [{ id: VENDOR_MAIN_DEVICE, name: 'bench-phone' }] }));
  const r = await run(['pixel', 'bench-phone', '1', '1', '--password', '3D391497'], { cwd: tmp });
  expect(r).toMatchObject({ code: 0, stdout: `${VENDOR_MAIN_DEVICE} (1, 1): 0x25425c  r=37 g=66 b=92\n` });
  expect(server.requests.map((q) => q.op)).toEqual(['login', 'pixel']);
});

test('doctor --device takes a name', async ({ simulate }) => {
  const sim = await simulate();
  const r = await run(['doctor', '--device', 'pixel-7', '--json', ...on(sim)]);
  expect(r.code).toBe(0);
  const checks = (JSON.parse(r.stdout) as { checks: { name: string; detail: string }[] }).checks;
  expect(checks.find((c) => c.name === 'pixel')!.detail).toMatch(/^device@1174886816 \(0, 0\) = /);
});

test('an unknown name: exit 2, one line listing the names known, and no act sent', async ({ simulate }) => {
  const sim = await simulate();
  const r = await run(['tap', 'galaxy-s10', '1', '1', ...on(sim)]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toBe(
    `phonewright: no phone named "galaxy-s10" on ${sim.url}; try: one of galaxy-s9 (${S9}), pixel-7 (device@1174886816), galaxy-tab-s7 (device@24681357), moto-g5 (${MOTO}); or a device id, or main`,
  );
  expect(sim.acts()).toEqual([]);
});

test('an unknown name on the embedded simulator lists its phones and the config file\'s', async ({ tmp }) => {
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ devices: [{ id: S9, name: 'front-desk' }] }));
  const r = await run(['pixel', 'galaxy', '1', '1'], { cwd: tmp });
  expect(r.code).toBe(2);
  expect(errorLine(r)).toMatch(/^phonewright: no phone named "galaxy" on the embedded simulator; try: one of front-desk \(device@1116106541\), galaxy-s9 \(device@1116106541\), .*moto-g5 \(device@-230441652\); or a device id, or main$/);
});

test('a server with neither a device list nor configured names: exit 2, saying why no name is known; no read sent', async ({ serve }) => {
  const server = await serve();
  const r = await run(['pixel', 'galaxy-s9', '1', '1', ...on(server)]);
  expect(r.code).toBe(2);
  expect(errorLine(r)).toBe(
    `phonewright: no phone named "galaxy-s9": ${server.url} offers no device list and phonewright.config.json names no phone of it; try: a device id such as device@1116106541, or main (phonewright main-device prints its id)`,
  );
  expect(server.count('pixel')).toBe(0);
});
