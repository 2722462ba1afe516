// Every row the field notes mark switchable: by the options, by the scenario, at run time, and over HTTP.
import type { Behaviour, ScenarioInput, SimulatorHandle } from '../../src/simulator/index.js';
import { A, B, T0, VENDOR_AUTH, admin, authed, call, expect, login, multipart, test, type Clock } from './harness.js';

// A's screen is a phone's, for the resolution its settings report.
const SCENARIO: ScenarioInput = {
  phones: [
    { id: A, name: 'a', screen: { width: 1080, height: 1920 } },
    { id: B, name: 'b', screen: { width: 8, height: 8 } },
  ],
};

async function notes(sim: SimulatorHandle, query: string): Promise<unknown> {
  const answer = (await authed(sim, await login(sim), `/notifications?${query}`)).json as { status: unknown; value?: { text: string }[] };
  return Array.isArray(answer.value) ? answer.value.map((n) => n.text) : answer;
}
function post(sim: SimulatorHandle, device: string, text: string, i: number): void {
  sim.postNotification({ device, app: 'com.x', text, time: T0 + i });
}

interface Case {
  key: keyof Behaviour;
  value: Behaviour[keyof Behaviour];
  /** What a client sees; it must differ between the default and the switched behaviour. */
  observe(sim: SimulatorHandle, clock: Clock): Promise<unknown>;
  byDefault: unknown;
  switched: unknown;
}

const CASES: Case[] = [
  {
    key: 'loginFailure',
    value: 'false',
    observe: async (sim) => (await call(sim, '/login', { headers: { authorization: Buffer.from('sigma:wrong').toString('base64') } })).json,
    byDefault: { status: null, value: 'wrong user name or password' },
    switched: { status: false },
  },
  {
    key: 'tokenFailure',
    value: 'false',
    observe: async (sim) => (await authed(sim, 'AAAAAAAAAAAAAAAA', '/devices/main')).json,
    byDefault: { status: null, value: 'invalid token' },
    switched: { status: false },
  },
  {
    key: 'tokenFailure',
    value: 'http401',
    observe: async (sim) => (await authed(sim, 'AAAAAAAAAAAAAAAA', '/devices/main')).status,
    byDefault: 200,
    switched: 401,
  },
  {
    key: 'tokenLifetimeSeconds',
    value: 60,
    observe: async (sim, clock) => {
      const token = await login(sim);
      clock.advance(59_999);
      const before = (await authed(sim, token, '/devices/main')).json;
      clock.advance(1);
      return [before, (await authed(sim, token, '/devices/main')).json];
    },
    byDefault: [{ id: A }, { id: A }],
    switched: [{ id: A }, { status: null, value: 'invalid token' }],
  },
  {
    key: 'tokenCalls',
    value: 2,
    observe: async (sim) => {
      const token = await login(sim);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await authed(sim, token, '/devices/main')).json);
      return answers;
    },
    byDefault: [{ id: A }, { id: A }, { id: A }],
    switched: [{ id: A }, { id: A }, { status: null, value: 'invalid token' }],
  },
  {
    key: 'notificationOrder',
    value: 'newest-first',
    observe: async (sim) => {
      ['one', 'two', 'three'].forEach((t, i) => post(sim, A, t, i));
      return notes(sim, 'position=1&count=2');
    },
    byDefault: ['one', 'two'],
    switched: ['three', 'two'],
  },
  {
    key: 'positionIndexes',
    value: 'unfiltered',
    observe: async (sim) => {
      post(sim, A, 'a1', 0);
      post(sim, B, 'b1', 1);
      post(sim, A, 'a2', 2);
      post(sim, A, 'a3', 3);
      return notes(sim, `position=2&count=2&device=${A}`);
    },
    // Filtered: the 2nd and 3rd of A's; unfiltered: positions 2–3 of all (b1, a2), then only A's.
    byDefault: ['a2', 'a3'],
    switched: ['a2'],
  },
  {
    key: 'match',
    value: 'exact',
    observe: async (sim) => {
      ['Power', 'Power low', 'power'].forEach((t, i) => post(sim, A, t, i));
      return notes(sim, 'position=1&count=10&match=Power');
    },
    byDefault: ['Power', 'Power low'],
    switched: ['Power'],
  },
  {
    key: 'positionPastEnd',
    value: 'false',
    observe: async (sim) => {
      post(sim, A, 'only', 0);
      return (await authed(sim, await login(sim), '/notifications?position=2&count=1')).json;
    },
    byDefault: { status: true, value: [] },
    switched: { status: false },
  },
  {
    key: 'messagesHeld',
    value: 2,
    observe: async (sim) => {
      ['m1', 'm2', 'm3'].forEach((t, i) => post(sim, A, t, i));
      return notes(sim, 'position=1&count=10');
    },
    byDefault: ['m1', 'm2', 'm3'],
    switched: ['m2', 'm3'],
  },
  {
    key: 'fileUrl',
    value: 'relative',
    observe: async (sim) => {
      const { body, type } = multipart([{ name: 'image', filename: 'shot.bmp', data: 'BM' }]);
      const url = ((await authed(sim, await login(sim), '/storage', { method: 'POST', headers: { 'content-type': type }, body })).json as { file_url: string }).file_url;
      return url.replace(/\d{13}/, 'N');
    },
    byDefault: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/TotalControl\/v1\/storage\/images\/N\.bmp$/),
    switched: 'images/N.bmp',
  },
  {
    key: 'hwDecode',
    value: 'string',
    observe: async (sim) => ((await authed(sim, await login(sim), `/devices/${A}/settings`)).json as { value: Record<string, unknown> }).value.display_hw_decode,
    byDefault: 1,
    switched: '1',
  },
  {
    key: 'resolution',
    value: 'object',
    observe: async (sim) => ((await authed(sim, await login(sim), `/devices/${A}/settings`)).json as { value: Record<string, unknown> }).value.display_resolution,
    byDefault: '1080*1920',
    switched: { w: 1080, h: 1920 },
  },
  {
    key: 'timeUnit',
    value: 's',
    observe: async (sim) => {
      post(sim, A, 'timed', 1_999);
      return ((await authed(sim, await login(sim), '/notifications?position=1&count=1')).json as { value: { time: number }[] }).value[0]!.time;
    },
    byDefault: T0 + 1_999,
    // Whole seconds, rounded down.
    switched: (T0 + 1_000) / 1_000,
  },
];

