// Arrivals (what arrived on the notification list since the last read) against every server behaviour: oldest-first or newest-first,
// position indexing the filtered or the unfiltered list, "past the end" as [] or {"status": false}, and a
// cap of N messages per phone. Only messages that arrive after arming count, each exactly once, in order.
import { Arrivals } from '../../src/phone/index.js';
import type { Notification } from '../../src/core/notifications.js';
import type { FakeNotification, FakeServer, FakeServerOptions } from '../helpers/fake-server.js';
import { expect, test } from '../client/harness.js';

const PHONE = 'device@1174886816';
const OTHER = 'device@1116106541';
let clock = 1_700_000_000_000;
/** A message that arrives now: times increase, as the phones' clocks do. */
const arrive = (text: string, id = PHONE, app = 'com.example.chat'): FakeNotification => ({ app, text, time: (clock += 1_000), id });

const BEHAVIOURS: FakeServerOptions[] = [];
for (const order of ['oldest-first', 'newest-first'] as const) {
  for (const positionIndexes of ['filtered', 'unfiltered'] as const) {
    for (const pastEnd of ['empty', 'false'] as const) BEHAVIOURS.push({ order, positionIndexes, pastEnd, held: 12 });
  }
}
const label = (b: FakeServerOptions) => `${b.order}, position indexes the ${b.positionIndexes} list, past the end ${b.pastEnd === 'empty' ? '[]' : 'false'}`;

/** Reads once and counts the requests it took. */
async function readOnce(server: FakeServer, arrivals: Arrivals): Promise<{ got: Notification[]; requests: number }> {
  const before = server.count();
  const got = await arrivals.read();
  return { got, requests: server.count() - before };
}

for (const behaviour of BEHAVIOURS) {
  test.describe(label(behaviour), () => {
    test('reports each new message once, in order, duplicates included, while old ones fall off', async ({ serve, connect }) => {
      const server = await serve(behaviour);
      const twice = arrive('you have 2 new messages');
      server.post(arrive('old 1'), arrive('old 2'), twice, twice, arrive('old 3', OTHER));
      const arrivals = new Arrivals(connect(server), { pageSize: 4 });
      await arrivals.baseline();
      expect((await readOnce(server, arrivals)).got).toEqual([]);

      const expected: FakeNotification[] = [];
      const send = (...messages: FakeNotification[]) => (server.post(...messages), expected.push(...messages));
      const reported: Notification[] = [];
      const first = arrive('new 1');
      const dup = arrive('code 123456');
      send(first, dup, dup, arrive('new 2', OTHER));
      reported.push(...(await readOnce(server, arrivals)).got);
      send(arrive('you have 2 new messages'));
      reported.push(...(await readOnce(server, arrivals)).got);
      // Twelve held per phone: these push every message that was there at arming off the list.
      for (let round = 0; round < 4; round++) {
        send(arrive(`burst ${round}.1`), arrive(`burst ${round}.2`), arrive(`burst ${round}.3`));
        reported.push(...(await readOnce(server, arrivals)).got);
      }
      expect(reported).toEqual(expected);
      expect(arrivals.order).toBe(behaviour.order);

      const idle = await readOnce(server, arrivals);
      expect(idle).toEqual({ got: [], requests: 1 });
    });

    test('armed on an empty list: the first messages come in chronological order', async ({ serve, connect }) => {
      const server = await serve(behaviour);
      const arrivals = new Arrivals(connect(server), { pageSize: 4 });
      await arrivals.baseline();
      const first = [arrive('a'), arrive('b'), arrive('c')];
      server.post(...first);
      expect((await readOnce(server, arrivals)).got).toEqual(first);
      const next = [arrive('d'), arrive('d2', OTHER)];
      server.post(...next);
      expect((await readOnce(server, arrivals)).got).toEqual(next);
    });

    test('a long list at arming: nothing old is reported, one read per idle poll', async ({ serve, connect }) => {
      const server = await serve({ ...behaviour, held: 1000 });
      for (let i = 0; i < 25; i++) server.post(arrive(`old ${i}`), arrive(`old ${i}`, OTHER));
      const arrivals = new Arrivals(connect(server), { pageSize: 10 });
      await arrivals.baseline();
      expect(arrivals.order).toBe(behaviour.order);
      const fresh = [arrive('fresh 1'), arrive('fresh 2', OTHER)];
      server.post(...fresh);
      expect((await readOnce(server, arrivals)).got).toEqual(fresh);
      expect(await readOnce(server, arrivals)).toEqual({ got: [], requests: 1 });
      // More new messages than a page: all of them, still in order.
      const many = Array.from({ length: 23 }, (_, i) => arrive(`many ${i}`, i % 2 ? OTHER : PHONE));
      server.post(...many);
      expect((await readOnce(server, arrivals)).got).toEqual(many);
    });
  });
}

test('Arrivals never sends filters: the caller filters on the client', async ({ serve, connect }) => {
  const server = await serve();
  server.post(arrive('x'));
  const arrivals = new Arrivals(connect(server));
  await arrivals.baseline();
  server.post(arrive('y'));
  await arrivals.read();
  for (const r of server.requests.filter((q) => q.op === 'notifications')) {
    expect([...r.query.keys()].sort()).toEqual(['count', 'position', 'token']);
  }
});

const COPIES = [
  { order: 'oldest-first' as const, pageSize: 4 },
  { order: 'newest-first' as const, pageSize: 4 },
  { order: 'newest-first' as const, pageSize: 1 },
];

for (const { order, pageSize } of COPIES) {
  test(`${order}, pages of ${pageSize}: a copy of a message reported by an earlier poll is reported again`, async ({ serve, connect }) => {
    const server = await serve({ order });
    server.post(arrive('before'));
    const arrivals = new Arrivals(connect(server), { pageSize });
    await arrivals.baseline();
    // Phones stamp whole seconds (the vendor's example time ends in 000): three messages within one second.
    const again = arrive('New message');
    const between = { ...again, text: 'Typing…' };
    server.post(again, between);
    expect(await arrivals.read()).toEqual([again, between]);
    server.post(again);
    expect(await arrivals.read()).toEqual([again]);
  });
}
