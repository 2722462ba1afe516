// Secrets never reach stdout or stderr: every command, its failures, --verbose, and a server that echoes the
// token in its messages. Only `login --show-token` prints the token it asked for. In-process, but for one run
// per way a secret comes in or goes out (PHONEWRIGHT_PASSWORD, passwordEnv, an echoed token, --show-token) in a
// process of its own: only there would a stray console write show. (A flag, a refused password and --follow
// go through the same code in-process; tests/cli runs each of those commands in a process too.)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { closedPort, expect, GIVE_UP_SOON, launch, run, spawnCli, test, type CliResult, type FakeServer } from '../cli/helpers.js';

const USER = 'qa-secret';
const PASSWORD = 'Zq7 Secret/Pw!';
const WRONG = 'Wr0ng Zebra/Pw';
const AUTH = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const WRONG_AUTH = Buffer.from(`${USER}:${WRONG}`).toString('base64');
const FORBIDDEN = [PASSWORD, encodeURIComponent(PASSWORD), AUTH, WRONG, encodeURIComponent(WRONG), WRONG_AUTH];

interface Case {
  name: string;
  args: (server: FakeServer, file: string) => string[];
  /** Scripts the server before the run. */
  setup?: (server: FakeServer) => void;
  env?: Record<string, string>;
  exit: number;
  /** Its --verbose run goes in a process of its own. */
  spawned?: true;
}

const creds = (server: FakeServer, password = PASSWORD) => ['--url', server.url, '--user', USER, '--password', password];

const CASES: Case[] = [
  { name: 'login', args: (s) => ['login', ...creds(s)], exit: 0 },
  { name: 'login --json', args: (s) => ['login', '--json', ...creds(s)], exit: 0 },
  { name: 'main-device', args: (s) => ['main-device', ...creds(s)], exit: 0 },
  { name: 'pixel', args: (s) => ['pixel', 'main', '1', '1', ...creds(s)], exit: 0 },
  { name: 'settings', args: (s) => ['settings', 'main', '--json', ...creds(s)], exit: 0 },
  { name: 'notifications', args: (s) => ['notifications', ...creds(s)], exit: 0 },
  { name: 'upload', args: (s, f) => ['upload', f, '--as', 'image', ...creds(s)], exit: 0 },
  { name: 'doctor', args: (s) => ['doctor', ...creds(s)], exit: 0 },
  { name: 'password from PHONEWRIGHT_PASSWORD', args: (s) => ['pixel', 'main', '1', '1', '--url', s.url, '--user', USER], env: { PHONEWRIGHT_PASSWORD: PASSWORD }, exit: 0, spawned: true },
  { name: 'wrong password', args: (s) => ['login', ...creds(s, WRONG)], exit: 3 },
  { name: 'wrong password, doctor --json', args: (s) => ['doctor', '--json', ...creds(s, WRONG)], exit: 3 },
  { name: 'wrong password in PHONEWRIGHT_PASSWORD', args: (s) => ['settings', 'main', '--url', s.url, '--user', USER], env: { PHONEWRIGHT_PASSWORD: WRONG }, exit: 3 },
  {
    name: 'the server echoes the token when it refuses it',
    setup: (s) => s.handle('pixel', (req) => ({ json: { status: null, value: `invalid token ${req.token}` } })),
    args: (s) => ['pixel', 'main', '1', '1', ...creds(s)],
    exit: 3,
  },
  {
    name: 'the server echoes the token in a failure',
    setup: (s) => s.handle('settings', (req) => ({ json: { status: null, value: `device not found (session ${req.token})` } })),
    args: (s) => ['settings', 'device@5', ...creds(s)],
    exit: 1,
    spawned: true,
  },
  {
    name: 'an answer that is not JSON, holding the token',
    setup: (s) => s.handle('mainDevice', (req) => ({ body: `<html>session ${req.token} expired</html>` })),
    args: (s) => ['main-device', '--json', ...GIVE_UP_SOON, ...creds(s)],
    exit: 1,
  },
  {
    name: 'HTTP 500 holding the token, during doctor',
    // Asked to retry at once: each of the attempts shows the same answer, with no pause between them.
    setup: (s) => s.handle('notifications', (req) => ({ status: 500, headers: { 'retry-after': '0' }, body: `boom at ?token=${req.token}` })),
    args: (s) => ['doctor', ...creds(s)],
    exit: 1,
  },
  {
    name: 'a login answer with the token in the wrong place',
    setup: (s) => s.handle('login', async (req, next) => ((await next()) === 'hang' ? 'hang' : { json: { status: true, token: s.tokens.at(-1) } })),
    args: (s) => ['login', ...creds(s)],
    exit: 1,
  },
  { name: 'a bad argument after the password', args: (s) => ['pixel', 'main', '1.5', '1', ...creds(s)], exit: 2 },
];

