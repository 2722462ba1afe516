// Secrets: after `npm start` (the example suites through `phonewright test`, in a copy of the repository's
// config), a merge of its blob, every CLI command, and a failing nightly with traces, neither the password,
// nor the login header, nor any token the server handed out is in stdout, stderr, reports/, test-results/ or
// .phonewright/ — searched byte by byte, in base64 and URL-encoded forms, inside zips and data URLs.
// The `npm start` runs on the simulator's lab preset (reads that take milliseconds, one phone's screen read
// one pixel at a time, phone clocks minutes off): the example suites must pass there too, a verdict that held
// only on the fast, in-sync simulator would fail; one run of the examples says both.
// `test`, `merge` and `nightly` run in processes of their own; the other commands in-process (tests/cli/secrets.test.ts
// and tests/simulator/cli.test.ts run each way a secret comes in through a process of its own).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { launch } from '../cli/helpers.js';
import { findSecrets } from '../fixtures/files.js';
import { expect, test, type InlineProject } from '../helpers/inline.js';
import { readRun } from '../helpers/inline-report.js';
import { cli, type CliResult } from '../helpers/bad-input.js';
import { EXAMPLE_PHONES, repoConfigProject, TESTS_PER_PHONE } from '../helpers/example-project.js';
import { startWatchedSim, type WatchedSim } from '../faults/faulty-sim.js';
import { startTokenSpy, type TokenSpy } from '../helpers/token-spy.js';

const USER = 'qa-nightly-7';
const PASSWORD = 'Sx9-pw-Lk7-Qm2r';
const WRONG = 'Wr4-bad-Zp3-Tn8v';
const S9 = 'device@1116106541';
const MOTO = 'device@-230441652';
/** What a run's files are searched in: the places a user shares or keeps. */
const FOLDERS = ['reports', 'merged', 'test-results', '.phonewright'];

interface Lab {
  sim: WatchedSim;
  spy: TokenSpy;
  project: InlineProject;
  /** The run's environment: the spy as the run's simulator, the user and password as the variables give them. */
  env: Record<string, string>;
  outputs: (CliResult & { name: string })[];
  run(name: string, args: string[], env?: Record<string, string>): Promise<CliResult>;
}

const labs: Lab[] = [];
test.afterEach(async () => {
  for (const lab of labs.splice(0)) {
    await lab.spy.close();
    await lab.sim.close();
  }
});

