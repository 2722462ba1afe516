// The lab preset's phone clocks on the wire (list order unchanged), time in seconds, and how a lab is given:
// options, scenario (validated), handle, admin API. Latency and serial reads: lab-latency.test.ts.
import { writeFile } from 'node:fs/promises';
import { LAB_PRESET, loadScenario, startSimulator, type PhoneInput, type ScenarioInput, type SimulatorHandle } from '../../src/simulator/index.js';
import { A, B, T0, admin, authed, expect, login, test, timedNotes } from './harness.js';

const C = 'device@1000000003';
const FIVE_MIN = 300_000;
const phone = (id: string, name: string, extra: Partial<PhoneInput> = {}): PhoneInput => ({ id, name, screen: { width: 4, height: 4, fill: '0x25425c' }, ...extra });
const SCENARIO: ScenarioInput = {
  phones: [phone(A, 'a', { clockOffsetMs: FIVE_MIN }), phone(B, 'b', { clockOffsetMs: -180_000 }), phone(C, 'c')],
};

type Note = { app: string; text: string; time: number; id: string };
async function notes(sim: SimulatorHandle, query = 'position=1&count=50'): Promise<Note[]> {
  return ((await authed(sim, await login(sim), `/notifications?${query}`)).json as { value: Note[] }).value;
}
const offsets = (sim: SimulatorHandle) => Object.fromEntries(sim.phones.map((p) => [p.name, p.clockOffsetMs]));

