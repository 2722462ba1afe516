// A check's timeout is the phone's time. While this machine keeps a phone's answer waiting (its event loop held by a
// search, a host whose cores are taken), the check's deadline moves later, up to what the test's timeout allows;
// when the host takes all of that, the check says the host was busy, and the lab is not blamed.
import { Deadline, hostMs, onHost } from '../../src/client/index.js';
import { parseDeviceId } from '../../src/core/device-id.js';
import { TimeoutError } from '../../src/core/errors.js';
import { NO_HOOKS, Phone, untilChecked, checkStart } from '../../src/phone/index.js';
import { checkPixel } from '../../src/phone/check-pixel.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import type { DeviceClient } from '../../src/client/index.js';
import { smallPhone } from '../helpers/inline-config.js';
import { expect, test } from '../client/harness.js';

const ID = 'device@4471';
const FILL = '0x203040';
const SCENARIO = { phones: [smallPhone(ID, 'busy-host-phone', FILL, [])] };

/** Holds this thread's event loop for `ms`, as a search or a read of text does. */
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function phoneOf(sim: SimulatorHandle, connect: (url: string) => DeviceClient): Promise<Phone> {
  const client = connect(sim.url);
  await client.login();
  return new Phone(client, parseDeviceId(ID), { name: 'busy-host-phone', screen: { width: 64, height: 48 }, hooks: NO_HOOKS });
}

test('the count of this host\'s time grows by a held loop and by waits on its account, several at once counted once', async () => {
  const before = hostMs();
  const t0 = performance.now();
  hold(300);
  const held = hostMs() - before;
  const heldWall = performance.now() - t0;
  expect(held).toBeGreaterThanOrEqual(250);
  // Never more than the time that passed: the host's time is a share of the wall's.
  expect(held).toBeLessThanOrEqual(heldWall + 60);
  const from = hostMs();
  const t1 = performance.now();
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.all([onHost(wait(200)), onHost(wait(200)), onHost(() => wait(200))]);
  const waited = hostMs() - from;
  const wall = performance.now() - t1;
  expect(waited).toBeGreaterThanOrEqual(190);
  // Three waits side by side are their wall time of the host's, not three times it.
  expect(waited, `${waited} ms counted in ${wall} ms`).toBeLessThanOrEqual(wall + 5);
});

test('a hold that begins as a wait on the host\'s account ends is counted whole', async () => {
  // The wait ends between two ticks; the hold that follows at once is the loop's, and is not the wait's time.
  await onHost(new Promise((resolve) => setTimeout(resolve, 20)));
  const before = hostMs();
  hold(300);
  expect(hostMs() - before).toBeGreaterThanOrEqual(250);
  // Counted once: the next tick, once the loop runs, adds nothing to what was read during the hold; only what the
  // wait below was kept late by (other work of this process, a busy host), which its wall time shows.
  const after = hostMs();
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 120));
  const late = performance.now() - t0 - 120;
  expect(hostMs() - after).toBeLessThan(late + 60);
});

test('a deadline that allows the host\'s time moves later by a held loop; a plain one passes', async () => {
  const plain = Deadline.in(200);
  const phones = Deadline.in(200, undefined, 5_000);
  try {
    hold(500);
    expect(plain.passed).toBe(true);
    expect(phones.passed, 'the hold was the host\'s: the phone has not had its 200 ms').toBe(false);
    // All of the hold but the tick it began in (50 ms, and 10 of jitter) is counted.
    expect(phones.hostMs).toBeGreaterThanOrEqual(500 - 60);
    const capped = Deadline.in(200, undefined, 100);
    hold(400);
    expect(capped.passed, 'no more than its allowance').toBe(true);
    expect(capped.hostSpent).toBe(true);
    capped.dispose();
  } finally {
    plain.dispose();
    phones.dispose();
  }
});

test('a read whose answer this host kept waiting is answered, not cut; without the allowance it is cut', async ({ startSim, connect }) => {
  const phone = await phoneOf(await startSim({ scenario: SCENARIO }), connect);
  await phone.pixel(1, 1);
  // Each read is sent, then the loop is held past the check's whole timeout: the answer waits on this machine. The
  // hold is half the timeout longer than it, which leaves the read that much of its own time once the loop is
  // free (with 300 ms and a hold of 700, a loaded machine took more than the 240 ms left to answer it).
  const busyRead = (deadline: Deadline) => {
    const read = phone.pixel(5, 5, { deadline });
    hold(1_500);
    return read;
  };
  const kept = await untilChecked(busyRead, () => true, 1_000, checkStart(), 10_000);
  expect(kept.done).toBe(true);
  expect(kept.answered).toBe(1);
  expect(kept.hostMs).toBeGreaterThanOrEqual(1_400);
  expect(kept.hostSpent).toBe(false);

  const cut = await untilChecked(busyRead, () => true, 1_000, checkStart(), 0);
  expect(cut.done).toBe(false);
  expect(cut.hostSpent, 'the host took all it was allowed: none').toBe(true);
  expect(cut.error).toBeInstanceOf(TimeoutError);
  expect((cut.error as Error).message).toMatch(/this host was busy: \d+ ms waiting for its CPU/);
});

test('a check whose time this host took says so, and the lab is not blamed', async ({ startSim, connect }) => {
  const sim = await startSim({ scenario: SCENARIO });
  const phone = await phoneOf(sim, connect);
  await phone.pixel(1, 1);
  phone.lab.take();
  // The phone would not answer in time either: the host's share decides which of the two is said.
  sim.freeze(ID);
  // The host is busy from just after the check starts until well past its timeout and its allowance.
  const busy = setInterval(() => hold(400), 1);
  try {
    const v = await checkPixel(phone, 5, 5, '0xffffff', {}, { isNot: false, timeout: 300, hostAllowance: 500 });
    expect(v.pass).toBe(false);
    const message = v.lines.map((l) => l.map((p) => (typeof p === 'string' ? p : '')).join('')).join('\n');
    expect(message).toMatch(/Received: no answer: this host was busy: \d+ ms waiting for its CPU/);
    expect(message).not.toMatch(/the phone stopped answering/);
    expect(message).toMatch(/ms of it this host's/);
  } finally {
    clearInterval(busy);
  }
  expect(phone.lab.take(), 'no infra-failure: the lab answered').toEqual([]);
});