test('npm start on the lab preset, a merge of its blob, every CLI command: every example passes, no password or token anywhere', async ({ inline }) => {
  test.setTimeout(120_000);
  const lab = await openLab(inline.project, { lab: true });
  const url = ['--url', lab.spy.url];
  // The preset is in force: every phone's clock is off.
  expect(lab.sim.phones.map((p) => p.clockOffsetMs).every((ms) => ms !== 0)).toBe(true);

  // npm start: the example suites on every phone; the blob reporter on, so `merge` has something to join.
  const start = await lab.run('test', ['test'], { PHONEWRIGHT_BLOB: '1' });
  expect(start.stdout, start.stderr).toContain(`${EXAMPLE_PHONES.length * TESTS_PER_PHONE} passed, 0 failed`);
  expect(start.code).toBe(0);
  // The waiters saw the phones' messages with their own clocks' times, minutes away from this machine's.
  const run = readRun(lab.project.path('reports'), { dir: lab.project.dir, exitCode: start.code ?? 1, stdout: start.stdout, stderr: start.stderr });
  expect(run.summary.total).toEqual({ passed: EXAMPLE_PHONES.length * TESTS_PER_PHONE, failed: 0, skipped: 0, flaky: 0 });
  const seen = JSON.parse(run.test('a login code arrives as a notification', 'moto-g5').attachment('notifications-seen.json').toString('utf8')) as { time: number }[];
  expect(seen.length).toBeGreaterThan(0);
  for (const m of seen) expect(Math.abs(m.time - Date.now())).toBeGreaterThan(30_000);
  expect((await lab.run('merge', ['merge', 'reports/blob', '--output', 'merged', '--no-history'])).code).toBe(0);
  expect(existsSync(lab.project.path('merged', 'html', 'index.html'))).toBe(true);

  // Every command, human and --json, most with --verbose (every request described).
  const shown = await lab.run('login --show-token', ['login', '--show-token', '--json', ...url]);
  const token = (JSON.parse(shown.stdout) as { token: string }).token;
  expect(lab.spy.tokens).toContain(token); // the one place a token is printed, on request: the needle is real
  lab.outputs.pop();
  const commands: [string, string[], number][] = [
    ['login', ['login', '--verbose'], 0],
    ['login --json', ['login', '--json'], 0],
    ['main-device', ['main-device', '--verbose'], 0],
    ['pixel', ['pixel', 'main', '100', '100', '--json', '--verbose'], 0],
    ['pixel off the screen', ['pixel', 'main', '5000', '5', '--verbose'], 2],
    ['settings', ['settings', 'main', '--json', '--verbose'], 0],
    ['settings, password as a flag', ['settings', S9, '--password', PASSWORD, '--verbose'], 0],
    ['notifications', ['notifications', '--count', '20', '--json', '--verbose'], 0],
    ['upload', ['upload', 'specs/assets/login.js', '--as', 'script', '--verbose'], 0],
    ['upload to a folder', ['upload', 'specs/assets/example-app.apk', '--as', 'local/drop', '--json'], 0],
    ['doctor', ['doctor', '--verbose'], 0],
    ['a wrong password', ['main-device', '--verbose'], 3],
  ];
  for (const [name, args, code] of commands) {
    const r = await lab.run(name, [...args, ...url], name === 'a wrong password' ? { PHONEWRIGHT_PASSWORD: WRONG } : {});
    expect(r.code, `${name}: ${r.stderr}`).toBe(code);
  }
  expect(lab.outputs.at(-1)!.stderr).toContain(`login refused for user "${USER}"`);
  await follow(lab);
  await simCommand(lab);

  const files = await filesOf(lab.project);
  for (const kind of [/reports\/html\/index\.html$/, /reports\/results\.json$/, /reports\/junit\.xml$/, /reports\/blob\/[^/]+\.zip$/, /merged\/html\/index\.html$/, /\.phonewright\/push-cache\.json$/]) {
    expect(files.some((f) => kind.test(f)), String(kind)).toBe(true);
  }
  expectNoSecrets(lab, files, { 'wrong password': WRONG, 'wrong login header': basic(USER, WRONG) });
});

test('a failing nightly with traces: no password or token in its output, reports, history or traces', async ({ inline }) => {
  test.setTimeout(120_000);
  const lab = await openLab(inline.project);
  // A product failure (the wallpaper repainted under a pixel check) and an infrastructure one (a phone unplugged).
  lab.sim.fillRect(S9, { x: 12, y: 950, width: 20, height: 20, color: '0xff00ff' });
  lab.sim.setOnline(MOTO, false);

  // On those two phones only: the other two would add nothing these two do not.
  const nightly = await lab.run('nightly', ['nightly', '--retries', '1', '--trace', 'on'], { PHONEWRIGHT_DEVICES: 'galaxy-s9,moto-g5' });
  expect(nightly.code, nightly.stderr).toBe(1);
  // The unplugged phone counts as one failure: the run could not test it, and the nightly says so first.
  expect(nightly.stdout).toContain(`${TESTS_PER_PHONE - 1} passed, 2 failed, ${TESTS_PER_PHONE} skipped`);
  expect(nightly.stderr).toMatch(/^phonewright: the nightly run did not test every phone: moto-g5 \(device@-230441652\) on simulator: .*; try: bring the phone back, or allow it: "unreachablePhones": "skip"/m);
  const files = await filesOf(lab.project);
  for (const kind of [/reports\/history\/[^/]+\.json$/, /reports\/nightly\.md$/, /reports\/trend\.html$/, /reports\/html\/index\.html$/, /reports\/junit\.xml$/, /\/trace\.zip$/, /reports\/html\/data\/\w+\.png$/, /error-context\.md$/]) {
    expect(files.some((f) => kind.test(f)), String(kind)).toBe(true);
  }
  expectNoSecrets(lab, files);
  // The search does see inside: the phone ids are found in the traces and in the HTML report's embedded data.
  const seen = files.flatMap((f) => findSecrets(f, { phone: S9 }));
  expect(seen).toEqual(expect.arrayContaining([expect.stringMatching(/\/trace\.zip!.*: phone$/), expect.stringMatching(/html\/index\.html\(data url\)!.*: phone$/)]));
});