for (const c of CASES) {
  const name = `${c.key}: ${JSON.stringify(c.value)}`;
  test.describe(name, () => {
    test.describe('by default', () => {
      test.use({ simOptions: { scenario: SCENARIO } });
      test('the field notes\' default', async ({ sim, clock }) => {
        expect(await c.observe(sim, clock)).toEqual(c.byDefault);
      });
    });
    test.describe('by option', () => {
      test.use({ simOptions: { scenario: SCENARIO, behaviour: { [c.key]: c.value } } });
      test('switched', async ({ sim, clock }) => {
        expect(await c.observe(sim, clock)).toEqual(c.switched);
      });
    });
    test.describe('by scenario', () => {
      test.use({ simOptions: { scenario: { ...SCENARIO, behaviour: { [c.key]: c.value } } } });
      test('switched', async ({ sim, clock }) => {
        expect(await c.observe(sim, clock)).toEqual(c.switched);
      });
    });
    test.describe('at run time', () => {
      test.use({ simOptions: { scenario: SCENARIO } });
      test('setBehaviour switches it, reset() switches it back', async ({ sim, clock }) => {
        sim.setBehaviour({ [c.key]: c.value });
        expect(await c.observe(sim, clock)).toEqual(c.switched);
        sim.reset();
        expect(await c.observe(sim, clock)).toEqual(c.byDefault);
      });
      test('PATCH /_sim/behaviour switches it', async ({ sim, clock }) => {
        const answer = await admin(sim, 'PATCH', 'behaviour', { [c.key]: c.value });
        expect(answer.json).toMatchObject({ ok: true, behaviour: { [c.key]: c.value } });
        expect(await c.observe(sim, clock)).toEqual(c.switched);
      });
    });
  });
}

test.describe('refusals', () => {
  test.use({ simOptions: { scenario: SCENARIO } });
  test('an unknown behaviour or value is refused with what to write', async ({ sim }) => {
    expect(() => sim.setBehaviour({ tokenFailure: 'teapot' } as never)).toThrow(/behaviour.tokenFailure is "teapot"; write one of "message", "false", "http401"/);
    expect(() => sim.setBehaviour({ colour: 1 } as never)).toThrow(/behaviour.colour is not a behaviour/);
    const answer = await admin(sim, 'PATCH', 'behaviour', { messagesHeld: 0 });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ ok: false, error: expect.stringContaining('messagesHeld') });
  });

  test('the login failure message never carries the password', async ({ sim }) => {
    sim.setBehaviour({ loginFailure: 'message' });
    const answer = await call(sim, '/login', { headers: { authorization: VENDOR_AUTH.replace('c2', 'c3') } });
    expect(answer.text).not.toContain('3D391497');
  });
});
