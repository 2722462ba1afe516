// `phonewright init` in a team's folder, in-process: bad input refused in one line with nothing written; files
// that are there kept and named (a Playwright config of any extension, phonewright.config.json, the .gitignore
// lines it holds already); the questions on a terminal and none without one or with --yes; the next two commands
// as the folder stands. The installed package's init, run to a green matrix, is init-installed.test.ts.
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { processOutput } from '../../src/cli/output.js';
import { cli, expect, expectRefused, listing, test, writeFiles } from '../helpers/bad-input.js';
import { cliEnv, collect, type CliResult } from '../helpers/spawn.js';

const URL = 'http://10.0.0.5:8090';
const FILES = ['playwright.config.ts', 'phonewright.config.json', 'specs/example.spec.ts', '.gitignore', '.github/workflows/phonewright-nightly.yml'];

interface Refusal {
  name: string;
  args: string[];
  /** The line after `phonewright: `. */
  error: string;
  /** What the line must not hold: a password typed where it does not belong. */
  secret?: string;
}

const REFUSALS: Refusal[] = [
  { name: 'a URL of another scheme', args: ['--url', 'ftp://lab:8090'], error: '--url "ftp://lab:8090" is not an http or https URL; try: --url http://10.0.0.5:8090' },
  { name: 'a host and port without the scheme', args: ['--url', '10.0.0.5:8090'], error: '--url "10.0.0.5:8090" is not an http or https URL; try: --url http://10.0.0.5:8090' },
  { name: 'a host name and port without the scheme', args: ['--url', 'lab:8090'], error: '--url "lab:8090" is not an http or https URL; try: --url http://lab:8090' },
  { name: 'a URL with a query', args: ['--url', `${URL}/?x=1`], error: `--url "${URL}/?x=1" has a query or fragment; try: the server's base URL, e.g. --url http://10.0.0.5:8090` },
  {
    name: 'a URL holding the password',
    args: ['--url', 'http://sigma:s3cret@10.0.0.5:8090'],
    error: '--url holds a user or password, which phonewright.config.json never keeps; try: --url with the host alone, and --user NAME --password-env VARIABLE',
    secret: 's3cret',
  },
  {
    name: 'the password given to --password-env',
    args: ['--url', URL, '--password-env', '3D391497'],
    error: '--password-env takes the name of an environment variable (letters, digits and "_", not starting with a digit), and what was given is not one; try: name the variable that holds the password, never the password itself: --password-env LAB_PASSWORD',
    secret: '3D391497',
  },
  {
    name: 'a variable name with a dash',
    args: ['--url', URL, '--password-env', 'LAB-PASSWORD'],
    error: '--password-env takes the name of an environment variable (letters, digits and "_", not starting with a digit), and what was given is not one; try: name the variable that holds the password, never the password itself: --password-env LAB_PASSWORD',
  },
  { name: 'a password', args: ['--url', URL, '--password', 's3cret'], error: 'init writes no password; try: name the environment variable that holds it: --password-env LAB_PASSWORD', secret: 's3cret' },
  { name: 'a user with a colon', args: ['--url', URL, '--user', 'sigma:x'], error: '--user "sigma:x" holds a ":", which no user name may; try: the user name alone, e.g. --user sigma' },
  { name: 'a server\'s password variable without a server', args: ['--password-env', 'LAB_PASSWORD'], error: '--password-env describes a server, and no --url was given; try: give the server: --url http://10.0.0.5:8090' },
  { name: 'a server name that is not one', args: ['--url', URL, '--server', 'lab a'], error: '--server "lab a" is not a server name; try: letters, digits, ".", "_" and "-", e.g. --server lab-a' },
];

for (const c of REFUSALS) {
  test(`init refuses ${c.name}: one line, exit 2, nothing written`, async ({ dir }) => {
    await writeFiles(dir, { 'package.json': '{"name":"team-app"}\n' });
    const before = await listing(dir);
    const r = await cli(['init', '--yes', ...c.args], { cwd: dir });
    expectRefused(r, c.error, 2);
    if (c.secret) expect(r.stderr).not.toContain(c.secret);
    expect(await listing(dir)).toEqual(before);
  });
}