async function openLab(make: Parameters<typeof repoConfigProject>[0], options: { lab?: true } = {}): Promise<Lab> {
  const sim = await startWatchedSim({ user: USER, password: PASSWORD, ...options });
  const spy = await startTokenSpy(sim.url);
  const project = await repoConfigProject(make);
  const env = { PHONEWRIGHT_SIM_URL: spy.url, PHONEWRIGHT_SIM_ADMIN_KEY: sim.adminKey, PHONEWRIGHT_USER: USER, PHONEWRIGHT_PASSWORD: PASSWORD, PW_TEST_HTML_REPORT_OPEN: 'never' };
  const outputs: Lab['outputs'] = [];
  const lab: Lab = {
    sim,
    spy,
    project,
    env,
    outputs,
    run: async (name, args, more = {}) => {
      const r = await cli(args, { cwd: project.dir, env: { ...env, ...more } });
      outputs.push({ name, ...r });
      return r;
    },
  };
  labs.push(lab);
  return lab;
}

/** `notifications --follow` until a message posted after it armed is printed. */
async function follow(lab: Lab): Promise<void> {
  const live = launch(['notifications', '--follow', '--url', lab.spy.url], { cwd: lab.project.dir, env: { PHONEWRIGHT_USER: USER, PHONEWRIGHT_PASSWORD: PASSWORD } });
  await live.waitFor('stderr', /following new messages/);
  lab.sim.postNotification({ device: S9, app: 'com.example.chat', text: 'code 482913' });
  await live.waitFor('stdout', /code 482913/);
  live.interrupt();
  lab.outputs.push({ name: 'notifications --follow', ...(await live.exited) });
}

/** `phonewright sim` with the password in the environment, until it says where it listens. */
async function simCommand(lab: Lab): Promise<void> {
  const live = launch(['sim', '--port', '0'], { cwd: lab.project.dir, env: { PHONEWRIGHT_USER: USER, PHONEWRIGHT_PASSWORD: PASSWORD } });
  await live.waitFor('stderr', /Serving until Ctrl-C/);
  live.interrupt();
  const r = await live.exited;
  expect(r.stdout).toContain('password:  (as given in PHONEWRIGHT_PASSWORD)');
  lab.outputs.push({ name: 'sim', ...r });
}

/** Every file under the folders a run leaves behind. */
async function filesOf(project: InlineProject): Promise<string[]> {
  const files = (await Promise.all(FOLDERS.map((f) => project.filesUnder(f)))).flat();
  expect(files.length).toBeGreaterThan(0);
  return files;
}

/** Neither the password, nor its login header, nor any token issued, in any output or file. */
function expectNoSecrets(lab: Lab, files: string[], more: Record<string, string> = {}): void {
  expect(lab.spy.tokens.size, 'tokens issued').toBeGreaterThan(0);
  const needles = { password: PASSWORD, 'login header': basic(USER, PASSWORD), ...more, ...Object.fromEntries([...lab.spy.tokens].map((t, i) => [`token ${i + 1}`, t])) };
  expect(files.flatMap((f) => findSecrets(f, needles)).map((hit) => path.relative(lab.project.dir, hit))).toEqual([]);
  for (const o of lab.outputs) {
    for (const [name, needle] of Object.entries(needles)) {
      expect(o.stdout, `${name} on the stdout of ${o.name}`).not.toContain(needle);
      expect(o.stderr, `${name} on the stderr of ${o.name}`).not.toContain(needle);
    }
  }
}

function basic(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`).toString('base64');
}
