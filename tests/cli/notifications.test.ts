// `phonewright notifications`: reading the list with filters (applied again on the client), bad arguments,
// and `--follow`, which prints only new messages and stops cleanly on Ctrl-C. In-process, but for a follow
// ended by SIGINT in a process of its own.
import { type BadUsage, badUsageTests, expect, launch, launchSpawned, on, run, serverRefusesTests, test, VENDOR_MAIN_DEVICE } from './helpers.js';

const OTHER = 'device@1174886816';
const M1 = { app: 'com.sigma_rt.totalcontrol', text: '点击进入程序', time: 1539833828000, id: OTHER };
const M2 = { app: 'com.example.chat', text: 'your code is 123456', time: 1539833829000, id: VENDOR_MAIN_DEVICE };
const M3 = { app: 'com.example.ads', text: 'a sale!', time: 1539833830000, id: VENDOR_MAIN_DEVICE };

test('--json: an array of {app, text, time, id}, as the server lists them; count is always sent', async ({ serve }) => {
  const server = await serve();
  server.post(M1, M2, M3);
  const r = await run(['notifications', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe(`${JSON.stringify([M1, M2, M3])}\n`);
  const q = (await server.waitFor('notifications')).query;
  expect([q.get('position'), q.get('count')]).toEqual(['1', '100']);
});

test('--position and --count go to the server as given', async ({ serve }) => {
  const server = await serve();
  server.post(M1, M2, M3);
  const r = await run(['notifications', '--position', '2', '--count', '1', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stdout: `${JSON.stringify([M2])}\n` });
  const q = (await server.waitFor('notifications')).query;
  expect([q.get('position'), q.get('count')]).toEqual(['2', '1']);
});

test('filters go on the wire (several as a bracketed list) and are applied again on the client', async ({ serve }) => {
  const server = await serve();
  // A server that ignores every filter: the CLI must still print only what was asked for.
  server.handle('notifications', { json: { status: true, value: [M1, M2, M3] } });
  const r = await run(['notifications', '--device', 'main', '--app', 'com.example.chat', '--app', 'com.example.ads', '--match', 'code', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stdout: `${JSON.stringify([M2])}\n` });
  const q = (await server.waitFor('notifications')).query;
  expect(q.get('device')).toBe(VENDOR_MAIN_DEVICE);
  expect(q.get('app')).toBe('["com.example.chat","com.example.ads"]');
  expect(q.get('match')).toBe('code');
});

test('without --json: one line per message with an ISO time; an empty list says so', async ({ serve }) => {
  const server = await serve();
  const empty = await run(['notifications', ...on(server)]);
  expect(empty).toMatchObject({ code: 0, stdout: 'no messages (position 1, count 100)\n' });
  server.post(M1, { ...M2, text: 'line one\nline two' });
  const r = await run(['notifications', ...on(server)]);
  expect(r.stdout).toBe(
    `2018-10-18T03:37:08.000Z  ${OTHER}  com.sigma_rt.totalcontrol  点击进入程序\n` +
      `2018-10-18T03:37:09.000Z  ${VENDOR_MAIN_DEVICE}  com.example.chat  line one ↵ line two\n`,
  );
});

const BAD: BadUsage[] = [
  { args: ['--position', '0'], says: /invalid --position "0": expected a whole number from 1/ },
  { args: ['--position', 'first'], says: /invalid --position "first"/ },
  { args: ['--count', '0'], says: /invalid --count "0": expected a whole number from 1 to 10000/ },
  { args: ['--count', '10001'], says: /invalid --count "10001"/ },
  { args: ['--count', '2.5'], says: /invalid --count "2.5"/ },
  { args: ['--device', '1174886816'], says: /invalid --device "1174886816": a device id starts with device@/ },
  { args: ['--app', ''], says: /--app needs a package name/ },
  { args: ['--follow', '--count', '5'], says: /--position and --count do not apply to --follow/ },
];

badUsageTests('notifications', BAD);

serverRefusesTests('notifications', [
  { name: '--json', args: ['--json'], op: 'notifications', said: 'notification listening is off' },
  { name: 'a table', args: [], op: 'notifications', said: 'notification listening is off' },
]);

test('--follow --json: only messages posted after the start, filtered, one JSON object per line; Ctrl-C ends it with exit 0', async ({ serve }) => {
  const server = await serve();
  server.post(M1, M2);
  const cli = launchSpawned(['notifications', '--follow', '--app', 'com.example.chat', ...on(server), '--json']);
  await cli.waitFor('stderr', /following new messages .*app=com\.example\.chat.*Ctrl-C to stop/);
  const later = { ...M2, text: 'your code is 654321', time: M2.time + 60_000 };
  server.post(M3, later);
  await cli.waitFor('stdout', /654321/);
  const last = { ...later, text: 'and again', time: later.time + 1 };
  server.post(last);
  await cli.waitFor('stdout', /and again/);
  cli.interrupt();
  const r = await cli.exited;
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`${JSON.stringify(later)}\n${JSON.stringify(last)}\n`);
  expect(r.stderr).not.toMatch(/phonewright:/);
});

test('--follow without --json: readable lines; Ctrl-C before any message is still exit 0', async ({ serve }) => {
  const server = await serve();
  const quiet = launch(['notifications', '-f', ...on(server)]);
  await quiet.waitFor('stderr', /following new messages/);
  quiet.interrupt();
  expect(await quiet.exited).toMatchObject({ code: 0, stdout: '' });

  const cli = launch(['notifications', '--follow', '--device', OTHER, '--match', '进入', ...on(server)]);
  await cli.waitFor('stderr', /following new messages .*device=device@1174886816 text contains "进入"/);
  server.post(M2, M1);
  await cli.waitFor('stdout', /点击进入程序/);
  cli.interrupt();
  const r = await cli.exited;
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`2018-10-18T03:37:08.000Z  ${OTHER}  com.sigma_rt.totalcontrol  点击进入程序\n`);
});

test('--follow: a server that fails for good ends the follow with exit 1', async ({ serve }) => {
  const server = await serve();
  const cli = launch(['notifications', '--follow', ...on(server), '--json']);
  await cli.waitFor('stderr', /following new messages/);
  server.handle('notifications', { json: { status: null, value: 'service stopped' } });
  const r = await cli.exited;
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/phonewright: notifications failed: the server said "service stopped"/);
});
