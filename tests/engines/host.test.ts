// The host's engines: workers of a build (processes importing its dist/, as an installed phonewright's do) share
// one process holding OpenCV and the OCR engine. It answers as the engines in a worker would; workers that start
// together start one host; a host that stops mid-call is started again and asked once more; a misuse comes back
// as the same error.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '../helpers/test.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/**
 * A build of its own (the checkout's dist/src copied beside its node_modules): its host is this file's alone, so
 * stopping it stops no other test's engines.
 */
const BUILD = mkdtempSync(path.join(tmpdir(), 'pw-engines-'));
const CLIENT = path.join(BUILD, 'dist', 'src', 'engines', 'client.js');
const SCREEN = path.join(ROOT, 'docs', 'inspector.png');
/** A part of the inspector's picture with an edge and text in it. */
const CUT = { x: 40, y: 40, width: 240, height: 60 };

/** What a worker of the build asks its engines: the screen's lines, then a search for a part of it, as JSON. */
const WORKER = `
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
const { hostEngines } = await import(${JSON.stringify(CLIENT)});
const { cropImage } = await import(${JSON.stringify(path.join(BUILD, 'dist', 'src', 'image', 'index.js'))});
const png = PNG.sync.read(readFileSync(${JSON.stringify(SCREEN)}));
const screen = { width: png.width, height: png.height, data: new Uint8Array(png.data) };
const engines = hostEngines();
const lines = await engines.read(screen, ['en', 'zh']);
const found = await engines.search(screen, cropImage(screen, ${JSON.stringify(CUT)}), { scale: 1 });
let misuse;
try {
  await engines.search(screen, { width: 20, height: 20, data: new Uint8Array(1600).fill(255) }, { scale: 1 });
} catch (e) {
  misuse = { name: e.constructor.name, message: e.message, hint: e.hint };
}
process.stdout.write(JSON.stringify({ where: engines.where, lines: lines.map((l) => l.text), best: found.best, misuse }));
`;

interface Answer {
  where: string;
  lines: string[];
  best: { x: number; y: number; score: number };
  misuse: { name: string; message: string; hint?: string };
}

function worker(env: NodeJS.ProcessEnv = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WORKER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Answer) : reject(new Error(`worker exited ${code}: ${err}`))));
  });
}

/** The host processes of this build (its socket names the build). */
function hosts(): number[] {
  try {
    return execFileSync('pgrep', ['-f', `${path.join(BUILD, 'dist', 'src', 'engines', 'host.js')} `], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return [];
  }
}

test.describe.configure({ mode: 'serial' });
test.beforeAll(() => {
  writeFileSync(path.join(BUILD, 'package.json'), '{ "name": "phonewright", "type": "module" }\n');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(BUILD, 'node_modules'));
  cpSync(path.join(ROOT, 'dist', 'src'), path.join(BUILD, 'dist', 'src'), { recursive: true });
});
test.afterAll(() => {
  for (const pid of hosts()) process.kill(pid);
  rmSync(BUILD, { recursive: true, force: true });
});

test('workers started together share one host, which answers as the engines in a worker do; a misuse is the same error', async () => {
  // PHONEWRIGHT_ENGINES=process: a worker with its own engines, beside three that share the host's.
  const [own, ...shared] = await Promise.all([worker({ PHONEWRIGHT_ENGINES: 'process' }), worker(), worker(), worker()]);
  expect(hosts(), 'one host for the three').toHaveLength(1);
  expect(own.where).toBe('process');
  expect(own.lines.length).toBeGreaterThan(5);
  // The search found the part where it was cut.
  expect(own.best).toMatchObject({ x: CUT.x, y: CUT.y });
  for (const answer of [own, ...shared]) {
    expect(answer.misuse).toEqual({ name: 'UsageError', message: expect.stringMatching(/^a template of one colour matches any area of that colour; try: /), hint: expect.any(String) });
  }
  for (const answer of shared) {
    expect(answer.where).toBe('host');
    expect(answer.lines).toEqual(own.lines);
    expect(answer.best).toEqual(own.best);
  }
});

/**
 * A worker that loads the reading engine and says "loaded"; at a line on its stdin it sends one read and, a moment
 * later (the request written), says "asking"; then it prints the lines it got back.
 */
const MID_CALL = `
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
const { hostEngines } = await import(${JSON.stringify(CLIENT)});
const png = PNG.sync.read(readFileSync(${JSON.stringify(SCREEN)}));
const engines = hostEngines();
await engines.load('read');
process.stdout.write('loaded\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const reading = engines.read({ width: png.width, height: png.height, data: new Uint8Array(png.data) }, ['en', 'zh']);
setTimeout(() => process.stdout.write('asking\\n'), 200);
const lines = await reading;
process.stdout.write(JSON.stringify(lines.map((l) => l.text)));
`;

test('a host that stops mid-call is started again and the call answered, not failed', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', MID_CALL], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let host: number | undefined;
  child.stderr.on('data', (c: Buffer) => (err += c));
  const code = await new Promise<number | null>((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      // The host is stopped before the read is sent, so it cannot answer it (a read it kept from an earlier test
      // would come back at once); once the read is on its way, the host is killed under it.
      if (host === undefined && out.startsWith('loaded\n')) {
        host = hosts()[0];
        if (host) process.kill(host, 'SIGSTOP');
        child.stdin.end('go\n');
      } else if (host !== undefined && out === 'loaded\nasking\n') {
        process.kill(host, 'SIGKILL');
      }
    });
    child.on('exit', resolve);
  });
  expect(code, err).toBe(0);
  expect(host).toBeDefined();
  const lines = JSON.parse(out.slice('loaded\nasking\n'.length)) as string[];
  expect(lines.length).toBeGreaterThan(5);
  // The host that answered was started by the read asked again: the one it was sent to is gone.
  const now = hosts();
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(host);
});
