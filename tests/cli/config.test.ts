// Where a command's server comes from: flag, then environment, then phonewright.config.json (run in a temp
// folder holding the file); a password only ever through the environment variable the file names. In-process,
// with an environment and a working folder of the test's own; the first run of the first test in a process of its
// own (the file found in the process's working folder, the password in its environment).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorLine, expect, run, spawnCli, test, type FakeServer } from './helpers.js';

async function configIn(dir: string, config: unknown, name = 'phonewright.config.json'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return file;
}

test('flag > environment > phonewright.config.json, for the URL, the user and the password', async ({ serve, tmp }) => {
  const fromFile = await serve({ user: 'file-user', password: 'file-Pw-1' });
  const fromEnv = await serve({ user: 'env-user', password: 'env-Pw-2' });
  const fromFlag = await serve({ user: 'flag-user', password: 'flag-Pw-3' });
  await configIn(tmp, { url: fromFile.url, user: 'file-user', passwordEnv: 'LAB_PASSWORD' });
  const env = { LAB_PASSWORD: 'file-Pw-1' };
  const envVars = { ...env, PHONEWRIGHT_URL: fromEnv.url, PHONEWRIGHT_USER: 'env-user', PHONEWRIGHT_PASSWORD: 'env-Pw-2' };
  const logins = (s: FakeServer) => s.count('login');

  expect(await spawnCli(['login', '--json'], { cwd: tmp, env })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"file-user"}\n' });
  expect([logins(fromFile), logins(fromEnv), logins(fromFlag)]).toEqual([1, 0, 0]);

  expect(await run(['login', '--json'], { cwd: tmp, env: envVars })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"env-user"}\n' });
  expect([logins(fromFile), logins(fromEnv), logins(fromFlag)]).toEqual([1, 1, 0]);

  const flags = ['--url', fromFlag.url, '--user', 'flag-user', '--password', 'flag-Pw-3'];
  expect(await run(['login', '--json', ...flags], { cwd: tmp, env: envVars })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"flag-user"}\n' });
  expect([logins(fromFile), logins(fromEnv), logins(fromFlag)]).toEqual([1, 1, 1]);
});

test('the API root: flag > PHONEWRIGHT_API_ROOT > the file', async ({ serve, tmp }) => {
  const server = await serve({ apiRoot: '/Service/v1' });
  await configIn(tmp, { url: server.url, apiRoot: '/Service/v1' });
  expect(await run(['main-device', '--json'], { cwd: tmp })).toMatchObject({ code: 0 });
  const wrongEnv = await run(['main-device', '--json'], { cwd: tmp, env: { PHONEWRIGHT_API_ROOT: '/TotalControl/v1' } });
  expect(wrongEnv.code).toBe(1);
  expect(errorLine(wrongEnv)).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/login/);
  const flag = await run(['main-device', '--api-root', '/Service/v1', '--json'], { cwd: tmp, env: { PHONEWRIGHT_API_ROOT: '/TotalControl/v1' } });
  expect(flag).toMatchObject({ code: 0, stdout: '{"id":"device@1116106541"}\n' });
});

test('several servers in the file: --server or PHONEWRIGHT_SERVER chooses; none chosen is exit 2', async ({ serve, tmp }) => {
  const a = await serve({ user: 'a-user' });
  const b = await serve({ user: 'b-user' });
  await configIn(tmp, { servers: [{ name: 'lab-a', url: a.url, user: 'a-user' }, { name: 'lab-b', url: b.url, user: 'b-user' }] });
  const none = await run(['login'], { cwd: tmp });
  expect(none.code).toBe(2);
  expect(errorLine(none)).toMatch(/lists 2 servers \(lab-a, lab-b\); try: choose one with --server NAME/);
  expect(await run(['login', '--json', '--server', 'lab-b'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"b-user"}\n' });
  const env = await run(['login', '--json'], { cwd: tmp, env: { PHONEWRIGHT_SERVER: 'lab-a' } });
  expect(env).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"a-user"}\n' });
  const flagOverEnv = await run(['login', '--json', '--server', 'lab-b'], { cwd: tmp, env: { PHONEWRIGHT_SERVER: 'lab-a' } });
  expect(flagOverEnv.stdout).toBe('{"ok":true,"user":"b-user"}\n');
  const unknown = await run(['login', '--server', 'lab-z'], { cwd: tmp });
  expect(unknown.code).toBe(2);
  expect(errorLine(unknown)).toMatch(/no server named "lab-z" in .*phonewright\.config\.json; try: one of lab-a, lab-b/);
  expect(a.count('login') + b.count('login')).toBe(3);
});

test('PHONEWRIGHT_CONFIG names another file; a named file that is missing is exit 2', async ({ serve, tmp }) => {
  const server = await serve({ user: 'named' });
  await configIn(tmp, { url: server.url, user: 'named' }, 'lab.json');
  expect(await run(['login', '--json'], { cwd: tmp, env: { PHONEWRIGHT_CONFIG: 'lab.json' } })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"named"}\n' });
  const missing = await run(['login'], { cwd: tmp, env: { PHONEWRIGHT_CONFIG: 'nope.json' } });
  expect(missing.code).toBe(2);
  expect(errorLine(missing)).toMatch(/nope\.json does not exist; try: check PHONEWRIGHT_CONFIG/);
});

const REFUSED: { name: string; config: unknown; env?: Record<string, string>; says: RegExp }[] = [
  {
    name: 'passwordEnv names a variable that is not set',
    config: { url: 'http://127.0.0.1:9', passwordEnv: 'LAB_PASSWORD' },
    says: /server "default": the environment variable LAB_PASSWORD \(its passwordEnv\) is not set; try: export LAB_PASSWORD=… before running, or pass --password/,
  },
  {
    name: 'a password written in the file',
    config: { servers: [{ name: 'lab', url: 'http://127.0.0.1:9', password: 'in-the-file-Pw' }] },
    says: /servers\[0\]\.password: a password is never written in the configuration file; try: name the environment variable/,
  },
  { name: 'an unknown key', config: { url: 'http://127.0.0.1:9', timeout: 5 }, says: /top level: unknown key "timeout"/ },
  { name: 'a file that is not JSON', config: '{ "url": ', says: /phonewright\.config\.json is not valid JSON/ },
  { name: 'a URL that is not one', config: { url: 'lab-server:8090' }, says: /top level.url: lab-server: is not http: or https:/ },
];

for (const { name, config, env, says } of REFUSED) {
  test(`the config file is refused, exit 2, nothing sent: ${name}`, async ({ tmp }) => {
    await configIn(tmp, config);
    const r = await run(['main-device', '--json'], { cwd: tmp, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
    expect(r.stderr).not.toContain('in-the-file-Pw');
  });
}

test('PHONEWRIGHT_URL that is not a URL: exit 2, naming the variable', async ({ tmp }) => {
  const r = await run(['login'], { cwd: tmp, env: { PHONEWRIGHT_URL: 'ftp://lab:21' } });
  expect(r.code).toBe(2);
  expect(errorLine(r)).toBe('phonewright: PHONEWRIGHT_URL: ftp: is not http: or https:');
});

test('--password beats passwordEnv, which then need not be set', async ({ serve, tmp }) => {
  const server = await serve({ password: 'flag-wins-Pw' });
  await configIn(tmp, { url: server.url, passwordEnv: 'UNSET_PASSWORD_VAR' });
  expect(await run(['login', '--json', '--password', 'flag-wins-Pw'], { cwd: tmp })).toMatchObject({ code: 0, stdout: '{"ok":true,"user":"sigma"}\n' });
});
