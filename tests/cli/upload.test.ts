// `phonewright upload`: every kind of target, the file checked before anything is sent, and the progress
// bar: on a terminal for a large file, never on a pipe. In-process, but for the progress bar on a real pipe
// and on a real pseudo-terminal, in a process of its own.
import { createHash } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorLine, HAS_SCRIPT, expect, on, run, spawnCli, test, VENDOR } from './helpers.js';

const MIB = 1024 * 1024;

test('--as apk --json: the absolute file_url; the server got the bytes under the part name "apk"', async ({ serve, tmp }) => {
  const server = await serve();
  const file = path.join(tmp, 'app.apk');
  const bytes = Buffer.from('PK\u0003\u0004 a tiny apk');
  await writeFile(file, bytes);
  const r = await run(['upload', file, '--as', 'apk', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toBe(`{"file_url":"${server.url}/TotalControl/v1/storage/apk/1527558556026.apk"}\n`);
  expect(server.uploads).toEqual([{ part: 'apk', filename: 'app.apk', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }]);
});

test('a relative file_url (the vendor\'s curl example) is made absolute under the storage route', async ({ serve, tmp }) => {
  const server = await serve();
  server.handle('upload', { body: VENDOR.uploadRelative });
  const file = path.join(tmp, '1.bmp');
  await writeFile(file, 'BM');
  const r = await run(['upload', file, '--as', 'image', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stdout: `{"file_url":"${server.url}/TotalControl/v1/storage/images/1527558556026.bmp"}\n` });
});

test('local/<folder> answers with a path on the server; without --json a sentence says where it went', async ({ serve, tmp }) => {
  const server = await serve();
  const file = path.join(tmp, 'data.csv');
  await writeFile(file, 'a,b\n1,2\n');
  const r = await run(['upload', file, '--as', 'local/temp', ...on(server)]);
  expect(r).toMatchObject({ code: 0, stderr: '', stdout: `stored ${file} as local/temp: C:/temp/1527558556026.csv\n` });
  expect(server.uploads[0]!.part).toBe('local/temp');
});

const BAD_TARGETS: { target: string; says: RegExp }[] = [
  { target: 'video', says: /invalid upload target "video": unknown target; try: image, script, apk, tcbr\/contacts/ },
  { target: 'local/', says: /local\/ needs a folder/ },
  { target: 'local/../etc', says: /must stay under the installation root/ },
  { target: 'local/E:/File', says: /an absolute folder must end with "\/"/ },
  { target: 'contacts', says: /unknown target/ },
];

for (const { target, says } of BAD_TARGETS) {
  test(`bad target ${JSON.stringify(target)}: exit 2, nothing sent`, async ({ serve, tmp }) => {
    const server = await serve();
    const file = path.join(tmp, 'x.txt');
    await writeFile(file, 'x');
    const r = await run(['upload', file, '--as', target, ...on(server)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
    expect(server.requests).toEqual([]);
  });
}

const BAD_FILES: { name: string; make: (tmp: string) => Promise<string>; says: RegExp }[] = [
  { name: 'a missing file', make: async (tmp) => path.join(tmp, 'nope.apk'), says: /file not found: .*nope\.apk; try: check the path/ },
  { name: 'an empty file', make: async (tmp) => (await writeFile(path.join(tmp, 'empty.apk'), ''), path.join(tmp, 'empty.apk')), says: /file is empty/ },
  { name: 'a folder', make: async (tmp) => (await mkdir(path.join(tmp, 'dir')), path.join(tmp, 'dir')), says: /not a regular file/ },
];

for (const { name, make, says } of BAD_FILES) {
  test(`${name}: exit 2, one clear line, nothing sent`, async ({ serve, tmp }) => {
    const server = await serve();
    const r = await run(['upload', await make(tmp), '--as', 'apk', ...on(server), '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
    expect(server.requests).toEqual([]);
  });
}

test('an unreadable file: exit 2, nothing sent', async ({ serve, tmp }) => {
  test.skip(process.getuid?.() === 0, 'root reads any file');
  const server = await serve();
  const file = path.join(tmp, 'secret.apk');
  await writeFile(file, 'x');
  await chmod(file, 0o000);
  const r = await run(['upload', file, '--as', 'apk', ...on(server)]);
  expect(r.code).toBe(2);
  expect(errorLine(r)).toMatch(/permission denied/);
  expect(server.requests).toEqual([]);
});

test('--as missing: exit 2, the usage names it', async ({ serve, tmp }) => {
  const server = await serve();
  const r = await run(['upload', path.join(tmp, 'x'), ...on(server)]);
  expect(r.code).toBe(2);
  expect(errorLine(r)).toMatch(/missing required argument: as; try: phonewright upload --help/);
  expect(server.requests).toEqual([]);
});

test('the server refuses the file: exit 1 with its message', async ({ serve, tmp }) => {
  const server = await serve();
  server.handle('upload', { json: { status: null, value: 'disk full' } });
  const file = path.join(tmp, 'a.js');
  await writeFile(file, 'x');
  const r = await run(['upload', file, '--as', 'script', ...on(server), '--json']);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(errorLine(r)).toMatch(/upload failed: the server said "disk full"/);
});

test('a large file with stderr on a pipe: no progress bar, stderr stays empty', async ({ serve, tmp }) => {
  const server = await serve();
  const file = path.join(tmp, 'big.apk');
  await writeFile(file, Buffer.alloc(9 * MIB, 7));
  const r = await run(['upload', file, '--as', 'apk', ...on(server), '--json']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(server.uploads[0]!.size).toBe(9 * MIB);
});

test('a large file on a terminal: a progress bar with percent, bytes and MiB/s, ending at 100%', async ({ serve, tmp }) => {
  test.skip(!HAS_SCRIPT, 'needs script(1) from util-linux to run the CLI on a pseudo-terminal');
  const server = await serve();
  const file = path.join(tmp, 'big.apk');
  await writeFile(file, Buffer.alloc(9 * MIB, 7));
  const r = await spawnCli(['upload', file, '--as', 'apk', ...on(server)], { terminal: true });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/big\.apk 100% \[#{24}\] 9,437,184 \/ 9,437,184 bytes {2}\d+\.\d MiB\/s/);
  expect(r.stdout).toContain(`stored ${file} as apk: ${server.url}/TotalControl/v1/storage/apk/`);
});

test('a small file on a terminal: no progress bar', async ({ serve, tmp }) => {
  const server = await serve();
  const file = path.join(tmp, 'small.apk');
  await writeFile(file, Buffer.alloc(MIB, 7));
  const r = await run(['upload', file, '--as', 'apk', ...on(server)], { tty: true });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('stored ');
  expect(r.stdout).not.toMatch(/%|MiB\/s/);
});
