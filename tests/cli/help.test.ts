// Help that answers the question, and bad usage at the root: an unknown command gets a recommendation.
// The root `--help`, `--version` and one bad usage run in a process of their own (yargs writes them; main prints
// them on the real stdout, wrapped for a pipe); each command's help and the other cases in-process (main()).
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LAB_PRESET, type Latency } from '../../src/simulator/index.js';
import { errorLine, expect, ROOT, run, spawnCli, test } from './helpers.js';

const GLOBAL_FLAGS = ['--url', '--user', '--password', '--api-root', '--server', '--json', '--verbose', '--help'];
const ENV_VARS = ['PHONEWRIGHT_URL', 'PHONEWRIGHT_USER', 'PHONEWRIGHT_PASSWORD', 'PHONEWRIGHT_API_ROOT', 'PHONEWRIGHT_SERVER'];

test('phonewright --help: every command, every global flag and variable, the config file and the exit codes', async () => {
  const r = await spawnCli(['--help']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  for (const command of ['login', 'main-device', 'devices', 'pixel <device> <x> <y>', 'screenshot <device>', 'tap <device> <x> <y>', 'press <device> <key>', 'launch <device> <package>', 'close-app <device> <package>', 'settings <device>', 'notifications', 'upload <file>', 'approve', 'doctor']) {
    expect(r.stdout).toContain(`phonewright ${command} `);
  }
  const text = flat(r.stdout);
  for (const t of [...GLOBAL_FLAGS, ...ENV_VARS, 'phonewright.config.json', 'passwordEnv']) expect(text).toContain(t);
  expect(text).toMatch(/Exit codes: 0 success; 1 [^;]+; 2 bad usage or input; 3 authentication failed; 4 server unreachable/);
  // Words are wrapped whole: yargs' ESM build would cut "command" into "comman" and "d".
  for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(110);
  expect(text).toContain('Every command works against the embedded simulator when no server is configured');
});

const COMMAND_HELP: { command: string; mentions: string[] }[] = [
  { command: 'login', mentions: ['--show-token', 'only command that ever prints it', '"ok":true'] },
  { command: 'main-device', mentions: ['{"id":"device@1116106541"}', '"main"'] },
  { command: 'pixel', mentions: ['<device> <x> <y>', '{"r":37,"g":66,"b":92,"rgb":"0x25425c"}', 'exit 2'] },
  { command: 'settings', mentions: ['<device>', 'display_hw_decode as 0 or 1', '{"w", "h"}', 'HA1'] },
  { command: 'notifications', mentions: ['--position', '--count', '--device', '--app', '--match', '--follow', 'NDJSON', 'Ctrl-C', '{"app","text","time","id"}'] },
  { command: 'upload', mentions: ['--as', 'image, script, apk, tcbr/contacts, local/<folder>', 'progress bar', '{"file_url":'] },
  { command: 'approve', mentions: ['--project', '--grep', '--dry-run', 'reports/results.json', '"-actual.png"', 'git diff', '2 no last run'] },
  { command: 'doctor', mentions: ['reachable, login, main device, settings, pixel, notifications', '--device', '4 unreachable, 3 login refused'] },
  // The vendor's routes beyond the interface: each help says so, and how a server without them answers.
  { command: 'devices', mentions: ['beyond the device-control interface', '"model":"SM-G960F"', 'exit 1'] },
  { command: 'screenshot', mentions: ['--rect', '--out', 'beyond the device-control interface', '{"file":"corner.png","width":30,"height":40}'] },
  { command: 'tap', mentions: ['<device> <x> <y>', 'prints {"ok":true}', 'beyond the device-control interface', 'not retried once the server may have done it'] },
  { command: 'press', mentions: ['<device> <key>', 'home, back, menu, space, backspace, enter', 'beyond the device-control interface'] },
  { command: 'launch', mentions: ['<device> <package>', 'com.example.chat', 'beyond the device-control interface'] },
  { command: 'close-app', mentions: ['<device> <package>', 'prints {"ok":true}', 'beyond the device-control interface'] },
  { command: 'init', mentions: ['--password-env', '--yes', 'specs/example.spec.ts', 'phonewright/fixtures', 'is never replaced', 'npx playwright test', '2 bad input (nothing is written)'] },
];

for (const { command, mentions } of COMMAND_HELP) {
  test(`phonewright ${command} --help: its flags and examples, and the global flags with their variables`, async () => {
    const r = await run([command, '--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^phonewright ${command}\\b`));
    expect(r.stdout).toContain('Examples:');
    for (const text of [...mentions, ...GLOBAL_FLAGS, ...ENV_VARS]) expect(flat(r.stdout)).toContain(text);
  });
}

test('sim --help gives the lab\'s figures as the lab preset has them', async () => {
  const r = await run(['sim', '--help']);
  expect(r.code).toBe(0);
  const ms = (l: Latency | undefined) => (typeof l === 'number' ? `${l} ms` : `${l![0]}-${l![1]} ms`);
  const clock = (offset: number) => `${offset < 0 ? '-' : '+'}${Math.abs(offset) % 60_000 === 0 ? `${Math.abs(offset) / 60_000} min` : `${Math.abs(offset) / 1000} s`}`;
  const l = LAB_PRESET.latencyMs!;
  // One figure stands for both in the help.
  expect(l.upload).toEqual(l.login);
  expect(flat(r.stdout)).toContain(
    `--lab: a pixel read waits for a ${ms(LAB_PRESET.screenGrabMs)} frame grab, one at a time per phone, then takes ${ms(l.pixel)} more (overlapping other reads); ` +
      `settings ${ms(l.settings)}; notifications ${ms(l.notifications)}; login and uploads ${ms(l.login)}; screen captures ${ms(l.capture)}; ` +
      `taps and keys ${ms(l.script)}; starting or closing an app ${ms(l.appState)}; phone clocks ${LAB_PRESET.clockOffsetCycleMs!.map(clock).join(', ')} off in turn`,
  );
});

test('--version prints the package version, whatever package the working folder belongs to', async ({ tmp }) => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  await writeFile(path.join(tmp, 'package.json'), JSON.stringify({ name: 'qa-suite', version: '9.9.9' }));
  expect(await spawnCli(['--version'], { cwd: tmp })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  expect(await run(['--version'], { cwd: tmp })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
});

const BAD_USAGE: { args: string[]; says: RegExp; spawned?: true }[] = [
  { args: ['pixle', 'main', '1', '1'], says: /^phonewright: unknown command "pixle"; did you mean "pixel"\?; try: phonewright pixel --help/, spawned: true },
  { args: ['settigns'], says: /unknown command "settigns"; did you mean "settings"\?/ },
  { args: ['frobnicate'], says: /unknown command "frobnicate"; try: phonewright --help lists the commands: login, main-device, devices, pixel, screenshot, tap, swipe, long-press, type, press, launch, close-app, settings/ },
  { args: [], says: /^phonewright: name a command; try: phonewright --help$/ },
  { args: ['login', '--frob'], says: /unknown argument: frob; try: phonewright login --help$/ },
  { args: ['settings'], says: /not enough non-option arguments: got 0, need at least 1; try: phonewright settings --help/ },
];

for (const { args, says, spawned } of BAD_USAGE) {
  test(`bad usage exits 2 with one line: phonewright ${args.join(' ') || '(nothing)'}`, async () => {
    const r = await (spawned ? spawnCli(args) : run(args));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
  });
}

/** Help text with its line wrapping undone, so a phrase can be looked for wherever the wrap fell. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}
