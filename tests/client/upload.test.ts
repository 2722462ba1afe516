// Uploads: streamed from disk as one multipart part named after the target, bytes intact, progress reported,
// every file_url form of the field notes accepted, and bad input refused before any request.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256, type FakeServer } from '../helpers/fake-server.js';
import { expect, failure, test } from './harness.js';

interface Target {
  target: string;
  file: string;
  /** What the server answers as file_url (the fake server's own absolute answer when absent). */
  answer?: (server: FakeServer) => string;
  expected: (server: FakeServer) => string;
}

const TARGETS: Target[] = [
  { target: 'image', file: 'home.png', expected: (s) => `${s.url}/TotalControl/v1/storage/images/1527558556026.png` },
  { target: 'script', file: 'login.js', expected: (s) => `${s.url}/TotalControl/v1/storage/js/1527558556026.js` },
  { target: 'apk', file: 'app-release.apk', expected: (s) => `${s.url}/TotalControl/v1/storage/apk/1527558556026.apk` },
  { target: 'tcbr/contacts', file: 'team.tcbr', expected: (s) => `${s.url}/TotalControl/v1/storage/tcbr/contacts/1527558556026.tcbr` },
  {
    target: 'image',
    file: '1.bmp',
    answer: () => 'images/1527558556026.bmp',
    expected: (s) => `http://127.0.0.1:${s.port}/TotalControl/v1/storage/images/1527558556026.bmp`,
  },
  {
    target: 'image',
    file: '2.bmp',
    answer: () => '/TotalControl/v1/storage/images/1527558556027.bmp',
    expected: (s) => `${s.url}/TotalControl/v1/storage/images/1527558556027.bmp`,
  },
  {
    target: 'apk',
    file: 'a.apk',
    answer: () => 'http://localhost:8090/TotalControl/v1/storage/apk/1527558556026.apk',
    expected: () => 'http://localhost:8090/TotalControl/v1/storage/apk/1527558556026.apk',
  },
  { target: 'local/temp', file: 'shot.bmp', answer: () => 'C:/temp/1538104935363.bmp', expected: () => 'C:/temp/1538104935363.bmp' },
  { target: 'local/E:/File/', file: 'shot.bmp', answer: () => 'E:/File/1539543927519.bmp', expected: () => 'E:/File/1539543927519.bmp' },
  { target: 'local/reports/nightly', file: 'run.log', expected: () => 'C:/reports/nightly/1527558556026.log' },
  { target: 'local//srv/phonewright/', file: 'x.bin', answer: () => '/srv/phonewright/1539543927519.bin', expected: () => '/srv/phonewright/1539543927519.bin' },
];

for (const t of TARGETS) {
  test(`upload as ${t.target}${t.answer ? ` answered ${t.answer({ url: 'http://127.0.0.1:PORT' } as FakeServer)}` : ''}`, async ({ serve, connect }, testInfo) => {
    const server = await serve();
    const answer = t.answer;
    if (answer) server.handle('upload', async (_req, next) => (await next(), { json: { status: true, file_url: answer(server) } }));
    const bytes = randomBytes(1000);
    const file = testInfo.outputPath(t.file);
    await writeFile(file, bytes);
    expect(await connect(server).upload(file, t.target)).toEqual({ fileUrl: t.expected(server) });
    expect(server.uploads).toEqual([{ part: t.target, filename: t.file, size: 1000, sha256: sha256(bytes) }]);
    expect(server.requests.map((r) => `${r.method} ${r.op}`)).toEqual(['GET login', 'POST upload']);
  });
}

test('a few MiB arrive intact, streamed, with progress up to the file size', async ({ serve, connect }, testInfo) => {
  const server = await serve();
  const size = 5 * 1024 * 1024 + 123;
  const bytes = randomBytes(size);
  const file = testInfo.outputPath('build.apk');
  await writeFile(file, bytes);
  const progress: [number, number][] = [];
  await connect(server).upload(file, 'apk', { onProgress: (sent, total) => progress.push([sent, total]) });
  expect(server.uploads).toEqual([{ part: 'apk', filename: 'build.apk', size, sha256: sha256(bytes) }]);
  // Streamed in chunks, not whole: several reports, never decreasing, ending at the size.
  expect(progress.length).toBeGreaterThan(2);
  expect(progress.every(([sent, total], i) => total === size && sent > (progress[i - 1]?.[0] ?? 0))).toBe(true);
  expect(progress.at(-1)).toEqual([size, size]);
  const upload = server.requests.find((r) => r.op === 'upload')!;
  expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(Number(upload.headers['content-length'])).toBe((await upload.body()).length);
});

test('the part carries the basename only, Unicode included', async ({ serve, connect }, testInfo) => {
  const server = await serve();
  const dir = testInfo.outputPath('deep', 'folder');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, '截图 ü.png');
  await writeFile(file, 'png');
  await connect(server).upload(file, 'image');
  expect(server.uploads[0]).toMatchObject({ part: 'image', filename: '截图 ü.png', size: 3 });
});

const REFUSED = [
  { name: 'a missing file', make: async (dir: string) => path.join(dir, 'nope.apk'), target: 'apk', says: /file not found: .*nope\.apk/ },
  { name: 'a directory', make: async (dir: string) => dir, target: 'apk', says: /not a regular file/ },
  { name: 'an empty file', make: async (dir: string) => (await writeFile(path.join(dir, 'empty.js'), ''), path.join(dir, 'empty.js')), target: 'script', says: /file is empty/ },
  { name: 'an unknown target', make: async (dir: string) => (await writeFile(path.join(dir, 'a.png'), 'x'), path.join(dir, 'a.png')), target: 'images', says: /invalid upload target "images"/ },
  { name: 'a folder escaping the root', make: async (dir: string) => (await writeFile(path.join(dir, 'a.png'), 'x'), path.join(dir, 'a.png')), target: 'local/../etc', says: /installation root/ },
  { name: 'an absolute folder without its slash', make: async (dir: string) => (await writeFile(path.join(dir, 'a.png'), 'x'), path.join(dir, 'a.png')), target: 'local/E:/File', says: /must end with "\/"/ },
];

for (const r of REFUSED) {
  test(`${r.name} → UsageError before any request`, async ({ serve, connect }, testInfo) => {
    const server = await serve();
    const dir = testInfo.outputPath('files');
    await mkdir(dir, { recursive: true });
    const error = await failure(async () => connect(server).upload(await r.make(dir), r.target));
    expect(error.code).toBe('PW_USAGE');
    expect(error.message).toMatch(r.says);
    expect(server.count()).toBe(0);
  });
}