test.describe('phone clocks', () => {
  test.use({ simOptions: { scenario: SCENARIO } });

  test('a message posted without a time carries the phone\'s clock; one with a time keeps it exactly', async ({ sim }) => {
    expect(sim.postNotification({ device: A, app: 'x', text: 'ahead' })).toEqual({ app: 'x', text: 'ahead', time: T0 + FIVE_MIN, id: A });
    expect(sim.postNotification({ device: B, app: 'x', text: 'behind' })).toMatchObject({ time: T0 - 180_000 });
    expect(sim.postNotification({ device: C, app: 'x', text: 'on time' })).toMatchObject({ time: T0 });
    const posted = await admin(sim, 'POST', 'notifications', { device: A, app: 'x', text: 'history', time: T0 - 3_600_000 });
    expect(posted.json).toMatchObject({ notification: { time: T0 - 3_600_000 } });
    expect((await notes(sim)).map((n) => [n.text, n.time])).toEqual([
      ['history', T0 - 3_600_000],
      ['ahead', T0 + FIVE_MIN],
      ['behind', T0 - 180_000],
      ['on time', T0],
    ]);
  });

  test('the list keeps the order of arrival whatever the phones\' clocks say', async ({ sim, clock }) => {
    for (const [device, text] of [[A, 'first'], [B, 'second'], [C, 'third']] as const) {
      sim.postNotification({ device, app: 'x', text });
      clock.advance(1);
    }
    expect((await notes(sim)).map((n) => n.text)).toEqual(['first', 'second', 'third']);
    // The wire times are out of order: the list is not sorted by them.
    expect((await notes(sim)).map((n) => n.time)).toEqual([T0 + FIVE_MIN, T0 + 1 - 180_000, T0 + 2]);
    sim.setBehaviour({ notificationOrder: 'newest-first' });
    expect((await notes(sim)).map((n) => n.text)).toEqual(['third', 'second', 'first']);
  });

  test.describe('timed and periodic messages', () => {
    test.use({
      simOptions: { scenario: { ...SCENARIO, notifications: timedNotes(A, B) } },
    });

    test('are stamped with their phone\'s clock and listed in the order they fell due', async ({ sim, clock }) => {
      clock.advance(1_000);
      expect(await notes(sim)).toEqual([
        { app: 'com.example.clock', text: 'tick 1', time: T0 + 500 - 180_000, id: B },
        { app: 'com.example.chat', text: 'Your code is 123456', time: T0 + 1_000 + FIVE_MIN, id: A },
        { app: 'com.example.clock', text: 'tick 2', time: T0 + 1_000 - 180_000, id: B },
      ]);
    });

    test('a clock changed at run time stamps what falls due after the change', async ({ sim, clock }) => {
      clock.advance(500);
      sim.setClockOffset(B, 7);
      clock.advance(500);
      expect((await notes(sim, `position=1&count=5&device=${B}`)).map((n) => n.time)).toEqual([T0 + 500 - 180_000, T0 + 1_000 + 7]);
    });
  });

  test('timeUnit "s" answers whole seconds (rounded down) on the wire and from postNotification', async ({ sim }) => {
    sim.setBehaviour({ timeUnit: 's' });
    sim.setClockOffset(C, 1_999);
    const posted = sim.postNotification({ device: C, app: 'x', text: 'now' });
    expect(posted.time).toBe(Math.floor((T0 + 1_999) / 1_000));
    sim.postNotification({ device: A, app: 'x', text: 'given', time: 1539833828999 });
    expect((await notes(sim)).map((n) => n.time)).toEqual([1539833828, Math.floor((T0 + 1_999) / 1_000)]);
  });

  test('setClockOffset and PATCH /_sim/phones/<id>/clock change the clock until reset; PhoneInfo shows it', async ({ sim }) => {
    expect(offsets(sim)).toEqual({ a: FIVE_MIN, b: -180_000, c: 0 });
    sim.setClockOffset(A, -1);
    const answer = await admin(sim, 'PATCH', `phones/${C}/clock`, { offsetMs: 86_400_000 });
    expect(answer.json).toMatchObject({ ok: true, phone: { id: C, clockOffsetMs: 86_400_000 } });
    expect(offsets(sim)).toEqual({ a: -1, b: -180_000, c: 86_400_000 });
    expect(sim.postNotification({ device: C, app: 'x', text: 'tomorrow' }).time).toBe(T0 + 86_400_000);
    sim.reset();
    expect(offsets(sim)).toEqual({ a: FIVE_MIN, b: -180_000, c: 0 });
  });

  for (const [what, body, error] of [
    ['a fraction', { offsetMs: 1.5 }, 'offsetMs is 1.5; write the clock offset in milliseconds, an integer from -86400000 to 86400000'],
    ['more than a day', { offsetMs: -86_400_001 }, 'offsetMs is -86400001; write the clock offset'],
    ['a text', { offsetMs: '5m' }, 'offsetMs is "5m"; write the clock offset'],
    ['an unknown key', { offset: 5 }, 'clock.offset is not a known key; write one of offsetMs'],
  ] as const) {
    test(`a clock offset of ${what} is refused with what to write`, async ({ sim }) => {
      const answer = await admin(sim, 'PATCH', `phones/${A}/clock`, body);
      expect(answer.status).toBe(400);
      expect((answer.json as { error: string }).error).toContain(error);
      expect(offsets(sim).a).toBe(FIVE_MIN);
    });
  }

  test('an offset for a phone that is not there is refused', async ({ sim }) => {
    expect(() => sim.setClockOffset('device@5', 1)).toThrow(/no phone "device@5"/);
    expect((await admin(sim, 'PATCH', 'phones/device@5/clock', { offsetMs: 1 })).status).toBe(404);
  });
});

