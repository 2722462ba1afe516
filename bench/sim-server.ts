// A child process running the embedded simulator, so its CPU and memory are measured apart from the client's.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { startSimulator, type FaultSpec, type LabOptions, type SimulatorOptions } from '../src/simulator/index.js';
import { resetPeakRss, rss, serveChild } from './proc.js';

/** What the parent learns when the simulator listens. */
export interface SimReady {
  url: string;
  user: string;
  password: string;
  mainDevice: string;
  storageRoot: string;
}

await serveChild<SimulatorOptions, SimReady>(async (options) => {
  const sim = await startSimulator({ ...options, port: 0 });
  return {
    ready: { url: sim.url, user: sim.user, password: sim.password, mainDevice: sim.mainDevice, storageRoot: sim.storageRoot },
    commands: {
      stats: () => sim.stats(),
      faults: (spec) => sim.setFaults(spec as FaultSpec | undefined),
      lab: (lab) => sim.setLab(lab as boolean | LabOptions | undefined),
      resetPeakRss: () => resetPeakRss(),
      rss: () => rss(),
      // Empties the storage (a 1 GiB upload need not wait for the simulator to close to go).
      clearStorage: async () => {
        for (const entry of await readdir(sim.storageRoot)) await rm(path.join(sim.storageRoot, entry), { recursive: true, force: true });
      },
    },
    close: () => sim.close(),
  };
});
