// Notification verdicts that hold whatever the phones' clocks say: against simulators whose phones run 10 and
// 5 minutes behind, on time, 5 and 10 minutes ahead, listing oldest or newest first, counting `position` in
// the filtered or the whole list, stamping `time` in ms or in s, and already holding more than a page of
// older messages. Every phone has its own client and feed, as a worker of the device matrix does.
import { expect, test } from '../helpers/test.js';
import { Deadline, DeviceClient } from '../../src/client/index.js';
import { NotificationFeed, waitForMessage, watchWindow } from '../../src/phone/index.js';
import type { Notification } from '../../src/core/notifications.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';

const MIN = 60_000;
const PHONES = [-10, -5, 0, 5, 10].map((minutes, i) => ({ id: `device@${7001 + i}`, name: `clock${minutes < 0 ? 'minus' : 'plus'}${Math.abs(minutes)}`, clockOffsetMs: minutes * MIN }));
/** A phone no case watches, whose apps post beside the others. */
const BYSTANDER = { id: 'device@7100', name: 'bystander', clockOffsetMs: 3 * MIN };
const HISTORY = 130;

// Its tests wait on notification windows, not on a core: spread over the workers under `npm run test:unit` too,
// which gives every other file whole to one worker.
test.describe.configure({ mode: 'parallel' });

const SERVERS = [];
for (const notificationOrder of ['oldest-first', 'newest-first'] as const) {
  for (const positionIndexes of ['filtered', 'unfiltered'] as const) {
    for (const timeUnit of ['ms', 's'] as const) SERVERS.push({ notificationOrder, positionIndexes, timeUnit });
  }
}

/** One phone as a worker sees it: its client, its feed, and the simulator's hand to post as its apps do. */
interface Phone {
  id: string;
  feed: NotificationFeed;
  post(app: string, text: string): Notification;
}

const chat = (phone: Phone, text?: RegExp) => (m: Notification) => m.id === phone.id && m.app === 'com.example.chat' && (text ?? /code/).test(m.text);
const ads = (phone: Phone) => (m: Notification) => m.id === phone.id && m.app === 'com.example.ads';

for (const server of SERVERS) {
  test(`${server.notificationOrder}, position in the ${server.positionIndexes} list, time in ${server.timeUnit}`, async () => {
    const sim = await startSimulator({
      port: 0,
      behaviour: server,
      scenario: { phones: [...PHONES, BYSTANDER].map((p) => ({ ...p, screen: { width: 8, height: 8 } })) },
    });
    const clients: DeviceClient[] = [];
    try {
      for (let i = 0; i < HISTORY; i++) sim.postNotification({ device: PHONES[i % PHONES.length]!.id, app: i % 2 ? 'com.example.chat' : 'com.example.ads', text: `history ${i} code ${100_000 + i}` });
      const phones = PHONES.map((p) => {
        const client = new DeviceClient({ url: sim.url });
        clients.push(client);
        return { id: p.id, feed: new NotificationFeed(client), post: (app: string, text: string) => sim.postNotification({ device: p.id, app, text }) };
      });
      await Promise.all(phones.map((phone) => scenarios(phone, sim)));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await sim.close();
    }
  });
}

/** Every case on one phone, in turn, while the other phones run theirs on the same list. */
async function scenarios(phone: Phone, sim: SimulatorHandle): Promise<void> {
  const label = (what: string) => `${phone.id} (${PHONES.find((p) => p.id === phone.id)!.name}): ${what}`;

  await test.step(label('a waiter returns the new code, never the stale one it already held'), async () => {
    phone.post('com.example.chat', 'code 111111');
    const wait = waitForMessage(phone.feed, chat(phone), Deadline.in(5_000));
    await wait.armed; // as the fixtures' acts do
    phone.post('com.example.chat', 'code 222222');
    const outcome = await wait.outcome;
    expect(outcome.found?.text).toBe('code 222222');
    expect(wait.seen.map((m) => m.text)).not.toContain('code 111111');
  });

  await test.step(label('an act well after arming is seen'), async () => {
    const wait = waitForMessage(phone.feed, chat(phone, /later/), Deadline.in(5_000));
    await wait.armed;
    // Well after: the list read twice more since, before the act.
    await readsAfter(phone.feed, 2);
    phone.post('com.example.chat', 'code later 333333');
    expect((await wait.outcome).found?.text).toBe('code later 333333');
  });

  await test.step(label('an act by other means, right after the call, is never answered with an old message'), async () => {
    phone.post('com.example.chat', 'stale code 000000');
    const wait = waitForMessage(phone.feed, chat(phone), Deadline.in(800));
    phone.post('com.example.chat', 'code 444444');
    const { found } = await wait.outcome;
    // Before the arming read it counts only when the phone's clock is known: found, or not found; never stale.
    expect([undefined, 'code 444444']).toContain(found?.text);
  });

  await test.step(label('an ad inside a negative window is caught; one from before it is not'), async () => {
    phone.post('com.example.ads', 'an ad before the window');
    const watching = watchWindow(phone.feed, ads(phone), 500).outcome;
    await phone.feed.settled();
    phone.post('com.example.ads', 'an ad inside the window');
    const outcome = await watching;
    expect(outcome.complete).toBe(true);
    expect(outcome.hits.map((m) => m.text)).toEqual(['an ad inside the window']);
  });

  await test.step(label('a quiet window passes while only other apps and phones post'), async () => {
    phone.post('com.example.ads', 'another ad before the window');
    const watching = watchWindow(phone.feed, ads(phone), 400).outcome;
    await phone.feed.settled();
    sim.postNotification({ device: BYSTANDER.id, app: 'com.example.ads', text: 'an ad on the bystander' });
    phone.post('com.example.mail', 'hello');
    const outcome = await watching;
    expect(outcome.complete).toBe(true);
    expect(outcome.hits).toEqual([]);
  });

  await test.step(label('two waiters armed together each get theirs'), async () => {
    const a = waitForMessage(phone.feed, chat(phone, /^code A/), Deadline.in(5_000));
    const b = waitForMessage(phone.feed, chat(phone, /^code B/), Deadline.in(5_000));
    await phone.feed.settled();
    phone.post('com.example.chat', 'code B 555555');
    phone.post('com.example.chat', 'code A 666666');
    expect((await a.outcome).found?.text).toBe('code A 666666');
    expect((await b.outcome).found?.text).toBe('code B 555555');
  });
}

/** Resolves once the feed has answered `count` reads, one after another, each started after the one before was answered. */
async function readsAfter(feed: NotificationFeed, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    // A listener is armed by the first read that started after it joined, once that read is answered.
    const deadline = Deadline.in(5_000);
    const probe = feed.subscribe({ deliver: () => undefined, fail: () => undefined }, deadline);
    await probe.armed;
    probe.close();
    deadline.dispose();
    expect(probe.isArmed, 'the feed answered no read after the probe joined').toBe(true);
  }
}
