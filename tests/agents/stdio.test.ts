import { expect, test } from '../helpers/test.js';
import { answerImage, answerJson, answerText, screenInfo, startMcp, type McpSession } from './client.js';

// `phonewright mcp` driven by the SDK's own client over stdio, on the embedded simulator's four phones.

let mcp: McpSession | undefined;
test.afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

test('an agent lists the phones, sees a screen, finds a text, taps it and sees the screen change', async () => {
  mcp = await startMcp();
  const { tools } = await mcp.client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['phones', 'screen', 'pixel', 'find', 'tap', 'press', 'swipe', 'type', 'launch', 'close']));
  for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe('object');

  const { phones } = answerJson<{ phones: { name: string; width: number; height: number; main: boolean }[] }>(await mcp.call('phones'));
  expect(phones.map((p) => `${p.name} ${p.width}x${p.height}${p.main ? ' main' : ''}`)).toEqual(['galaxy-s9 1080x1920 main', 'pixel-7 1080x2400', 'galaxy-tab-s7 2560x1600', 'moto-g5 1280x720']);

  // The home screen, scaled for a model: its long side 1280, the scale said.
  const home = await mcp.call('screen', { phone: 'galaxy-s9' });
  const picture = answerImage(home);
  expect([picture.width, picture.height]).toEqual([720, 1280]);
  expect(screenInfo(home)).toMatchObject({ width: 1080, height: 1920, scale: 0.6667 });
  // The simulator's home screen is 0x25425c at (100, 100): at (66, 66) of the picture.
  const at = (66 * picture.width + 66) * 4;
  expect([...picture.data.subarray(at, at + 3)]).toEqual([0x25, 0x42, 0x5c]);
  expect(answerJson(await mcp.call('pixel', { x: 100, y: 100 }))).toMatchObject({ rgb: '0x25425c' });

  await mcp.call('launch', { app: 'com.example.app', screen: false });
  const found = answerJson(await mcp.call('find', { locator: { text: 'Sign in', exact: true } }));
  expect(found).toMatchObject({ via: 'elements', count: 1, locator: "device.getByText('Sign in', { exact: true })", matches: [{ box: { x: 60, y: 780, width: 960, height: 130 } }] });
  expect(answerJson(await mcp.call('find', { locator: { text: 'Signed in' } }))).toMatchObject({ count: 0 });

  const tapped = await mcp.call('tap', { locator: { text: 'Sign in', exact: true } });
  expect(tapped.isError).toBeFalsy();
  expect(answerJson(tapped)).toMatchObject({ ok: true, did: 'tap' });
  expect(answerImage(tapped).width).toBe(720);
  expect(answerJson(await mcp.call('find', { locator: { text: 'Signed in' } }))).toMatchObject({ count: 1 });

  // Nothing but the protocol on stdout (the client would have failed on anything else); the log is on stderr, each
  // call's line written once its answer is out.
  await mcp.stderrHolds('mcp: tap answered in');
});

test('an act by coordinates on another phone, read from the texts of its screen', async () => {
  mcp = await startMcp();
  await mcp.call('launch', { phone: 'moto-g5', app: 'com.example.app', screen: false });
  const screen = await mcp.call('screen', { phone: 'moto-g5', texts: true });
  const info = screenInfo<{ scale: number; texts: { via: string; lines: { text: string; box: { x: number; y: number; width: number; height: number } }[] } }>(screen);
  expect(info.scale).toBe(1);
  const button = info.texts.lines.find((l) => l.text === 'Sign in')!;
  expect(button).toBeDefined();
  await mcp.call('tap', { phone: 'moto-g5', x: button.box.x + 10, y: button.box.y + 10, screen: false });
  expect(answerJson(await mcp.call('find', { phone: 'moto-g5', locator: { text: 'Signed in' } }))).toMatchObject({ count: 1 });
  // The main phone was not touched.
  expect(answerJson(await mcp.call('find', { locator: { text: 'Signed in' } }))).toMatchObject({ count: 0 });
});

test('bad arguments answer one tool error naming the argument, and the server goes on', async () => {
  mcp = await startMcp();
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['pixel', { x: 5000, y: 10 }, /invalid argument x: \(5000, 10\) is off the 1080×1920 screen of galaxy-s9/],
    ['pixel', { x: -1, y: 10 }, /invalid argument x of pixel/],
    ['pixel', { x: 1 }, /missing argument y of pixel/],
    ['pixel', { phone: 'nokia-3310', x: 1, y: 1 }, /invalid argument phone: no phone "nokia-3310".*galaxy-s9 \(device@1116106541\)/],
    ['tap', { x: 1, y: 1, colour: 'red' }, /unknown argument colour of tap/],
    ['tap', { locator: {} }, /invalid argument locator of tap/],
    ['tap', { locator: { text: 'Sign in', id: '.login' } }, /invalid argument locator: it names text and id/],
    ['swipe', { x1: 1, y1: 1, x2: 1, y2: 99999 }, /invalid argument y: .* off the 1080×1920 screen/],
    ['find', { locator: { id: 'not an id' } }, /invalid argument locator.id/],
    ['tap', { locator: { text: 'Nowhere to be seen' }, timeout: 300 }, /getByText\('Nowhere to be seen'\) is not on the screen of galaxy-s9/],
    ['launch', { app: 'com.example.app', timeout: 0 }, /invalid argument timeout of launch/],
  ];
  for (const [tool, args, message] of cases) {
    const result = await mcp.call(tool, args);
    expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
    expect(answerText(result)).toMatch(message);
    expect(answerText(result).split('\n')).toHaveLength(1);
  }
  expect((await mcp.call('phones')).isError).toBeFalsy();
});
