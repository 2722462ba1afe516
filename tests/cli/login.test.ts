// `phonewright login` and `phonewright main-device`: their outputs, the token shown only on request, exit codes.
// In-process, but for a smoke set in a process of its own: login's JSON alone on stdout, exit 4 and exit 3.
import { closedPort, errorLine, expect, GIVE_UP_SOON, on, run, serverRefusesTests, spawnCli, test, VENDOR_MAIN_DEVICE } from './helpers.js';

test('login --json: ok and the user, no token', async ({ serve }) => {
  const server = await serve({ user: 'qa-lead', password: 'Pw-for-login-1' });
  const r = await spawnCli(['login', ...on(server, { user: 'qa-lead', password: 'Pw-for-login-1' }), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe('{"ok":true,"user":"qa-lead"}\n');
  expect(server.tokens).toHaveLength(1);
  expect(r.stdout).not.toContain(server.tokens[0]!);
});

test('login --json --show-token: the token the server issued is included', async ({ serve }) => {
  const server = await serve();
  const r = await run(['login', ...on(server), '--json', '--show-token']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual({ ok: true, user: 'sigma', token: server.tokens[0] });
});

test('login without --json: a sentence naming the server and the user; the token only with --show-token', async ({ serve }) => {
  const server = await serve();
  const plain = await run(['login', ...on(server)]);
  expect(plain).toMatchObject({ code: 0, stderr: '', stdout: `logged in to ${server.url} as sigma\n` });
  const shown = await run(['login', ...on(server), '--show-token']);
  expect(shown.stdout).toBe(`logged in to ${server.url} as sigma\ntoken: ${server.tokens[1]}\n`);
});

for (const rejectLogin of ['false', 'null', 401] as const) {
  test(`login refused (answered ${rejectLogin}): exit 3, nothing on stdout`, async ({ serve }) => {
    const server = await serve({ rejectLogin, password: 'right' });
    const r = await run(['login', ...on(server, { password: 'wrong-Pw-77' }), '--json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(/^phonewright: login refused for user "sigma" at http:\/\/127\.0\.0\.1:\d+.*try: check the user \(from --user\) and the password \(from --password\)$/);
    expect(r.stderr).not.toContain('wrong-Pw-77');
  });
}

test('login against the wrong API root: exit 1, pointing at --api-root', async ({ serve }) => {
  const server = await serve({ apiRoot: '/Service/v1' });
  const wrong = await run(['login', ...on(server)]);
  expect(wrong.code).toBe(1);
  expect(errorLine(wrong)).toMatch(/no such route \(HTTP 404\).*--api-root/);
  const right = await run(['login', ...on(server), '--api-root', '/Service/v1', '--json']);
  expect(right).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"sigma"}\n' });
});

test('login to a closed port: exit 4', async () => {
  const r = await spawnCli(['login', '--url', `http://127.0.0.1:${await closedPort()}`, ...GIVE_UP_SOON]);
  expect(r.code).toBe(4);
  expect(errorLine(r)).toMatch(/ECONNREFUSED/);
});

test('main-device: the id, as JSON or as a bare line', async ({ serve }) => {
  const server = await serve();
  const json = await run(['main-device', ...on(server), '--json']);
  expect(json).toMatchObject({ code: 0, stderr: '', stdout: `{"id":"${VENDOR_MAIN_DEVICE}"}\n` });
  const plain = await run(['main-device', ...on(server)]);
  expect(plain).toMatchObject({ code: 0, stderr: '', stdout: `${VENDOR_MAIN_DEVICE}\n` });
});

serverRefusesTests('main-device', [
  { name: 'main-device --json', args: ['--json'], op: 'mainDevice', said: 'no phone connected' },
  { name: 'main-device, a bare line', args: [], op: 'mainDevice', said: 'no phone connected' },
]);

test('main-device: an answer without an id is exit 1', async ({ serve }) => {
  const server = await serve();
  server.handle('mainDevice', { json: { id: 3 } });
  const numeric = await run(['main-device', ...on(server)]);
  expect(numeric.code).toBe(1);
  expect(errorLine(numeric)).toMatch(/no device id in "id"/);
});

test('main-device with wrong credentials: exit 3', async ({ serve }) => {
  const server = await serve();
  const r = await spawnCli(['main-device', ...on(server, { user: 'nobody' })]);
  expect(r.code).toBe(3);
  expect(errorLine(r)).toMatch(/user "nobody"/);
});
