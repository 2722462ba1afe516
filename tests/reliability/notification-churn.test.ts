// Notifications under churn, as the soak and the fault suite found them lost: a list at its cap whose front
// falls off while it is read page by page, a waiter that joins while a poll is in flight, a read that fails
// after the client's retries. Every message reaches every listener exactly once.
import { NotificationFeed } from '../../src/client/feed.js';
import { NotificationWatcher } from '../../src/client/watch.js';
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
    const watcher = new NotificationWatcher(connect(server), { pageSize: 10 });
    await watcher.arm();
    churning = true;
    const reported: Notification[] = [];
    for (let poll = 0; poll < 12; poll++) reported.push(...(await watcher.poll()));
    churning = false;
    reported.push(...(await watcher.poll()));
    expect(reported.map((n) => n.text)).toEqual(expected.map((n) => n.text));
  });
}

test('a listener that joins while a poll is in flight gets a message that poll brings back', async ({ serve, connect }) => {
  const server = await serve();
  server.post(arrive('before'));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  server.handle('notifications', async (_req, next) => {
    // The first read waits until the second listener has joined and its message has arrived.
    if (first) {
      first = false;
      await held;
    }
    return next();
  });
  const feed = new NotificationFeed(connect(server), { interval: 20 });
  const early: Notification[] = [];
  const one = feed.subscribe((m) => early.push(...m), () => {});
  await server.waitFor('notifications');
  const late: Notification[] = [];
  const two = feed.subscribe((m) => late.push(...m), () => {});
  const message = { app: 'com.example.chat', text: 'code 482913', time: Date.now(), id: PHONE };
  server.post(message);
  release();
  await Promise.all([one.ready, two.ready]);
  await feed.subscribe(() => {}, () => {}).ready; // one more poll: nothing comes twice
  one.close();
  two.close();
  expect(late).toEqual([message]);
  expect(early).toEqual([message]);
});

test('a feed read that fails after the client\'s retries is tried again before any waiter is failed', async ({ serve, connect }) => {
  const server = await serve();
  // Four resets: every attempt of the first read (the test client tries four times).
  server.handle('notifications', inOrder('reset', 'reset', 'reset', 'reset'));
  const feed = new NotificationFeed(connect(server), { interval: 10 });
  const failures: unknown[] = [];
  const got: Notification[] = [];
  let failed!: () => void;
  const failedOnce = new Promise<void>((resolve) => (failed = resolve));
  const waiter = feed.subscribe((m) => got.push(...m), (e) => (failures.push(e), failed()));
  await Promise.race([waiter.ready, failedOnce]);
  expect(failures).toEqual([]);
  const message = { app: 'com.example.chat', text: 'code 482913', time: Date.now(), id: PHONE };
  server.post(message);
  await feed.subscribe(() => {}, () => {}).ready;
  waiter.close();
  expect(failures).toEqual([]);
  expect(got).toEqual([message]);
});

test('two feed reads failing in a row end the waits, with the client\'s error', async ({ serve, connect }) => {
  const server = await serve();
  server.handle('notifications', 'reset');
  const feed = new NotificationFeed(connect(server), { interval: 10 });
  const error = await new Promise<Error & { code?: string }>((resolve) => feed.subscribe(() => {}, (e) => resolve(e as Error)));
  expect(error.code).toBe('PW_UNREACHABLE');
  expect(server.count('notifications')).toBe(8);
});
