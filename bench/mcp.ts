// mcp_screen_ratio and mcp_tap_ratio: a `screen` tool call of `phonewright mcp` (1080×1920 on the simulator, to
// the image received by the SDK's client over stdio) ÷ the library's own capture of the same phone in this process
// (Phone.screenshot: PNG bytes of the whole screen), and a `tap` call (screen: false) ÷ the library's tap. The
// simulator runs in a child of its own, shared by both arms; rounds alternate the arms.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { Phone } from '../src/phone/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianMs, round } from './stats.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'phonewright.js');
const ROUNDS = 9;
const SCREENS = 10;
const TAPS = 50;
/**
 * Calls of each kind before the rounds: the server's tool path compiled by V8 (a few hundred calls of a function),
 * as an agent's session is after its first minutes, not its first five calls.
 */
const WARM = 100;

export async function run(): Promise<BenchResult> {
  const sim = await startChild<SimReady>('sim-server', {});
  const { url, user, password } = sim.ready;
  const id = parseDeviceId(sim.ready.mainDevice);
  const client = new DeviceClient({ url, user, password });
  const phone = new Phone(client, id, { screen: { width: 1080, height: 1920 } });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--timeout', '30000'], env: { PATH: process.env.PATH ?? '', PHONEWRIGHT_URL: url, PHONEWRIGHT_USER: user, PHONEWRIGHT_PASSWORD: password }, stderr: 'ignore' });
  const mcp = new Client({ name: 'bench', version: '0' });
  await mcp.connect(transport);
  try {
    const screen = async () => {
      const r = (await mcp.callTool({ name: 'screen', arguments: { phone: id } })) as { content: { type: string; data?: string }[]; isError?: boolean };
      const image = r.content.find((c) => c.type === 'image');
      if (r.isError || !image?.data) throw new Error(`screen failed: ${JSON.stringify(r).slice(0, 300)}`);
      Buffer.from(image.data, 'base64');
    };
    const tap = async () => {
      const r = (await mcp.callTool({ name: 'tap', arguments: { phone: id, x: 10, y: 10, screen: false } })) as { isError?: boolean };
      if (r.isError) throw new Error(`tap failed: ${JSON.stringify(r).slice(0, 300)}`);
    };
    // A tool call the server refuses by its arguments: the SDK's round trip of a tool call and the server's dispatch,
    // with no phone behind it.
    const refused = async () => {
      const r = (await mcp.callTool({ name: 'tap', arguments: { phone: id, x: 10, y: 10, colour: 'red' } })) as { isError?: boolean };
      if (!r.isError) throw new Error('a tap with an unknown argument was not refused');
    };
    // Warm both arms: the logins, the routes probed, the code paths compiled.
    for (let i = 0; i < 5; i++) for (const call of [screen, () => phone.screenshot()]) await call();
    for (let i = 0; i < WARM; i++) for (const call of [tap, () => phone.tap(10, 10), refused, () => mcp.ping()]) await call();
    const ms = await interleaved(ROUNDS, {
      mcpScreen: () => medianMs(screen, SCREENS),
      libScreen: () => medianMs(() => phone.screenshot(), SCREENS),
      mcpTap: () => medianMs(tap, TAPS),
      libTap: () => medianMs(() => phone.tap(10, 10), TAPS),
      // The protocol's own round trip (a ping through the SDK over stdio): the floor under any tool call.
      ping: () => medianMs(() => mcp.ping(), TAPS),
      refused: () => medianMs(refused, TAPS),
    });
    const [mS, lS, mT, lT] = [median(ms.mcpScreen), median(ms.libScreen), median(ms.mcpTap), median(ms.libTap)];
    return {
      figures: { mcp_screen_ratio: round(mS / lS, 2), mcp_tap_ratio: round(mT / lT, 2), mcp_screen_ms: round(mS, 1), mcp_tap_ms: round(mT, 2) },
      notes: {
        mcp_screen_ratio: `screen tool ${mS.toFixed(1)} ms (image received, 720×1280) ÷ Phone.screenshot ${lS.toFixed(1)} ms (1080×1920 PNG), medians of ${ROUNDS}×${SCREENS}`,
        mcp_tap_ratio: `tap tool ${mT.toFixed(2)} ms ÷ Phone.tap ${lT.toFixed(2)} ms, medians of ${ROUNDS}×${TAPS}; the SDK's ping over stdio alone ${median(ms.ping).toFixed(2)} ms, a tool call refused by its arguments (no phone) ${median(ms.refused).toFixed(2)} ms`,
      },
    };
  } finally {
    await mcp.close();
    await client.close();
    await sim.close();
  }
}
