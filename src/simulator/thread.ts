// The embedded simulator of a run, in a thread of the runner's process: its own event loop, so the answers it
// serves to the run's workers never wait behind the runner's own work (a message from each of sixteen workers, a
// reporter writing), and its captures' encoding never holds the runner. The run's global setup starts this
// thread with the simulator's options, reads one message, `{url, adminKey}` or `{error}`, and posts `close` when
// the run ends; the thread answers `closed` and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { startSimulator, type SimulatorOptions } from './index.js';

/** The thread's first message: the simulator's URL and admin key, or why it did not start. */
export type ThreadStarted = { url: string; adminKey: string } | { error: string };

const port = parentPort!;
try {
  const sim = await startSimulator(workerData as SimulatorOptions);
  port.once('message', () => {
    void sim.close().then(() => port.postMessage('closed'));
  });
  port.postMessage({ url: sim.url, adminKey: sim.adminKey } satisfies ThreadStarted);
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ThreadStarted);
}
