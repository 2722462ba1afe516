// What the `phonewright sim` tests share (cli.test.ts, cli-lab.test.ts): runSim started in-process with its
// output captured, and a check that it stopped serving.
import { request } from 'undici';
import { runSim, type SimArgs } from '../../src/cli/commands/sim.js';
import { keeping, withRevealed, type Output } from '../../src/cli/output.js';
import { redact } from '../../src/core/redact.js';
import { expect } from './harness.js';


export interface Captured extends Output {
  stdout: string[];
  stderr: string[];
}
export function capture(): Captured {
  const secrets = new Set<string>();
  const clean = (text: string) => redact(text, secrets);
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    json: (value, revealed) => stdout.push(withRevealed(clean(JSON.stringify(value)), revealed)),
    line: (text, kept) => stdout.push(keeping(text, kept, clean)),
    note: (text) => stderr.push(clean(text)),
    progress: () => undefined,
    isTTY: false,
    stderrIsTTY: false,
    addSecrets: (...more) => more.forEach((s) => s && secrets.add(s)),
    clean,
  };
}
export const ARGS: SimArgs = { port: '0', json: false, verbose: false };

/** Starts runSim; resolves once it has printed, with a way to stop it and its settled promise. */
export async function start(args: Partial<SimArgs>, env: Record<string, string> = {}) {
  const out = capture();
  const controller = new AbortController();
  const done = runSim({ ...ARGS, ...args }, out, controller.signal, env);
  await Promise.race([expect.poll(() => out.stdout.length).toBeGreaterThan(0), done]);
  return { out, done, stop: () => controller.abort() };
}
export async function stopped(url: string): Promise<boolean> {
  return request(`${url}/TotalControl/v1/login`).then(() => false, () => true);
}

