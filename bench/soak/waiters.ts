// The waiters' load: phones as the device matrix has them (a client and a notification feed each), several
// waiters per phone, each arming a wait, posting (once it is armed) the message it waits for, then reading a pixel, over and over.
import { Deadline, DeviceClient } from '../../src/client/index.js';
import { NotificationFeed, waitForMessage } from '../../src/phone/index.js';
import { SimulatorAdmin } from '../../fixtures/simulator.js';

export interface WaiterLoad {
  url: string;
  adminKey: string;
  user: string;
  password: string;
  phones: string[];
  waitersPerPhone: number;
  /** When the load stops (performance.now()). */
  until: number;
  /** A message not seen this long after it was posted counts as lost. */
  lostAfterMs: number;
}

export interface WaiterFigures {
  posted: number;
  /** Messages their waiter saw. */
  seen: number;
  lost: string[];
  /** Messages a phone's feed delivered more than once, or never (each feed reads every phone's list). */
  duplicates: string[];
  missed: string[];
  /** ms from posting to the waiter seeing it. */
  latencies: number[];
  pixelReads: number;
  errors: string[];
}

/**
 * Runs the waiters until `until`. Beside them, each phone's feed has one listener for the whole run that
 * counts every message it is handed: each message posted must reach every feed exactly once.
 */
export async function runWaiters(load: WaiterLoad): Promise<WaiterFigures> {
  const figures: WaiterFigures = { posted: 0, seen: 0, lost: [], duplicates: [], missed: [], latencies: [], pixelReads: 0, errors: [] };
  const posted: string[] = [];
  const admin = new SimulatorAdmin(load.url, load.adminKey);
  const phones = load.phones.map((id) => {
    const client = new DeviceClient({ url: load.url, user: load.user, password: load.password });
    const feed = new NotificationFeed(client);
    const counts = new Map<string, number>();
    const tally = feed.subscribe(
      {
        deliver: (messages) => messages.forEach((m) => counts.set(m.text, (counts.get(m.text) ?? 0) + 1)),
        fail: (error) => figures.errors.push(`the feed of ${id} failed: ${(error as Error).message}`),
      },
      Deadline.in(Infinity),
    );
    return { id, client, feed, counts, tally };
  });
  await Promise.all(phones.map((p) => p.tally.armed));

  const waiter = async (phone: (typeof phones)[number], n: number) => {
    for (let i = 0; performance.now() < load.until; i++) {
      const text = `soak ${phone.id} waiter ${n} message ${i}`;
      const deadline = Deadline.in(load.lostAfterMs);
      const wait = waitForMessage(phone.feed, (m) => m.id === phone.id && m.text === text, deadline);
      // As the app under test would, once the waiter is armed (as the fixtures' acts wait for it).
      await wait.armed;
      const sent = performance.now();
      await admin.postNotification(phone.id, 'com.example.soak', text);
      posted.push(text);
      figures.posted++;
      const outcome = await wait.outcome;
      deadline.dispose();
      if (outcome.found) {
        figures.seen++;
        figures.latencies.push(performance.now() - sent);
      } else if (outcome.error !== undefined) figures.errors.push((outcome.error as Error).message);
      else figures.lost.push(text);
      await phone.client.pixel(phone.id, i % 64, n % 48);
      figures.pixelReads++;
    }
  };
  try {
    await Promise.all(phones.flatMap((p) => Array.from({ length: load.waitersPerPhone }, (_, n) => waiter(p, n))));
    // One more poll of every feed, so a message posted at the very end has reached the tallies.
    await Promise.all(
      phones.map(async (p) => {
        const last = p.feed.subscribe({ deliver: () => {}, fail: () => {} }, Deadline.in(load.lostAfterMs));
        await last.armed;
        last.close();
      }),
    );
  } finally {
    for (const p of phones) {
      p.tally.close();
      await p.client.close();
    }
  }
  for (const p of phones) {
    for (const text of posted) {
      const n = p.counts.get(text) ?? 0;
      if (n === 0) figures.missed.push(`${text} (feed of ${p.id})`);
      if (n > 1) figures.duplicates.push(`${text} ×${n} (feed of ${p.id})`);
    }
  }
  return figures;
}
