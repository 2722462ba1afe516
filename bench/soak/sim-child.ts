// The simulator under soak, in a child process of its own with --expose-gc: its memory is measured after a
// full collection, apart from the load generator's.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ScenarioInput, SimulatorStats } from '../../src/simulator/index.js';
import { connectChild } from '../proc.js';

/** The child's memory after two full collections, in bytes. */
export interface Memory {
  heapUsed: number;
  rss: number;
}

export interface SimChild {
  readonly url: string;
  readonly adminKey: string;
  readonly storageRoot: string;
  readonly mainDevice: string;
  memory(): Promise<Memory>;
  stats(): Promise<SimulatorStats>;
  close(): Promise<void>;
}

export interface SimChildOptions {
  scenario: ScenarioInput;
  user: string;
  password: string;
  /** Messages posted to each phone before the load starts, so the store is at its cap from the start. */
  prefill: number;
}

/**
 * The child: the built simulator (dist/, `npm run build`), started from a module given in the environment, so
 * the soak could also run from its TypeScript source. It answers as
 * bench/proc.ts's `serveChild` does.
 */
const CHILD = `
const { startSimulator } = await import(process.env.SOAK_SIMULATOR);
const options = JSON.parse(process.env.SOAK_OPTIONS);
const sim = await startSimulator({ port: 0, scenario: options.scenario, user: options.user, password: options.password });
const now = Date.now();
for (const phone of sim.phones) {
  for (let i = 0; i < options.prefill; i++) sim.postNotification({ device: phone.id, app: 'com.example.prefill', text: 'prefill ' + i, time: now - options.prefill + i });
}
const memory = () => { globalThis.gc(); globalThis.gc(); const m = process.memoryUsage(); return { heapUsed: m.heapUsed, rss: m.rss }; };
const commands = { memory, stats: () => sim.stats() };
process.on('message', async ({ id, command }) => {
  if (command === 'stop') return void (await sim.close(), process.send({ id, result: null }, () => process.exit(0)));
  process.send({ id, result: await commands[command]() });
});
process.send({ ready: { url: sim.url, adminKey: sim.adminKey, storageRoot: sim.storageRoot, mainDevice: sim.mainDevice } });
`;

/** Starts the simulator in a child process; resolves once it listens. */
export async function startSimChild(options: SimChildOptions): Promise<SimChild> {
  const simulator = path.join(packageRoot(), 'dist', 'src', 'simulator', 'index.js');
  if (!existsSync(simulator)) throw new Error(`${simulator} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, SOAK_SIMULATOR: pathToFileURL(simulator).href, SOAK_OPTIONS: JSON.stringify(options) },
  });
  const sim = await connectChild<{ url: string; adminKey: string; storageRoot: string; mainDevice: string }>(child, 'the simulator child');
  return {
    ...sim.ready,
    memory: () => sim.ask<Memory>('memory'),
    stats: () => sim.ask<SimulatorStats>('stats'),
    close: () => sim.close(),
  };
}

/** The folder of phonewright's package.json, from bench/soak/ or from dist/bench/soak/. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}