test('init keeps what is there: a Playwright config of any extension, phonewright.config.json, the .gitignore lines it has', async ({ dir }) => {
  const own = { 'package.json': '{"name":"team-app"}\n', 'playwright.config.js': 'export default {};\n', 'phonewright.config.json': '{}\n', '.gitignore': 'node_modules\n/reports' };
  await writeFiles(dir, own);
  const r = await cli(['init', '--yes', '--json', '--url', URL], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({
    written: ['specs/example.spec.ts', '.gitignore', '.github/workflows/phonewright-nightly.yml'],
    kept: ['playwright.config.js', 'phonewright.config.json'],
    // Not installed here: the first thing to do is to install it.
    next: ['npm i -D phonewright @playwright/test', 'npx phonewright doctor'],
  });
  for (const [file, content] of Object.entries(own).filter(([f]) => f !== '.gitignore')) expect(await readFile(path.join(dir, file), 'utf8')).toBe(content);
  // No second config beside the team's: Playwright would take the .ts one and leave theirs unread.
  expect((await listing(dir)).some((f) => f.startsWith('playwright.config.ts'))).toBe(false);
  // The lines the file lacked, after its own (which had no newline at its end): `node_modules` and `/reports` are
  // node_modules/ and reports/ already.
  expect(await readFile(path.join(dir, '.gitignore'), 'utf8')).toBe(
    "node_modules\n/reports\n\n# phonewright: the installed packages, the runs' reports and results, this machine's record of its uploads\ntest-results/\n.phonewright/\n",
  );

  // Said to people: what was left alone and why, the server given not written into the file that was there.
  const again = await cli(['init', '--yes', '--url', URL], { cwd: dir });
  expect(again.code, again.stderr).toBe(0);
  expectLines(again.stdout, [
    /^kept {3}playwright\.config\.js +there already, left as it is: add the device matrix and phonewright's reporters to it \(node_modules\/phonewright\/docs\/configuration\.md, "A config of your own"\)$/,
    /^kept {3}phonewright\.config\.json +there already, left as it is: the server given was not written into it$/,
    /^kept {3}specs\/example\.spec\.ts +there already, left as it is$/,
    /^kept {3}\.gitignore +it ignores node_modules\/, reports\/, test-results\/, \.phonewright\/ already$/,
    /^kept {3}\.github\/workflows\/phonewright-nightly\.yml +there already, left as it is$/,
    /^$/,
    /^Next:$/,
    /^ {2}npm i -D phonewright @playwright\/test$/,
    /^ {2}npx phonewright doctor$/,
  ]);
});

test('init writes nothing through a link: a specs/ folder linking out of the project is refused, a link at a file is kept', async ({ dir }) => {
  const outside = `${dir}-outside`;
  await mkdir(outside, { recursive: true });
  try {
    await writeFiles(dir, { 'package.json': '{"name":"team-app"}\n' });
    await symlink(outside, path.join(dir, 'specs'));
    const before = await listing(dir);
    const r = await cli(['init', '--yes'], { cwd: dir });
    expectRefused(r, /^phonewright: refused to write .*specs\/example\.spec\.ts: its folder .*specs is a symbolic link out of the project's folder .*; nothing was written; try: /, 2);
    expect(await listing(dir)).toEqual(before);
    expect(await readdir(outside)).toEqual([]);

    // A link where init would write a file is a file that is there: kept, and what it leads to is not written.
    await rm(path.join(dir, 'specs'));
    await mkdir(path.join(dir, 'specs'));
    await symlink(path.join(outside, 'spec.ts'), path.join(dir, 'specs', 'example.spec.ts'));
    const kept = await cli(['init', '--yes', '--json'], { cwd: dir });
    expect(kept.code, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout).kept).toContain('specs/example.spec.ts');
    expect(await readdir(outside)).toEqual([]);
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});

test('init on a terminal asks for the server, its user and password variable; the answers are written, never a password', async ({ dir }) => {
  await writeFiles(dir, { 'package.json': '{"name":"team-app","type":"module"}\n' });
  const asked: string[] = [];
  const answers = [URL, '', 'LAB_PASSWORD'];
  const r = await runWith(['init'], dir, async (question) => (asked.push(question), answers.shift()!));
  expect(r.code, r.stderr).toBe(0);
  expect(asked).toEqual([
    'Server URL, e.g. http://10.0.0.5:8090 (empty: the embedded simulator): ',
    'User (empty: sigma): ',
    'Environment variable that holds the password (empty: PHONEWRIGHT_PASSWORD, when set): ',
  ]);
  expect(JSON.parse(await readFile(path.join(dir, 'phonewright.config.json'), 'utf8'))).toEqual({
    $schema: './node_modules/phonewright/config.schema.json',
    servers: [{ name: 'lab', url: URL, passwordEnv: 'LAB_PASSWORD' }],
  });
  // The variable is not set here: the next commands say to set it.
  expect(r.stdout).toContain('Next:\n  npm i -D phonewright @playwright/test\n  LAB_PASSWORD=… npx phonewright doctor\n');
  // An ES module package: the config's folder is import.meta.dirname (__dirname does not exist there).
  const config = await readFile(path.join(dir, 'playwright.config.ts'), 'utf8');
  expect(config).toContain("deviceMatrix({ testDir: 'specs', configDir: import.meta.dirname })");
  // The run's settings of phonewright's own config, written as a person writes them.
  expect(config).toContain('  fullyParallel: false,\n  retries: 0,\n  timeout: 30_000,\n  expect: { timeout: 5_000 },\n  forbidOnly: !!process.env.CI,\n');
  // The secret goes to the workflow by the variable's name.
  expect(await readFile(path.join(dir, FILES[4]!), 'utf8')).toContain('LAB_PASSWORD: ${{ secrets.LAB_PASSWORD }}');
});

test('init asks nothing with --yes, nor without a terminal: the embedded simulator', async ({ dir }) => {
  const refuse = async (question: string): Promise<string> => {
    throw new Error(`asked ${question}`);
  };
  const yes = await runWith(['init', '--yes', '--json'], dir, refuse);
  expect(yes.code, yes.stderr).toBe(0);
  expect(JSON.parse(yes.stdout).written).toEqual(FILES);
  expect(JSON.parse(await readFile(path.join(dir, 'phonewright.config.json'), 'utf8'))).toEqual({ $schema: './node_modules/phonewright/config.schema.json' });
  // No package.json saying otherwise: a CommonJS package, whose config's folder is __dirname.
  expect(await readFile(path.join(dir, 'playwright.config.ts'), 'utf8')).toContain("configDir: __dirname })");

  const piped = await runWith(['init', '--json'], dir, undefined);
  expect(piped.code, piped.stderr).toBe(0);
  expect(JSON.parse(piped.stdout)).toMatchObject({ written: [], kept: FILES });
});

/** Holds each line of `text` to its pattern, in order: a line more or less fails. */
function expectLines(text: string, patterns: RegExp[]): void {
  const all = text.replace(/\n$/, '').split('\n');
  expect(all, text).toHaveLength(patterns.length);
  patterns.forEach((pattern, i) => expect(all[i], `line ${i + 1}`).toMatch(pattern));
}

/** Runs the CLI in-process in `cwd` with a terminal that answers through `ask` (undefined: no terminal). */
async function runWith(args: string[], cwd: string, ask: ((question: string) => Promise<string>) | undefined): Promise<CliResult> {
  const live = collect();
  const output = processOutput({ write: (t: string) => live.write('stdout', t) }, { write: (t: string) => live.write('stderr', t) });
  const code = await main(args, output, { env: cliEnv(), cwd, columns: undefined, ask });
  return live.end(code);
}

test('init --agents writes .vscode/mcp.json and adds its section to AGENTS.md once, keeping what is there', async ({ dir }) => {
  await writeFiles(dir, { 'AGENTS.md': '# Agents\n\nRun npm test before committing.\n' });
  const r = await cli(['init', '--yes', '--agents', '--json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).written).toEqual([...FILES, '.vscode/mcp.json', 'AGENTS.md']);
  expect(JSON.parse(await readFile(path.join(dir, '.vscode/mcp.json'), 'utf8'))).toEqual({ servers: { phonewright: { type: 'stdio', command: 'npx', args: ['phonewright', 'mcp'] } } });
  const agents = await readFile(path.join(dir, 'AGENTS.md'), 'utf8');
  expect(agents).toMatch(/^# Agents\n\nRun npm test before committing\.\n\n## Writing phonewright specs\n/);
  expect(agents).toContain("import { test, expect } from 'phonewright/fixtures';");

  const again = await cli(['init', '--yes', '--agents', '--json'], { cwd: dir });
  expect(JSON.parse(again.stdout)).toMatchObject({ written: [], kept: [...FILES, '.vscode/mcp.json', 'AGENTS.md'] });
  expect(await readFile(path.join(dir, 'AGENTS.md'), 'utf8')).toBe(agents);
});