test.describe('how a lab is given', () => {
  const SEVEN: ScenarioInput = {
    lab: true,
    phones: [phone(A, 'p1'), phone(B, 'p2'), phone(C, 'p3', { clockOffsetMs: 12 }), ...[4, 5, 6, 7].map((n) => phone(`device@${n}`, `p${n}`))],
  };

  test('LAB_PRESET holds the documented figures', () => {
    expect(LAB_PRESET).toEqual({
      latencyMs: { pixel: [20, 80], settings: [20, 60], notifications: [20, 80], login: [50, 150], mainDevice: [10, 40], upload: [50, 150], download: [5, 20], capture: [80, 200], captureFile: [5, 20], inputs: [30, 120], texts: [30, 120], script: [30, 120], appState: [200, 600], apps: [20, 80], aai: [40, 200] },
      serialScreenReads: true,
      screenGrabMs: [3, 7],
      clockOffsetCycleMs: [300_000, -180_000, 47_000, -90_000, 600_000, -600_000],
      seed: 1,
    });
    expect(Object.isFrozen(LAB_PRESET.latencyMs)).toBe(true);
  });

  test('"lab": true in a scenario hands out the preset\'s clock offsets in order, cycled, unless a phone has its own', async () => {
    const sim = await startSimulator({ port: 0, scenario: SEVEN });
    try {
      expect(sim.lab).toEqual(LAB_PRESET);
      expect(offsets(sim)).toEqual({ p1: 300_000, p2: -180_000, p3: 12, p4: -90_000, p5: 600_000, p6: -600_000, p7: 300_000 });
    } finally {
      await sim.close();
    }
  });

  test('the options\' offsets win over the lab\'s, which win over the scenario\'s; options\' lab wins over the scenario\'s', async () => {
    const sim = await startSimulator({ port: 0, scenario: { ...SEVEN, lab: { clockOffsetMs: { p3: 3, [B]: 2 } } }, lab: { ...LAB_PRESET, clockOffsetMs: { p3: 33 } }, clockOffsetMs: { [A]: 1 } });
    try {
      expect(offsets(sim)).toMatchObject({ p1: 1, p2: -180_000, p3: 33 });
    } finally {
      await sim.close();
    }
    const off = await startSimulator({ port: 0, scenario: SEVEN, lab: false });
    try {
      expect(off.lab).toBeUndefined();
      expect(offsets(off)).toEqual({ p1: 0, p2: 0, p3: 12, p4: 0, p5: 0, p6: 0, p7: 0 });
    } finally {
      await off.close();
    }
  });

  for (const [what, options, message] of [
    ['a lab that is not one', { lab: 'yes' }, 'lab is "yes"; write true (the lab preset), false, or an object'],
    ['an offset for no phone', { clockOffsetMs: { nobody: 5 } }, 'clockOffsetMs names "nobody", which is not a phone here; write the id or name of one of the phones'],
    ['a lab offset for no phone', { lab: { clockOffsetMs: { nobody: 5 } } }, 'lab.clockOffsetMs names "nobody"'],
    ['an offset past a day', { clockOffsetMs: { a: 90_000_000 } }, 'clockOffsetMs.a is 90000000; write the clock offset'],
  ] as const) {
    test(`options with ${what} are refused before anything listens`, async () => {
      await expect(startSimulator({ port: 0, scenario: SCENARIO, ...(options as object) })).rejects.toMatchObject({ code: 'PW_USAGE', message: expect.stringContaining(message) });
    });
  }

  test.describe('at run time', () => {
    test.use({ simOptions: { scenario: SCENARIO } });

    test('setLab(true) turns the preset on, setLab(undefined) off; reset() goes back to the start\'s lab', async ({ sim }) => {
      expect(sim.lab).toBeUndefined();
      sim.setLab(true);
      expect(sim.lab).toEqual(LAB_PRESET);
      // The phones' own offsets stay; the preset's cycle fills in the rest.
      expect(offsets(sim)).toEqual({ a: FIVE_MIN, b: -180_000, c: 47_000 });
      sim.setLab(undefined);
      expect(offsets(sim)).toEqual({ a: FIVE_MIN, b: -180_000, c: 0 });
      sim.setLab({ latencyMs: { pixel: 1 } });
      sim.reset();
      expect(sim.lab).toBeUndefined();
      expect(() => sim.setLab({ latencyMs: { pixel: [8, 2] } } as never)).toThrow(/lab.latencyMs.pixel is \[8,2\]; write whole milliseconds/);
    });

    test('PUT /_sim/lab sets it, GET /_sim/state shows it, false, {} and DELETE turn it off', async ({ sim }) => {
      const on = await admin(sim, 'PUT', 'lab', true);
      expect(on.json).toMatchObject({ ok: true, lab: LAB_PRESET, phones: expect.arrayContaining([expect.objectContaining({ id: C, clockOffsetMs: 47_000 })]) });
      expect((await admin(sim, 'GET', 'state')).json).toMatchObject({ lab: LAB_PRESET });
      for (const off of [false, {}]) {
        expect((await admin(sim, 'PUT', 'lab', off)).json).toMatchObject({ ok: true, lab: false });
        expect((await admin(sim, 'GET', 'state')).json).toMatchObject({ lab: false });
        await admin(sim, 'PUT', 'lab', { serialScreenReads: true });
      }
      expect((await admin(sim, 'DELETE', 'lab')).json).toEqual({ ok: true, lab: false });
      const bad = await admin(sim, 'PUT', 'lab', { latencyMs: { teleport: 5 } });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({ ok: false, error: expect.stringContaining('lab.latencyMs.teleport is not an operation; write one of login, mainDevice, upload') });
    });
  });
});

