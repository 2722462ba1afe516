// Who may talk to the review: this machine only, with the token of the printed URL, from its own page; how the
// command starts, says what is wrong, and stops. Raw HTTP on a made-up run (bench/review-report.ts): a browser
// would not send the forged headers these tests need; Chromium only to see that a report's words stay words.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { writeSyntheticRun } from '../../bench/review-report.js';
import { errorLine, launch, launchSpawned, run } from '../cli/helpers.js';
import { listing } from '../helpers/bad-input.js';
import { expect, send, startReview, test } from './harness.js';

test('every request needs the token of the printed URL: the page, its files, its images and its API answer 401 without it', async ({ tmp }) => {
  await writeSyntheticRun(tmp, 2);
  const { port, token, cli } = await startReview(tmp);
  for (const p of ['/', '/?token=wrong', '/app.js', '/review.css', '/api/review', '/api/image?id=f0&kind=actual', `/api/review?token=${token.slice(0, -1)}`]) {
    const r = await send(port, p);
    expect(r.status, p).toBe(401);
    expect(r.body, p).toBe(JSON.stringify({ error: 'refused: this needs the token of the URL phonewright review printed (open that URL)' }));
  }
  const page = await send(port, `/?token=${token}`);
  expect(page.status).toBe(200);
  expect(page.body).toContain(`app.js?token=${token}`);
  expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
  expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  const image = await send(port, `/api/image?id=f0&kind=actual&token=${token}`);
  expect([image.status, image.headers['content-type'], image.body.slice(1, 4)]).toEqual([200, 'image/png', 'PNG']);
  // The page's own token is in the page (its files carry it on), and in no answer of its API.
  const data = await send(port, '/api/review', { 'x-phonewright-token': token });
  expect(data.status).toBe(200);
  expect(data.body).not.toContain(token);
  expect(JSON.parse(data.body).items).toHaveLength(8);
  cli.interrupt();
  expect((await cli.exited).code).toBe(0);
});

test('a request from another origin, another site or for another host is refused, token or not, and decides nothing; no answer carries CORS headers', async ({ tmp }) => {
  const synthetic = await writeSyntheticRun(tmp, 1);
  const { port, token, cli } = await startReview(tmp);
  const withToken = { 'x-phonewright-token': token, 'content-type': 'application/json' };
  const before = await listing(tmp);
  const refused: [string, Record<string, string>][] = [
    ['a page of the web', { ...withToken, origin: 'http://evil.example' }],
    ['a cross-site fetch', { ...withToken, 'sec-fetch-site': 'cross-site' }],
    ['a same-site page (another port)', { ...withToken, 'sec-fetch-site': 'same-site' }],
    ['a DNS-rebinding host', { ...withToken, host: `evil.example:${port}` }],
  ];
  for (const [what, headers] of refused) {
    for (const route of ['accept', 'reject']) {
      const r = await send(port, `/api/${route}`, headers, { method: 'POST', body: JSON.stringify({ id: 'f0', scope: 'model' }) });
      expect(r.status, what).toBe(403);
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-')), what).toEqual([]);
    }
  }
  expect(await listing(tmp)).toEqual(before);
  // From its own page, the same request decides.
  const ok = await send(port, '/api/accept', { ...withToken, origin: `http://127.0.0.1:${port}` }, { method: 'POST', body: JSON.stringify({ id: 'f0', scope: 'one' }) });
  expect(ok.status).toBe(200);
  expect(JSON.parse(ok.body).result.written).toEqual([synthetic.golden(0, 'galaxy-s9')]);
  cli.interrupt();
  await cli.exited;
});

test('bad usage is exit 2 before anything is served: no run to review, a port that is no port, a port in use', async ({ tmp }) => {
  for (const [args, says] of [
    [[], /^phonewright: no run to review: .*reports\/results\.json does not exist; try: run the specs first \(phonewright test\), or give --report the folder/],
    [['--report', 'nightly'], /no run to review: .*nightly\/results\.json does not exist/],
    [['--port', 'abc'], /invalid --port "abc": expected a whole number from 0 to 65535/],
  ] as [string[], RegExp][]) {
    const r = await run(['review', ...args], { cwd: tmp });
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatch(says);
  }
  await writeSyntheticRun(tmp, 1);
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as AddressInfo).port;
  try {
    const r = await run(['review', '--port', String(port)], { cwd: tmp });
    expect([r.code, errorLine(r)]).toEqual([2, `phonewright: port ${port} is in use; try: another --port, or none for a free one`]);
  } finally {
    busy.close();
  }
});

test('--json prints the URL as one JSON document; Ctrl-C stops the real process cleanly, exit 0', async ({ tmp }) => {
  await writeSyntheticRun(tmp, 1);
  const cli = launch(['review', '--json'], { cwd: tmp });
  const line = await cli.waitFor('stdout', /\n/);
  expect(JSON.parse(line)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/) });
  cli.interrupt();
  expect(await cli.exited).toMatchObject({ code: 0, stdout: line });

  const spawned = launchSpawned(['review'], { cwd: tmp });
  const stderr = await spawned.waitFor('stderr', /Ctrl-C to stop/);
  expect(stderr).toContain('reviewing 4 visual failures of reports/results.json, decisions in reports/review.json; Ctrl-C to stop');
  const stdout = await spawned.waitFor('stdout', /\n/);
  const m = /^Review: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)\n/.exec(stdout)!;
  // Run from dist/, it serves the page's files from the package's src/.
  for (const file of ['', 'app.js', 'viewer.js', 'review.css', 'page.js', 'page.css']) expect((await send(Number(m[1]), `/${file}?token=${m[2]}`)).status, file || 'the page').toBe(200);
  spawned.interrupt();
  expect((await spawned.exited).code).toBe(0);
  await expect(send(Number(m[1]), '/')).rejects.toThrow(/ECONNREFUSED/);
});

