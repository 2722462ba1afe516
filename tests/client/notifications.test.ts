// Notifications on the wire: `count` always sent, filters as the interface writes them, and both shapes of
// "position past the end".
import type { NotificationQuery } from '../../src/core/notifications.js';
import { VENDOR_MAIN_DEVICE, type FakeServer } from '../helpers/fake-server.js';
import { expect, failure, test } from './harness.js';

const PHONE = 'device@1174886816';
const note = (i: number, id = PHONE) => ({ app: 'com.example.chat', text: `message ${i}`, time: 1_700_000_000_000 + i, id });

/** The raw query of the last notifications request, split into decoded pairs (the order is kept). */
function wire(server: FakeServer): [string, string][] {
  const last = server.requests.filter((r) => r.op === 'notifications').at(-1)!;
  return last.rawQuery.split('&').map((pair) => {
    const [k, v = ''] = pair.split('=');
    return [decodeURIComponent(k!), decodeURIComponent(v)];
  });
}

test('count is always sent, position as given, and no filter when none is asked for', async ({ serve, connect }) => {
  const server = await serve();
  server.post(note(1), note(2), note(3));
  expect(await connect(server).notifications({ position: 2, count: 1 })).toEqual([note(2)]);
  expect(wire(server)).toEqual([
    ['token', '270eq7lXQK8bXYsJ'],
    ['position', '2'],
    ['count', '1'],
  ]);
});

const FILTERS = [
  {
    name: 'several values go as a bracketed list of quoted strings',
    query: { device: ['device@1174886816', 'device@1174886817'], app: ['com.a', 'com.b'], match: ['Music', 'Power'] },
    sent: { device: '["device@1174886816","device@1174886817"]', app: '["com.a","com.b"]', match: '["Music","Power"]' },
  },
  {
    name: 'one value goes as a plain string',
    query: { device: ['device@-230441652'], app: ['com.example.chat'], match: ['code'] },
    sent: { device: 'device@-230441652', app: 'com.example.chat', match: 'code' },
  },
  {
    name: 'text with &, =, quotes, # and Unicode survives the query string',
    query: { match: ['a&b=c "d" #1 点击进入程序'] },
    sent: { match: 'a&b=c "d" #1 点击进入程序' },
  },
  {
    name: 'a list holding quotes is still valid JSON',
    query: { match: ['say "hi"', 'x,y'] },
    sent: { match: '["say \\"hi\\"","x,y"]' },
  },
  { name: 'empty lists are left out', query: { device: [], app: [], match: [] }, sent: {} },
];

for (const f of FILTERS) {
  test(`filters: ${f.name}`, async ({ serve, connect }) => {
    const server = await serve();
    await connect(server).notifications({ position: 1, count: 20, ...f.query } as NotificationQuery);
    const params = new URLSearchParams(server.requests.at(-1)!.rawQuery);
    for (const key of ['device', 'app', 'match'] as const) expect(params.get(key)).toBe((f.sent as Record<string, string | undefined>)[key] ?? null);
    for (const [key, value] of Object.entries(f.sent)) expect(wire(server)).toContainEqual([key, value]);
  });
}

test('filters are applied by the server as it is asked', async ({ serve, connect }) => {
  const server = await serve();
  server.post(note(1), { ...note(2), app: 'com.other' }, note(3, 'device@1116106541'), { ...note(4), text: 'Music on' });
  const client = connect(server);
  expect(await client.notifications({ position: 1, count: 10, app: ['com.other'] })).toEqual([{ ...note(2), app: 'com.other' }]);
  expect(await client.notifications({ position: 1, count: 10, device: ['device@1116106541', PHONE], match: ['Music', 'message 1'] })).toEqual([
    note(1),
    { ...note(4), text: 'Music on' },
  ]);
});

for (const pastEnd of ['empty', 'false'] as const) {
  test(`position past the end answered ${pastEnd === 'empty' ? '[]' : '{"status": false}'} → an empty list`, async ({ serve, connect }) => {
    const server = await serve({ pastEnd });
    server.post(note(1), note(2));
    const client = connect(server);
    expect(await client.notifications({ position: 3, count: 10 })).toEqual([]);
    expect(await client.notifications({ position: 300, count: 10 })).toEqual([]);
    expect(await client.notifications({ position: 2, count: 10 })).toEqual([note(2)]);
    expect(server.count('login')).toBe(1);
  });
}

test('{"status": false} from an expired token is not mistaken for "past the end"', async ({ serve, connect }) => {
  const server = await serve({ pastEnd: 'false', rejectToken: 'false' });
  server.post(note(1));
  const client = connect(server);
  await client.login();
  server.expireTokens();
  expect(await client.notifications({ position: 1, count: 10 })).toEqual([note(1)]);
  expect(server.count('login')).toBe(2);
});

const BAD_QUERIES = [
  { name: 'position 0', query: { position: 0, count: 1 }, says: /invalid position 0/ },
  { name: 'position 1.5', query: { position: 1.5, count: 1 }, says: /invalid position/ },
  { name: 'count 0', query: { position: 1, count: 0 }, says: /invalid count 0/ },
  { name: 'count above the maximum', query: { position: 1, count: 10_001 }, says: /invalid count 10001/ },
  { name: 'a malformed device id', query: { position: 1, count: 1, device: ['phone-1'] }, says: /invalid device id "phone-1"/ },
  { name: 'a device id beyond 32 bits', query: { position: 1, count: 1, device: ['device@4294967296'] }, says: /signed 32-bit/ },
];

for (const b of BAD_QUERIES) {
  test(`bad query: ${b.name} → UsageError before any request`, async ({ serve, connect }) => {
    const server = await serve();
    const error = await failure(() => connect(server).notifications(b.query as never));
    expect(error.code).toBe('PW_USAGE');
    expect(error.message).toMatch(b.says);
    expect(server.count()).toBe(0);
  });
}

test('pixel and settings check the device id and coordinates before any request', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  for (const call of [() => client.pixel('main', 1, 1), () => client.pixel(VENDOR_MAIN_DEVICE, -1, 1), () => client.pixel(VENDOR_MAIN_DEVICE, 1, 0.5), () => client.settings('device@01')]) {
    expect((await failure(call)).code).toBe('PW_USAGE');
  }
  expect(server.count()).toBe(0);
});
