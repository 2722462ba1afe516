/**
 * A simulator for the fault suite, watched request by request: hooks fire as answers go out (a phone taken
 * offline at an exact request, instead of after a sleep), and a "weather" alternates calm faults with storms.
 */
import { startSimulator, type FaultSpec, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';

/** One answered request as the simulator logs it: `sim GET /…/devices/device@1/screen/colors?token=***&… 200 0.4ms`. */
export type RequestLine = string;

export interface WatchedSim extends SimulatorHandle {
  /** Log lines of the interface requests answered (or dropped) so far, in order; the admin API's are left out. */
  readonly lines: RequestLine[];
  /** Calls `hook` after each answered interface request (`n` counts them) until it returns true. */
  on(hook: (line: RequestLine, n: number) => boolean | void): void;
}

/** What a storm does: every request waits (a latency spike) and a burst of 5xx hits whoever comes first. */
export interface Weather {
  calm: FaultSpec;
  storm: FaultSpec;
  /** A storm starts every this many requests… */
  every: number;
  /** …and lasts this many. */
  length: number;
}

/** Starts a simulator on 127.0.0.1, port 0, whose requests can be hooked. */
export async function startWatchedSim(options: SimulatorOptions = {}): Promise<WatchedSim> {
  const hooks = new Set<(line: RequestLine, n: number) => boolean | void>();
  const lines: RequestLine[] = [];
  const sim = await startSimulator({
    port: 0,
    ...options,
    verbose: (line) => {
      if (line.includes(' /_sim/')) return;
      lines.push(line);
      for (const hook of [...hooks]) if (hook(line, lines.length) === true) hooks.delete(hook);
    },
  });
  return Object.assign(sim, { lines, on: (hook: (line: RequestLine, n: number) => boolean | void) => void hooks.add(hook) });
}

/**
 * Lets the weather change with the traffic: calm faults, then every `every` requests a storm of `length`.
 * Each phase reseeds the fault generator, so a run sees the same sequence of faults per phase.
 */
export function weather(sim: WatchedSim, w: Weather): { storms: () => number } {
  let storms = 0;
  sim.setFaults({ ...w.calm, seed: 1 });
  sim.on((_line, n) => {
    const phase = n % w.every;
    if (phase === 0) {
      storms++;
      sim.setFaults({ ...w.storm, seed: n });
    } else if (phase === w.length) {
      sim.setFaults({ ...w.calm, seed: n });
    }
  });
  return { storms: () => storms };
}