for (const c of CASES) {
  for (const verbose of [false, true]) {
    test(`no secret in the output: ${c.name}${verbose ? ' --verbose' : ''}`, async ({ serve, tmp }) => {
      const server = await serve({ user: USER, password: PASSWORD });
      server.post({ app: 'com.example.chat', text: 'hello', time: 1539833828000, id: 'device@1116106541' });
      c.setup?.(server);
      const file = path.join(tmp, 'shot.png');
      await writeFile(file, 'png bytes');
      const args = [...c.args(server, file), ...(verbose ? ['--verbose'] : [])];
      const r = await (c.spawned && verbose ? spawnCli : run)(args, { env: c.env });
      expect(r.code, r.stderr).toBe(c.exit);
      // --verbose described the calls (the test would prove little if it described nothing).
      if (verbose && server.count() > 0) expect(r.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/login → /m);
      expectClean(r, server.tokens);
    });
  }
}

test('no secret in the output: a closed port with --verbose', async () => {
  const r = await run(['doctor', '--url', `http://127.0.0.1:${await closedPort()}`, '--user', USER, '--password', PASSWORD, '--verbose']);
  expect(r.code).toBe(4);
  expectClean(r, []);
});

test('no secret in the output: the password from passwordEnv of phonewright.config.json, --verbose', async ({ serve, tmp }) => {
  const server = await serve({ user: USER, password: PASSWORD });
  await writeFile(path.join(tmp, 'phonewright.config.json'), JSON.stringify({ url: server.url, user: USER, passwordEnv: 'LAB_SECRET' }));
  const ok = await spawnCli(['doctor', '--verbose'], { cwd: tmp, env: { LAB_SECRET: PASSWORD } });
  expect(ok.code).toBe(0);
  expectClean(ok, server.tokens);
  const refused = await run(['login', '--verbose'], { cwd: tmp, env: { LAB_SECRET: WRONG } });
  expect(refused.code).toBe(3);
  expectClean(refused, server.tokens);
});

test('no secret in the output: notifications --follow --verbose, until Ctrl-C', async ({ serve }) => {
  const server = await serve({ user: USER, password: PASSWORD });
  const cli = launch(['notifications', '--follow', '--json', '--verbose', ...creds(server)]);
  await cli.waitFor('stderr', /following new messages/);
  server.post({ app: 'com.example.chat', text: 'new one', time: 1539833828000, id: 'device@1116106541' });
  await cli.waitFor('stdout', /new one/);
  cli.interrupt();
  const r = await cli.exited;
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/notifications\?token=\*\*\*&position=1/);
  expectClean(r, server.tokens);
});

test('login --show-token prints the token it was issued, and still neither the password nor the login header', async ({ serve }) => {
  const server = await serve({ user: USER, password: PASSWORD });
  const r = await spawnCli(['login', '--show-token', '--json', '--verbose', ...creds(server)]);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ ok: true, user: USER, token: server.tokens[0] });
  expect(r.stderr).not.toContain(server.tokens[0]!);
  expectClean({ ...r, stdout: '' }, server.tokens);
});

/** Fails when stdout or stderr holds the password, the login header, or any token the server issued. */
function expectClean(r: CliResult, tokens: string[]): void {
  const all = `${r.stdout}\n${r.stderr}`;
  expect(tokens.length === 0 || tokens.every((t) => t.length === 16)).toBe(true);
  for (const secret of [...FORBIDDEN, ...tokens]) expect(all, `output holds ${secret}`).not.toContain(secret);
}
