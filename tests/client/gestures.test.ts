// Swipes, long presses and text: through the vendor's JS bridge, the scripting library's forms on the wire
// (`device.swipe` with a point list, a hold in place for a long press, `device.inputText` with a quoted
// string), each sent once and never again once the server may have acted; bad input refused before any
// request; and on the simulator, their effect: a swipe drags the scenario's scrolling rectangle, a long press
// and the text typed are recorded.
import { expect, failure, test } from './harness.js';

const PHONE = 'device@1116106541';
const OK = { body: '{"status": true, "value": "0"}' };

test('the forms on the wire: a point list with the time to reach each point, a hold in place, a quoted string', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  server.handle('script', OK);
  await client.swipe(PHONE, { x: 540, y: 1500 }, { x: 540, y: 300 }, 400);
  await client.longPress(PHONE, { x: 100, y: 200 }, 1500);
  await client.type(PHONE, 'Zoë & "co" 100%');
  const sent = server.requests.filter((r) => r.op === 'script').map((r) => `${r.method} ${r.path}?${r.rawQuery.replace(/^token=[^&]+&/, '')}`);
  expect(sent).toEqual([
    `POST /TotalControl/v1/devices/${PHONE}/scripts?cmd=swipe&param=[[540,1500,0],[540,300,400]]`,
    `POST /TotalControl/v1/devices/${PHONE}/scripts?cmd=swipe&param=[[100,200,0],[100,200,1500]]`,
    `POST /TotalControl/v1/devices/${PHONE}/scripts?cmd=inputText&param=%22Zo%C3%AB%20%26%20%5C%22co%5C%22%20100%25%22`,
  ]);
  // What the server receives decodes to the JavaScript string literal the scripting function takes.
  expect(server.requests.at(-1)!.query.get('param')).toBe('"Zoë & \\"co\\" 100%"');
});

test('a gesture or text is sent once: a connection dropped after sending is not retried', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  server.handle('script', OK);
  await client.type(PHONE, 'probe');
  server.handle('script', 'reset');
  for (const act of [() => client.swipe(PHONE, { x: 1, y: 9 }, { x: 1, y: 1 }, 300), () => client.longPress(PHONE, { x: 1, y: 1 }, 800), () => client.type(PHONE, 'hi')]) {
    expect(await failure(act)).toMatchObject({ code: 'PW_UNREACHABLE' });
  }
  expect(server.count('script')).toBe(4);
});

test('bad input is refused before any request, saying what to write', async ({ serve, connect }) => {
  const server = await serve();
  const client = connect(server);
  const cases: [() => Promise<unknown>, string | RegExp][] = [
    [() => client.swipe(PHONE, { x: -1, y: 0 }, { x: 1, y: 1 }, 300), /^invalid x coordinate -1/],
    [() => client.swipe(PHONE, { x: 1, y: 1 }, { x: 1, y: 2.5 }, 300), /^invalid y coordinate 2.5/],
    [() => client.swipe(PHONE, { x: 1, y: 1 }, { x: 1, y: 2 }, 0), 'invalid duration 0: expected a whole number of milliseconds from 1 to 60000'],
    [() => client.longPress(PHONE, { x: 1, y: 1 }, 60_001), 'invalid duration 60001: expected a whole number of milliseconds from 1 to 60000'],
    [() => client.type(PHONE, ''), 'invalid text to type (0 characters): expected 1 to 1000 characters'],
    [() => client.type(PHONE, 'x'.repeat(1001)), 'invalid text to type (1001 characters): expected 1 to 1000 characters; try: type a longer text in parts, one act each'],
    [() => client.type(PHONE, 42 as unknown as string), 'invalid text to type (number): expected 1 to 1000 characters'],
  ];
  for (const [act, says] of cases) {
    const error = await failure(act);
    expect(error).toMatchObject({ code: 'PW_USAGE' });
    if (typeof says === 'string') expect(error.message).toBe(says);
    else expect(error.message).toMatch(says);
  }
  expect(server.count()).toBe(0);
});

/** A list (two rows) that scrolls, under a header that does not. */
const LIST = {
  phones: [
    {
      id: PHONE,
      screen: {
        width: 100,
        height: 200,
        fill: '0x000000',
        rects: [
          { x: 0, y: 100, width: 100, height: 20, color: '0xff0000', scrolls: true },
          { x: 0, y: 150, width: 100, height: 20, color: '0x00ff00', scrolls: true },
          { x: 0, y: 0, width: 100, height: 10, color: '0x0000ff' },
        ],
      },
    },
  ],
};

for (const [acts, via] of [['inputs', 'inputs'], ['scripts', 'script']] as const) {
  test(`on a simulator acting through ${acts === 'inputs' ? 'screen/inputs and screen/texts' : 'the JS bridge'} only: a swipe drags the scrolling rows by its delta, a long press and text are recorded`, async ({ startSim, connect }) => {
    const sim = await startSim({ scenario: LIST, acts });
    const client = connect(sim.url);
    const at = async (x: number, y: number) => (await client.pixel(PHONE, x, y)).rgb;
    await client.swipe(PHONE, { x: 50, y: 180 }, { x: 50, y: 80 }, 300);
    // Up by 100: the red row from y 100 to 0, under the header that stays; the green one from 150 to 50.
    expect([await at(50, 5), await at(50, 15), await at(50, 55), await at(50, 105), await at(50, 155)]).toEqual(['0x0000ff', '0xff0000', '0x00ff00', '0x000000', '0x000000']);
    // Rows dragged off the screen come back with a swipe the other way.
    await client.swipe(PHONE, { x: 50, y: 20 }, { x: 50, y: 120 }, 300);
    expect([await at(50, 105), await at(50, 155)]).toEqual(['0xff0000', '0x00ff00']);
    await client.longPress(PHONE, { x: 10, y: 20 }, 1200);
    await client.type(PHONE, 'hello "world"');
    expect(sim.acts().map(({ at: _, ...act }) => act)).toEqual([
      { device: PHONE, via, kind: 'swipe', from: { x: 50, y: 180 }, to: { x: 50, y: 80 }, durationMs: 300 },
      { device: PHONE, via, kind: 'swipe', from: { x: 50, y: 20 }, to: { x: 50, y: 120 }, durationMs: 300 },
      { device: PHONE, via, kind: 'long-press', x: 10, y: 20, durationMs: 1200 },
      { device: PHONE, via: via === 'inputs' ? 'texts' : via, kind: 'text', text: 'hello "world"' },
    ]);
    // A long press moves nothing.
    expect(await at(50, 105)).toBe('0xff0000');
  });
}
