// Uploads: multipart streamed to disk, the part name selecting the target; typed targets downloadable.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { T0, authed, call, curl, expect, login, multipart, rawGet, test, upload } from './harness.js';

/** Every file under the storage root, relative, with forward slashes. */
async function storedFiles(sim: SimulatorHandle): Promise<string[]> {
  const entries = await readdir(sim.storageRoot, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(sim.storageRoot, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/')).sort();
}
function fileUrl(answer: { json: unknown }): string {
  const body = answer.json as { status: unknown; file_url?: string };
  expect(body, JSON.stringify(body)).toMatchObject({ status: true, file_url: expect.any(String) });
  expect(Object.keys(body)).toEqual(['status', 'file_url']);
  return body.file_url!;
}

test('curl -F "image=@file" stores the file; the absolute URL downloads the same bytes without a token', async ({ sim }, testInfo) => {
  const token = await login(sim);
  const file = testInfo.outputPath('1.bmp');
  const bytes = randomBytes(70_000);
  await writeFile(file, bytes);
  const out = await curl([`${sim.url}/TotalControl/v1/storage?token=${token}`, '-F', `image=@${file}`]);
  expect(out.code, out.stderr).toBe(0);
  const url = fileUrl({ json: JSON.parse(out.stdout) });
  expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${sim.port}/TotalControl/v1/storage/images/${T0}\\.bmp$`));
  const download = await curl(['--fail', '--output', testInfo.outputPath('back.bmp'), url]);
  expect(download.code, download.stderr).toBe(0);
  expect((await readFile(testInfo.outputPath('back.bmp'))).equals(bytes)).toBe(true);
  expect(await storedFiles(sim)).toEqual([`storage/images/${T0}.bmp`]);
});

for (const [part, folder, ext] of [['image', 'images', '.png'], ['script', 'js', '.js'], ['apk', 'apk', '.apk'], ['tcbr/contacts', 'tcbr/contacts', '.vcf']] as const) {
  test(`the part "${part}" goes to storage/${folder}/<13 digits>${ext} and downloads back`, async ({ sim }) => {
    const data = randomBytes(1_000);
    const url = fileUrl(await upload(sim, await login(sim), part, data, `original${ext}`));
    expect(url).toBe(`${sim.url}/TotalControl/v1/storage/${folder}/${T0}${ext}`);
    const back = await rawGet(sim, url.slice(sim.url.length));
    expect(back.status).toBe(200);
    expect(back.body.equals(data)).toBe(true);
    expect((await readFile(path.join(sim.storageRoot, 'storage', ...folder.split('/'), `${T0}${ext}`))).equals(data)).toBe(true);
  });
}

test('the absolute URL names the host the client used', async ({ sim }) => {
  const { body, type } = multipart([{ name: 'apk', filename: 'app.apk', data: 'PK' }]);
  const answer = await authed(sim, await login(sim), '/storage', { method: 'POST', headers: { 'content-type': type, host: `phones.lab:${sim.port}` }, body });
  expect(fileUrl(answer)).toBe(`http://phones.lab:${sim.port}/TotalControl/v1/storage/apk/${T0}.apk`);
});

test('a file name without a plain extension is stored as the number alone', async ({ sim }) => {
  const token = await login(sim);
  expect(fileUrl(await upload(sim, token, 'image', 'x', 'README'))).toMatch(/\/images\/\d{13}$/);
  expect(fileUrl(await upload(sim, token, 'image', 'x', 'evil.p/../hp'))).toMatch(/\/images\/\d{13}$/);
});

test('local/<folder> stores under the installation root, creates the folder, answers a forward-slash path', async ({ sim }) => {
  const url = fileUrl(await upload(sim, await login(sim), 'local/temp/nested', 'hello', 'note.txt'));
  const expected = path.join(sim.storageRoot, 'temp', 'nested', `${T0}.txt`);
  expect(url).toBe(expected.split(path.sep).join('/'));
  expect(await readFile(expected, 'utf8')).toBe('hello');
});

test.describe('local/<absolute path>/ when allowed', () => {
  test('stores in that folder and answers <path><n>.<ext>', async ({ sim }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pw-abs-'));
    try {
      sim.reset();
      const answer = await upload(sim, await login(sim), `local/${dir}/`, 'abs', 'a.bmp');
      // Allowed only with the option; this simulator was started without it.
      expect(answer.json).toMatchObject({ status: null, value: expect.stringContaining('--allow-absolute-uploads') });
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test.describe('enabled', () => {
    test.use({ simOptions: { allowAbsoluteUploads: true } });
    test('writes there', async ({ sim }) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'pw-abs-'));
      try {
        const url = fileUrl(await upload(sim, await login(sim), `local/${dir}/File/`, 'abs', 'a.bmp'));
        expect(url).toBe(`${dir}/File/${T0}.bmp`);
        expect(await readFile(path.join(dir, 'File', `${T0}.bmp`), 'utf8')).toBe('abs');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

test.describe('failures answer HTTP 200 {"status": null, "value": <message>} and store nothing', () => {
  test.use({ simOptions: { maxUploadBytes: 1_000 } });
  const cases: [string, () => { body: Buffer; type: string }, RegExp][] = [
    ['no file part (a plain field only)', () => multipart([{ name: 'image', data: 'not a file' }]), /no file part/],
    ['an unknown part name', () => multipart([{ name: 'video', filename: 'a.mp4', data: 'x' }]), /invalid upload target "video"/],
    ['an empty file', () => multipart([{ name: 'image', filename: 'a.png', data: '' }]), /empty/],
    ['a file over the limit', () => multipart([{ name: 'image', filename: 'a.png', data: randomBytes(1_001) }]), /larger than this server's limit of 1000 bytes/],
    ['a body that is not multipart', () => ({ body: Buffer.from('{"image": 1}'), type: 'application/json' }), /not multipart/],
    ['a multipart type without a boundary', () => ({ body: Buffer.from('x'), type: 'multipart/form-data' }), /malformed multipart/],
    ['a multipart body that is cut short', () => {
      const { body, type } = multipart([{ name: 'image', filename: 'a.png', data: 'abcdef' }]);
      return { body: body.subarray(0, body.length - 30), type };
    }, /malformed|no file part|Unexpected end/],
  ];
  for (const [what, make, message] of cases) {
    test(what, async ({ sim }) => {
      const { body, type } = make();
      const answer = await authed(sim, await login(sim), '/storage', { method: 'POST', headers: { 'content-type': type }, body });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ status: null, value: expect.stringMatching(message) });
      expect(await storedFiles(sim)).toEqual([]);
    });
  }

  test('a file exactly at the limit is stored', async ({ sim }) => {
    fileUrl(await upload(sim, await login(sim), 'image', randomBytes(1_000), 'a.png'));
    expect(await storedFiles(sim)).toHaveLength(1);
  });

  test('an upload with a bad token is refused before its body is read', async ({ sim }) => {
    const answer = await upload(sim, 'AAAAAAAAAAAAAAAA', 'image', 'x', 'a.png');
    expect(answer.json).toEqual({ status: null, value: 'invalid token' });
    expect(await storedFiles(sim)).toEqual([]);
  });
});

test('200 concurrent uploads in the same millisecond get distinct names and keep their bytes', async ({ sim }) => {
  const token = await login(sim);
  const files = Array.from({ length: 200 }, (_, i) => randomBytes(2_000 + i));
  const urls = await Promise.all(files.map(async (data) => fileUrl(await upload(sim, token, 'apk', data, 'app.apk'))));
  expect(new Set(urls).size).toBe(200);
  // The clock stands still, so the names are T0 and the next free numbers after it.
  const numbers = urls.map((u) => Number(/(\d{13})\.apk$/.exec(u)![1])).sort((a, b) => a - b);
  expect(numbers[0]).toBe(T0);
  expect(numbers[199]).toBe(T0 + 199);
  for (const [i, url] of urls.entries()) {
    const name = url.slice(url.lastIndexOf('/') + 1);
    expect((await readFile(path.join(sim.storageRoot, 'storage', 'apk', name))).equals(files[i]!), name).toBe(true);
  }
});

test('a name taken on disk by an earlier run is skipped', async ({ sim }) => {
  const folder = path.join(sim.storageRoot, 'storage', 'images');
  const token = await login(sim);
  await upload(sim, token, 'script', 'x', 'a.js');
  await writeFile(path.join(folder, `${T0 + 1}.png`), 'old').catch(async () => {
    await import('node:fs/promises').then((fs) => fs.mkdir(folder, { recursive: true }));
    await writeFile(path.join(folder, `${T0 + 1}.png`), 'old');
  });
  expect(fileUrl(await upload(sim, token, 'image', 'new', 'a.png'))).toMatch(new RegExp(`/${T0 + 2}\\.png$`));
  expect(await readFile(path.join(folder, `${T0 + 1}.png`), 'utf8')).toBe('old');
});

test('the partial file is removed when the client goes away mid-upload', async ({ sim }) => {
  const token = await login(sim);
  const boundary = 'cutshort';
  const req = http.request({ host: '127.0.0.1', port: sim.port, method: 'POST', path: `${sim.apiRoot}/storage?token=${token}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 10_000_000 } });
  req.on('error', () => undefined);
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="big.apk"\r\n\r\n`);
  req.write(randomBytes(200_000));
  // The partial file exists while the upload runs…
  await expect.poll(async () => (await storedFiles(sim)).length).toBe(1);
  const [partial] = await storedFiles(sim);
  await expect.poll(async () => (await stat(path.join(sim.storageRoot, partial!))).size).toBeGreaterThan(0);
  req.destroy();
  // …and is gone once the client has left.
  await expect.poll(async () => storedFiles(sim)).toEqual([]);
});

test('downloads: unknown names, other folders and escapes answer a JSON 404', async ({ sim }) => {
  const token = await login(sim);
  const url = fileUrl(await upload(sim, token, 'image', 'x', 'a.png'));
  const name = url.slice(url.lastIndexOf('/') + 1);
  for (const p of ['/storage/images/0000000000000.png', '/storage/videos/' + name, '/storage/images/../../etc/passwd', '/storage/images/..%2f..%2f' + name, '/storage/' + name, '/storage/images/']) {
    const answer = await rawGet(sim, `${sim.apiRoot}${p}`);
    expect(answer.status, p).toBe(404);
    expect(JSON.parse(answer.body.toString()), p).toEqual({ status: null, value: 'file not found' });
  }
  expect((await call(sim, `/storage/images/${name}`)).status).toBe(200);
});

test('the default storage root is a temporary folder removed on close', async () => {
  const { startSimulator } = await import('../../src/simulator/index.js');
  const sim = await startSimulator({ port: 0 });
  const root = sim.storageRoot;
  expect(root.startsWith(tmpdir())).toBe(true);
  await upload(sim, await login(sim), 'image', 'x', 'a.png');
  await sim.close();
  await expect(stat(root)).rejects.toThrow(/ENOENT/);
});
