// mcp_screen_ratio and mcp_tap_ratio: a `screen` tool call of `phonewright mcp` (1080×1920 on the simulator, to
// the image received by the SDK's client over stdio) ÷ the library's own capture of the same phone in this process
// (Phone.screenshot: PNG bytes of the whole screen), and a `tap` call (screen: false) ÷ the library's tap on the
// simulator's lab preset, as an agent's taps reach a lab's phones. The simulator runs in a child of its own, shared
// by both arms; rounds alternate the arms. Reported beside: the same taps on the simulator without the lab (where a
// tap is under a millisecond, two more hops between processes are most of a call), the SDK's ping, and the cost of
// phonewright's MCP layer alone (a tool call through the SDK's in-memory transport, in this process).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lab } from '../src/agents/lab.js';
import { makeServer } from '../src/agents/server.js';
import { TOOLS } from '../src/agents/tools.js';
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { Phone } from '../src/phone/index.js';
import { LAB_PRESET } from '../src/simulator/index.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { interleaved, median, medianMs, round } from './stats.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'phonewright.js');
const ROUNDS = 9;
const SCREENS = 10;
const TAPS = 50;
/** Taps a round on the lab preset, where each takes its act's latency. */
const LAB_TAPS = 12;
/**
 * The lab preset with a tap's latency fixed at the middle of its range (30–120 ms): both arms wait the same for
 * the phone, and the ratio is what the path to it adds, not which latencies each arm drew.
 */
const LAB = { ...LAB_PRESET, latencyMs: { ...LAB_PRESET.latencyMs, inputs: 75 } };
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
    // phonewright's MCP layer alone: the same tools on a lab of this process, through the SDK's in-memory transport.
    const local = await layerClient(url, user, password);
    const layerTap = async () => {
      const r = (await local.mcp.callTool({ name: 'tap', arguments: { phone: id, x: 10, y: 10, screen: false } })) as { isError?: boolean };
      if (r.isError) throw new Error(`tap failed in process: ${JSON.stringify(r).slice(0, 300)}`);
    };
    for (let i = 0; i < WARM; i++) await layerTap();
    const ms = await interleaved(ROUNDS, {
      mcpScreen: () => medianMs(screen, SCREENS),
      libScreen: () => medianMs(() => phone.screenshot(), SCREENS),
      mcpTap: () => medianMs(tap, TAPS),
      libTap: () => medianMs(() => phone.tap(10, 10), TAPS),
      layerTap: () => medianMs(layerTap, TAPS),
      // The protocol's own round trip (a ping through the SDK over stdio): the floor under any tool call.
      ping: () => medianMs(() => mcp.ping(), TAPS),
      refused: () => medianMs(refused, TAPS),
    });
    await local.close();
    await sim.ask('lab', LAB);
    const lab = await interleaved(ROUNDS, {
      mcpTap: () => medianMs(tap, LAB_TAPS),
      libTap: () => medianMs(() => phone.tap(10, 10), LAB_TAPS),
    });
    const [mS, lS, mT, lT] = [median(ms.mcpScreen), median(ms.libScreen), median(ms.mcpTap), median(ms.libTap)];
    const [labM, labL, layer] = [median(lab.mcpTap), median(lab.libTap), median(ms.layerTap)];
    return {
      figures: {
        mcp_screen_ratio: round(mS / lS, 2),
        mcp_tap_ratio: round(labM / labL, 3),
        mcp_screen_ms: round(mS, 1),
        mcp_tap_ms: round(labM, 1),
        mcp_tap_bare_ratio: round(mT / lT, 2),
        mcp_tap_layer_ms: round(layer - lT, 2),
      },
      notes: {
        mcp_screen_ratio: `screen tool ${mS.toFixed(1)} ms (image received, 720×1280) ÷ Phone.screenshot ${lS.toFixed(1)} ms (1080×1920 PNG), medians of ${ROUNDS}×${SCREENS}`,
        mcp_tap_ratio: `tap tool ${labM.toFixed(1)} ms ÷ Phone.tap ${labL.toFixed(1)} ms on the lab preset (a tap's latency 75 ms), medians of ${ROUNDS}×${LAB_TAPS}`,
        mcp_tap_bare_ratio: `tap tool ${mT.toFixed(2)} ms ÷ Phone.tap ${lT.toFixed(2)} ms without the lab, medians of ${ROUNDS}×${TAPS}; the SDK's ping over stdio alone ${median(ms.ping).toFixed(2)} ms, a tool call refused by its arguments (no phone) ${median(ms.refused).toFixed(2)} ms`,
        mcp_tap_layer_ms: `a tap tool call in this process (the SDK's in-memory transport) ${layer.toFixed(2)} ms − Phone.tap ${lT.toFixed(2)} ms: the schema check, the deadline, the lab's phone, the answer`,
      },
    };
  } finally {
    await mcp.close();
    await client.close();
    await sim.close();
  }
}

/** The tools on a lab of this process, and an SDK client speaking to them through the in-memory transport. */
async function layerClient(url: string, user: string, password: string): Promise<{ mcp: Client; close: () => Promise<void> }> {
  const client = new DeviceClient({ url, user, password });
  const lab = new Lab({ client, named: [], embedded: false, server: { devices: undefined, name: 'bench', othersNames: new Set() }, leases: undefined, cwd: process.cwd(), timeoutMs: 30_000, env: {}, connectionArgs: {}, clean: (t) => t, log: () => {} });
  const [near, far] = InMemoryTransport.createLinkedPair();
  await makeServer(lab, TOOLS, '0').connect(far);
  const mcp = new Client({ name: 'bench-layer', version: '0' });
  await mcp.connect(near);
  return { mcp, close: async () => (await mcp.close(), await lab.close(), await client.close()) };
}