test('review --help says what the page does, where it listens, how it stops, and --static', async () => {
  const r = await run(['review', '--help']);
  expect(r.code).toBe(0);
  const text = r.stdout.replace(/\s+/g, ' ');
  for (const said of ['phonewright review', '--report', '--port', '--static', 'side by side, as a slider, blinking, or as a ΔE00 heat map', '127.0.0.1 only', 'token of the printed URL', 'Runs until Ctrl-C', 'review.json', 'Examples:']) {
    expect(text).toContain(said);
  }
});

test('a report\'s words are shown as text: markup in a test\'s title or a phone\'s model runs nothing', async ({ tmp, review }) => {
  const made = await writeSyntheticRun(tmp, 1);
  const file = path.join(made.reports, 'results.json');
  const MARKUP = '<img src=x onerror="document.body.dataset.owned=1">';
  await writeFile(file, (await readFile(file, 'utf8')).replace('"title":"badge 0"', `"title":${JSON.stringify(`badge ${MARKUP}`)}`).replaceAll('"model":"SM-G960F"', `"model":${JSON.stringify(MARKUP)}`));
  const { page, problems } = await review(tmp);
  await expect(page.locator('#queue h3').first()).toContainText(`badge ${MARKUP}`);
  await expect(page.locator('#f-test')).toHaveText(`specs/home.spec.ts › badge ${MARKUP}`);
  await expect(page.locator('#f-chips')).toContainText(MARKUP);
  await expect(page.locator('#queue .phone h4 .model').first()).toHaveText(MARKUP);
  expect(await page.locator('#queue img, #f-chips img, #f-test img, #decide-card img').count()).toBe(0);
  expect(await page.locator('body').getAttribute('data-owned')).toBeNull();
  expect(problems()).toEqual([]);
});

test('a body or query the review does not take is a 400 naming the field, never a 500, and decides nothing', async ({ tmp }) => {
  await writeSyntheticRun(tmp, 1);
  const { port, token, cli } = await startReview(tmp);
  const h = { 'x-phonewright-token': token };
  const json = { ...h, 'content-type': 'application/json' };
  const before = await listing(tmp);
  const ID = 'must be a failure\'s id like "f3"';
  const refused: [string, Promise<{ status: number; body: string }>, string][] = [
    ['an id as an object', send(port, '/api/accept', json, { method: 'POST', body: '{"id":{"a":1}}' }), `invalid body: id ${ID}, not {"a":1}`],
    ['an id in a list', send(port, '/api/reject', json, { method: 'POST', body: '{"id":["f0"]}' }), `invalid body: id ${ID}, not ["f0"]`],
    ['an id of another shape', send(port, '/api/accept', json, { method: 'POST', body: '{"id":"f00"}' }), `invalid body: id ${ID}, not "f00"`],
    ['no id', send(port, '/api/reject', json, { method: 'POST', body: '{}' }), 'invalid body: id is missing: expected a failure\'s id like "f3"'],
    ['a scope of its own', send(port, '/api/accept', json, { method: 'POST', body: '{"id":"f0","scope":"all"}' }), 'invalid body: scope must be one of one, phone, model, not "all"'],
    ['a field the route does not take', send(port, '/api/accept', json, { method: 'POST', body: '{"id":"f0","force":true}' }), 'invalid body: force is not a field this route takes: expected id, scope'],
    ['JSON sequences', send(port, '/api/accept', { ...h, 'content-type': 'application/json-seq' }, { method: 'POST', body: '{"id":"f0"}' }), 'the API takes JSON (content-type: application/json)'],
    ['an image of no kind', send(port, '/api/image?id=f0&kind=golden', h), 'invalid query: kind must be one of expected, actual, diff, screen, heat, not "golden"'],
    ['an id given twice', send(port, '/api/heat?id=f0&id=f1', h), 'invalid query: id is given 2 times: give it once'],
    ['an id as a path', send(port, '/api/heat?id=../f0', h), `invalid query: id ${ID}, not "../f0"`],
    ['a parameter the route does not read', send(port, '/api/review?all=1', h), 'invalid query: all is not a parameter this route takes: it takes none'],
  ];
  for (const [what, reply, says] of refused) {
    const r = await reply;
    expect([r.status, JSON.parse(r.body).error], what).toEqual([400, says]);
  }
  expect(await listing(tmp)).toEqual(before);
  // What the page sends is taken.
  expect((await send(port, '/api/heat?id=f0', h)).status).toBe(200);
  expect((await send(port, '/api/accept', { ...h, 'content-type': 'application/json; charset=utf-8' }, { method: 'POST', body: '{"id":"f0","scope":"one"}' })).status).toBe(200);
  cli.interrupt();
  await cli.exited;
});
