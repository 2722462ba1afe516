// The soak of `npm run soak` (bench/soak/), shortened: 32 waiters on 8 phones for 10 s of steady state, the
// simulator's heap (after a full collection) flat, every notification seen by its waiter exactly once; then
// 500 uploads at once, all stored intact.
import { describe, problems, runSoak } from '../../bench/soak/soak.js';
import { expect, test } from '@playwright/test';

test('32 waiters on 8 phones, then 500 uploads at once: nothing lost, nothing twice, memory flat', async ({}, testInfo) => {
  test.setTimeout(90_000);
  const figures = await runSoak({ durationMs: 10_000, warmupMs: 5_000 });
  const text = describe(figures);
  await testInfo.attach('soak.txt', { body: text });
  process.stdout.write(`${text}\n`);
  expect(problems(figures)).toEqual([]);
  // The load was real: each waiter saw many messages, each phone's feed every message of every phone.
  expect(figures.notifications.posted).toBeGreaterThan(32 * 20);
  expect(figures.uploads).toMatchObject({ sent: 500, stored: 500, damaged: [], errors: [], sharedUrls: 0 });
});
