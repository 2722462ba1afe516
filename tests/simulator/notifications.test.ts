// Notifications: filters, order, position, held messages, timed and periodic arrivals driven by a test clock.
import type { ScenarioInput, SimulatorHandle } from '../../src/simulator/index.js';
import { T0, authed, expect, login, test, timedNotes } from './harness.js';

const A = 'device@1000000001';
const B = 'device@-2000000002';
const SCENARIO: ScenarioInput = {
  phones: [
    { id: A, name: 'a', screen: { width: 10, height: 10 } },
    { id: B, name: 'b', screen: { width: 10, height: 10 } },
  ],
};

type Note = { app: string; text: string; time: number; id: string };

async function read(sim: SimulatorHandle, query: string): Promise<unknown> {
  return (await authed(sim, await login(sim), `/notifications?${query}`)).json;
}
async function texts(sim: SimulatorHandle, query: string): Promise<string[]> {
  const answer = (await read(sim, query)) as { status: boolean; value: Note[] };
  expect(answer.status).toBe(true);
  return answer.value.map((n) => n.text);
}
/** Posts: A music 1, B power 2, A chat 3, B music 4, A Music 5 (capital M), one millisecond apart. */
function postFive(sim: SimulatorHandle): void {
  const rows: [string, string, string][] = [[A, 'com.music', 'music 1'], [B, 'com.power', 'power 2'], [A, 'com.chat', 'chat 3'], [B, 'com.music', 'music 4'], [A, 'com.music', 'Music 5']];
  rows.forEach(([device, app, text], i) => sim.postNotification({ device, app, text, time: T0 + i }));
}

test.use({ simOptions: { scenario: SCENARIO } });

test('a message answers with app, text, time in ms and the phone id; Unicode is kept', async ({ sim }) => {
  sim.postNotification({ device: B, app: 'com.sigma_rt.totalcontrol', text: '点击进入程序 🎉', time: 1539833828000 });
  expect(await read(sim, 'position=1&count=1')).toEqual({ status: true, value: [{ app: 'com.sigma_rt.totalcontrol', text: '点击进入程序 🎉', time: 1539833828000, id: B }] });
});

test('position 1 is the oldest message by default, ascending by time', async ({ sim }) => {
  postFive(sim);
  expect(await texts(sim, 'position=1&count=10')).toEqual(['music 1', 'power 2', 'chat 3', 'music 4', 'Music 5']);
  expect(await texts(sim, 'position=2&count=2')).toEqual(['power 2', 'chat 3']);
});

test('count omitted answers only the message at position', async ({ sim }) => {
  postFive(sim);
  expect(await texts(sim, 'position=3')).toEqual(['chat 3']);
});

test('a message posted with an older time takes its place by time', async ({ sim }) => {
  sim.postNotification({ device: A, app: 'x', text: 'late', time: T0 + 10 });
  sim.postNotification({ device: A, app: 'x', text: 'early', time: T0 + 5 });
  expect(await texts(sim, 'position=1&count=2')).toEqual(['early', 'late']);
});

test.describe('filters', () => {
  test('a JSON-style list of devices, apps or texts keeps any of them', async ({ sim }) => {
    postFive(sim);
    expect(await texts(sim, `position=1&count=10&device=${encodeURIComponent(`["${B}"]`)}`)).toEqual(['power 2', 'music 4']);
    expect(await texts(sim, `position=1&count=10&device=["${A}","${B}"]`)).toHaveLength(5);
    expect(await texts(sim, 'position=1&count=10&app=["com.chat","com.power"]')).toEqual(['power 2', 'chat 3']);
    expect(await texts(sim, 'position=1&count=10&match=["music","power"]')).toEqual(['music 1', 'power 2', 'music 4']);
  });

  test('a plain string is one value', async ({ sim }) => {
    postFive(sim);
    expect(await texts(sim, `position=1&count=10&device=${A}`)).toEqual(['music 1', 'chat 3', 'Music 5']);
    expect(await texts(sim, 'position=1&count=10&app=com.music')).toEqual(['music 1', 'music 4', 'Music 5']);
  });

  test('match is a case-sensitive substring by default', async ({ sim }) => {
    postFive(sim);
    expect(await texts(sim, 'position=1&count=10&match=usic')).toEqual(['music 1', 'music 4', 'Music 5']);
    expect(await texts(sim, 'position=1&count=10&match=Music')).toEqual(['Music 5']);
  });

  test('filters combine', async ({ sim }) => {
    postFive(sim);
    expect(await texts(sim, `position=1&count=10&device=${A}&app=com.music&match=music`)).toEqual(['music 1']);
  });

  test('an unknown or offline phone in the device filter answers "device not found"', async ({ sim }) => {
    expect(await read(sim, 'position=1&device=["device@5"]')).toEqual({ status: null, value: 'device not found' });
    sim.setOnline(B, false);
    expect(await read(sim, `position=1&device=${B}`)).toEqual({ status: null, value: 'device not found' });
  });

  for (const [what, query] of [
    ['no position', 'count=1'],
    ['position 0', 'position=0'],
    ['a position that is not a number', 'position=first'],
    ['a negative count', 'position=1&count=-1'],
    ['a list that does not close', 'position=1&app=["a"'],
    ['a list of numbers', 'position=1&app=[1,2]'],
  ] as const) {
    test(`${what} answers {"status": null, "value": <message>}`, async ({ sim }) => {
      expect(await read(sim, query)).toEqual({ status: null, value: expect.any(String) });
    });
  }
});

