// Notifications under churn, as the soak and the fault suite found them lost: a list at its cap whose front
// falls off while it is read page by page, a waiter that joins while a poll is in flight, reads that fail
// after the client's retries. Every message reaches every listener armed before it exactly once.
import { Deadline } from '../../src/client/index.js';
import { Arrivals, NotificationFeed, waitForMessage } from '../../src/phone/index.js';
import type { Notification } from '../../src/core/notifications.js';
import { inOrder, type FakeNotification } from '../helpers/fake-server.js';
import { expect, test } from '../client/harness.js';

const PHONE = 'device@1174886816';
let clock = Date.now() - 1_000_000;
const arrive = (text: string): FakeNotification => ({ app: 'com.example.chat', text, time: (clock += 10), id: PHONE });

for (const perRead of [1, 3, 4]) {
  test(`a full list losing ${perRead} old message(s) per page read: every new message reported once, in order`, async ({ serve, connect }) => {
    // 200 held, pages of 10 (an overlap of 2): each read lets `perRead` new messages in and as many old ones
    // fall off the front, so the list moves back between two page reads by less, or more, than the overlap
    // (up to what a reader of pages of 10 can keep up with: fewer than half a page per read).
    const server = await serve({ held: 200 });
    for (let i = 0; i < 200; i++) server.post(arrive(`old ${i}`));
    const expected: FakeNotification[] = [];
    let churning = false;
    server.handle('notifications', (_req, next) => {
      if (churning) for (let i = 0; i < perRead; i++) server.post(expected[expected.push(arrive(`new ${expected.length}`)) - 1]!);
      return next();
    });
    const arrivals = new Arrivals(connect(server), { pageSize: 10 });
    await arrivals.baseline();
    churning = true;
    const reported: Notification[] = [];
    for (let poll = 0; poll < 12; poll++) reported.push(...(await arrivals.read()));
    churning = false;
    reported.push(...(await arrivals.read()));
    expect(reported.map((n) => n.text)).toEqual(expected.map((n) => n.text));
  });
}

test('listeners that join while a poll is in flight: each gets every message after its arming read, none twice', async ({ serve, connect }) => {
  const server = await serve();
  server.post(arrive('before'));
  const feed = new NotificationFeed(connect(server), { interval: 20 });
  const early: Notification[] = [];
  const one = feed.subscribe({ deliver: (m) => early.push(...m), fail: () => {} }, Deadline.in(10_000));
  await one.armed;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  server.handle('notifications', async (_req, next) => {
    // One read waits until the second listener has joined and a message has arrived.
    if (holding) {
      holding = false;
      await held;
    }
    return next();
  });
  await server.waitFor('notifications');
  const late: Notification[] = [];
  const two = feed.subscribe({ deliver: (m) => late.push(...m), fail: () => {} }, Deadline.in(10_000));
  const during = arrive('during the read the second joined in');
  server.post(during);
  release();
  await two.armed;
  const after = arrive('after both were armed');
  server.post(after);
  const last = feed.subscribe({ deliver: () => {}, fail: () => {} }, Deadline.in(10_000));
  await last.armed; // one more read: nothing comes twice
  for (const s of [one, two, last]) s.close();
  expect(early).toEqual([during, after]);
  // Found by a read that began before it joined, with the phone's clock not yet known: counted as old.
  expect(late).toEqual([after]);
});

test('a feed read that fails after the client\'s retries is read again; no waiter is failed for it', async ({ serve, connect }) => {
  const server = await serve();
  // Four resets: every attempt of the first read (the test client tries four times).
  server.handle('notifications', inOrder('reset', 'reset', 'reset', 'reset'));
  const feed = new NotificationFeed(connect(server), { interval: 10 });
  const failures: unknown[] = [];
  const got: Notification[] = [];
  const waiter = feed.subscribe({ deliver: (m) => got.push(...m), fail: (e) => failures.push(e) }, Deadline.in(10_000));
  await waiter.armed;
  expect(waiter.unanswered).toBe(1);
  const message = { app: 'com.example.chat', text: 'code 482913', time: Date.now(), id: PHONE };
  server.post(message);
  const last = feed.subscribe({ deliver: () => {}, fail: () => {} }, Deadline.in(10_000));
  await last.armed;
  last.close();
  waiter.close();
  expect(failures).toEqual([]);
  expect(got).toEqual([message]);
});

test('a list that keeps failing ends each wait at its own deadline, with the client\'s last error', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('notifications', 'reset');
  const feed = new NotificationFeed(connect(server), { interval: 10 });
  const wait = waitForMessage(feed, () => true, Deadline.in(700));
  const outcome = await wait.outcome;
  expect(outcome.found).toBeUndefined();
  expect(outcome.report).toMatchObject({ reads: 0, armed: false });
  expect(outcome.report.unanswered).toBeGreaterThanOrEqual(1);
  expect((outcome.report.lastError as { code?: string }).code).toBe('PW_UNREACHABLE');
});
