// `phonewright devices`: the server's phones with their model and size (the vendor's routes beyond the
// interface), as a table or --json; a server of the interface only refuses with one line, exit 1.
import { errorLine, expect, on, run, test } from './helpers.js';

test('devices --json on the embedded simulator: one object per phone with its model, maker, size and Android', async ({ tmp }) => {
  const r = await run(['devices', '--json'], { cwd: tmp });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual([
    { id: 'device@1116106541', name: 'galaxy-s9', model: 'SM-G960F', manufacturer: 'samsung', width: 1080, height: 1920, android: '10' },
    { id: 'device@1174886816', name: 'pixel-7', model: 'Pixel 7', manufacturer: 'Google', width: 1080, height: 2400, android: '14' },
    { id: 'device@24681357', name: 'galaxy-tab-s7', model: 'SM-T870', manufacturer: 'samsung', width: 2560, height: 1600, android: '13' },
    { id: 'device@-230441652', name: 'moto-g5', model: 'Moto G (5)', manufacturer: 'motorola', width: 1280, height: 720, android: '8.1.0' },
  ]);
});

test('devices: a table a person reads, columns aligned', async ({ tmp }) => {
  const r = await run(['devices'], { cwd: tmp });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^id\s+name\s+model\s+manufacturer\s+size\s+android$/);
  expect(lines[4]).toMatch(/^device@-230441652\s+moto-g5\s+Moto G \(5\)\s+motorola\s+1280×720\s+8\.1\.0$/);
  // Every column starts where its heading does.
  for (const [heading, moto] of [['name', 'moto-g5'], ['model', 'Moto G (5)'], ['size', '1280×720']]) expect(lines[4]!.indexOf(moto!), heading).toBe(lines[0]!.indexOf(heading!));
});

test('a server of the interface only: one line naming what it lacks and the server, exit 1, nothing on stdout', async ({ serve }) => {
  const server = await serve();
  const r = await run(['devices', '--json', ...on(server)]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toBe(`phonewright: this server does not offer the device list (a route beyond the device-control interface): ${server.url}`);
});