test('a position past the end answers an empty list by default', async ({ sim }) => {
  postFive(sim);
  expect(await read(sim, 'position=6&count=1')).toEqual({ status: true, value: [] });
  expect(await read(sim, 'position=1&count=5&app=com.none')).toEqual({ status: true, value: [] });
});

test('each phone holds its newest 1,000 messages by default; older ones fall off', async ({ sim }) => {
  for (let i = 0; i < 1_005; i++) sim.postNotification({ device: A, app: 'x', text: `m${i}`, time: T0 + i });
  sim.postNotification({ device: B, app: 'x', text: 'other phone', time: T0 });
  const held = await texts(sim, 'position=1&count=2000');
  expect(held).toHaveLength(1_001);
  expect(held.slice(0, 2)).toEqual(['other phone', 'm5']);
});

test.describe('timed and periodic messages (test clock)', () => {
  test.use({
    simOptions: {
      scenario: {
        ...SCENARIO,
        notifications: [
          ...timedNotes(A, B),
          { device: A, app: 'com.example.late', text: 'starts late {n}', everyMs: 10_000, startMs: 2_000 },
        ],
      },
    },
  });

  test('arrive when the clock passes their time, with the time they arrived', async ({ sim, clock }) => {
    expect(await read(sim, 'position=1&count=10')).toEqual({ status: true, value: [] });
    clock.advance(999);
    expect(await texts(sim, 'position=1&count=10')).toEqual(['tick 1']);
    clock.advance(1);
    expect(await read(sim, 'position=1&count=10')).toEqual({
      status: true,
      value: [
        { app: 'com.example.clock', text: 'tick 1', time: T0 + 500, id: B },
        { app: 'com.example.chat', text: 'Your code is 123456', time: T0 + 1_000, id: A },
        { app: 'com.example.clock', text: 'tick 2', time: T0 + 1_000, id: B },
      ],
    });
    clock.advance(1_000);
    expect(await texts(sim, `position=1&count=10&device=${A}`)).toEqual(['Your code is 123456', 'starts late 1']);
    expect(await texts(sim, `position=1&count=10&device=${B}`)).toEqual(['tick 1', 'tick 2', 'tick 3', 'tick 4']);
  });

  test('a long pause keeps only the newest messages held, and the count goes on', async ({ sim, clock }) => {
    sim.setBehaviour({ messagesHeld: 3 });
    clock.advance(500 * 10_000);
    expect(await texts(sim, `position=1&count=10&device=${B}`)).toEqual(['tick 9998', 'tick 9999', 'tick 10000']);
  });

  test('an offline phone misses what falls due while it is offline', async ({ sim, clock }) => {
    sim.setOnline(A, false);
    clock.advance(1_500);
    sim.setOnline(A, true);
    clock.advance(1_000);
    expect(await texts(sim, `position=1&count=10&device=${A}`)).toEqual(['starts late 1']);
  });

  test('reset() starts the clock of the scenario again', async ({ sim, clock }) => {
    clock.advance(1_000);
    expect(await texts(sim, `position=1&count=10&device=${A}`)).toEqual(['Your code is 123456']);
    sim.reset();
    expect(await read(sim, `position=1&count=10&device=${A}`)).toEqual({ status: true, value: [] });
    clock.advance(1_000);
    expect(await read(sim, `position=1&count=10&device=${A}`)).toEqual({ status: true, value: [expect.objectContaining({ time: T0 + 2_000 })] });
  });
});