test.describe('scenario validation', () => {
  const ok = [phone(A, 'a')];
  const INVALID: [string, unknown, string][] = [
    ['a clock offset that is a fraction', { phones: [phone(A, 'a', { clockOffsetMs: 1.5 })] }, 'phones[0].clockOffsetMs is 1.5; write the clock offset in milliseconds, an integer from -86400000 to 86400000'],
    ['a clock offset past a day', { phones: [phone(A, 'a', { clockOffsetMs: 86_400_001 })] }, 'phones[0].clockOffsetMs is 86400001'],
    ['a lab that is a word', { phones: ok, lab: 'yes' }, 'lab is "yes"; write true (the lab preset), false, or an object'],
    ['an unknown lab key', { phones: ok, lab: { latency: 5 } }, 'lab.latency is not a lab setting; write one of latencyMs, serialScreenReads, screenGrabMs, clockOffsetMs, clockOffsetCycleMs, seed'],
    ['an unknown operation', { phones: ok, lab: { latencyMs: { screenshot: 5 } } }, 'lab.latencyMs.screenshot is not an operation'],
    ['a range upside down', { phones: ok, lab: { latencyMs: { pixel: [8, 2] } } }, 'lab.latencyMs.pixel is [8,2]; write whole milliseconds from 0 to 600000, or a range [min, max] with min ≤ max'],
    ['a negative latency', { phones: ok, lab: { latencyMs: { settings: -1 } } }, 'lab.latencyMs.settings is -1'],
    ['serial reads as text', { phones: ok, lab: { serialScreenReads: 'yes' } }, 'lab.serialScreenReads is "yes"; write true or false'],
    ['a lab offset for no phone', { phones: ok, lab: { clockOffsetMs: { b: 5 } } }, 'lab.clockOffsetMs names "b", which is not a phone here; write the id or name of one of the phones: device@1000000001 (a)'],
    ['a lab offset as text', { phones: ok, lab: { clockOffsetMs: { a: '5m' } } }, 'lab.clockOffsetMs.a is "5m"; write the clock offset'],
    ['a cycle with a fraction', { phones: ok, lab: { clockOffsetCycleMs: [1, 2.5] } }, 'lab.clockOffsetCycleMs[1] is 2.5'],
    ['a negative seed', { phones: ok, lab: { seed: -1 } }, 'lab.seed is -1; write an integer from 0'],
  ];
  for (const [what, json, message] of INVALID) {
    test(`refuses ${what}, naming the file and the JSON path`, async ({}, testInfo) => {
      const file = testInfo.outputPath('lab.json');
      await writeFile(file, JSON.stringify(json));
      expect(() => loadScenario(file)).toThrow(expect.objectContaining({ code: 'PW_CONFIG', message: expect.stringContaining(`${file}: ${message}`) }));
    });
  }

  test('accepts true, false, {} and a full object', () => {
    expect(loadScenario({ phones: ok, lab: true }).lab).toEqual(LAB_PRESET);
    expect(loadScenario({ phones: ok, lab: false }).lab).toBeUndefined();
    expect(loadScenario({ phones: ok, lab: {} }).lab).toBeUndefined();
    const lab = { latencyMs: { pixel: 3, settings: [1, 2] as [number, number] }, serialScreenReads: false, clockOffsetMs: { a: -5 }, clockOffsetCycleMs: [1], seed: 9 };
    expect(loadScenario({ phones: ok, lab }).lab).toEqual(lab);
  });
});
