// A hint names where the setting it points at really came from: the passwordEnv of the server in
// phonewright.config.json, not PHONEWRIGHT_PASSWORD; the file's url, not --url or PHONEWRIGHT_URL.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { closedPort, errorLine, expect, GIVE_UP_SOON, run, test } from './helpers.js';

test('a refused login names the passwordEnv the password came from; the flag when a flag gave it', async ({ serve, tmp }) => {
  const server = await serve({ password: 'right-one-2026' });
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ servers: [{ name: 'lab', url: server.url, passwordEnv: 'LAB_PW' }] }));
  const fromFile = await run(['login'], { cwd: tmp, env: { LAB_PW: 'wrong-one-2026' } });
  expect(fromFile.code).toBe(3);
  expect(errorLine(fromFile)).toMatch(/; try: check the user \(from the default user\) and the password \(from LAB_PW \(the passwordEnv of server "lab"\)\)$/);
  const fromFlag = await run(['login', '--password', 'wrong-two-2026'], { cwd: tmp, env: { LAB_PW: 'x' } });
  expect(errorLine(fromFlag)).toMatch(/and the password \(from --password\)\)?$/);
  const fromEnv = await run(['login'], { cwd: tmp, env: { LAB_PW: 'x', PHONEWRIGHT_PASSWORD: 'wrong-three-2026', PHONEWRIGHT_USER: 'sigma' } });
  expect(errorLine(fromEnv)).toMatch(/; try: check the user \(from PHONEWRIGHT_USER\) and the password \(from PHONEWRIGHT_PASSWORD\)$/);
});

test('a server that does not answer names where its URL came from: the config file, or PHONEWRIGHT_URL', async ({ tmp }) => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ servers: [{ name: 'lab', url, passwordEnv: 'LAB_PW' }] }));
  const fromFile = await run(['main-device', ...GIVE_UP_SOON], { cwd: tmp, env: { LAB_PW: 'pw' } });
  expect(fromFile.code).toBe(4);
  expect(errorLine(fromFile)).toMatch(/; try: is the server running and the URL right\? check the url of server "lab" in phonewright\.config\.json$/);
  const doctor = await run(['doctor', ...GIVE_UP_SOON], { cwd: tmp, env: { LAB_PW: 'pw' } });
  expect(errorLine(doctor)).toMatch(/check the url of server "lab" in phonewright\.config\.json$/);
  const fromEnv = await run(['main-device', ...GIVE_UP_SOON], { cwd: tmp, env: { LAB_PW: 'pw', PHONEWRIGHT_URL: url } });
  expect(errorLine(fromEnv)).toMatch(/check PHONEWRIGHT_URL$/);
});
