// The example suites (specs/) against a simulator that behaves like a phone lab: every read takes
// milliseconds, one phone's screen is read one pixel at a time, and the phones' clocks run minutes ahead of
// and behind this machine's. A verdict that holds only on the fast, in-sync simulator would fail here.
import { expect, test } from '../helpers/inline.js';
import { EXAMPLE_PHONES, exampleProject, runOn, summaryLine, TESTS_PER_PHONE } from '../helpers/example-project.js';

test('the example suites pass on the lab preset', async ({ inline, startSim }) => {
  const sim = await startSim({ lab: true });
  // The preset is in force: every phone's clock is off, and its pixel reads are serial and take time.
  expect(sim.phones.map((p) => p.clockOffsetMs).every((ms) => ms !== 0)).toBe(true);
  const project = await exampleProject(inline.project);

  const run = await runOn(project, sim);

  expect(run.summary.total, run.output).toEqual({ passed: EXAMPLE_PHONES.length * TESTS_PER_PHONE, failed: 0, skipped: 0, flaky: 0 });
  expect(summaryLine(run)).toBe(`${EXAMPLE_PHONES.length * TESTS_PER_PHONE} passed, 0 failed`);
  // The waiters saw the phones' messages with their own clocks' times, minutes away from this machine's.
  const seen = JSON.parse(run.test('a login code arrives as a notification', 'moto-g5').attachment('notifications-seen.json').toString('utf8')) as { time: number }[];
  expect(seen.length).toBeGreaterThan(0);
  for (const m of seen) expect(Math.abs(m.time - Date.now())).toBeGreaterThan(30_000);
});
