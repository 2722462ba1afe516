// A worker thread that lists a server's phones for the device matrix, whose config is loaded synchronously: the
// runner starts this thread and waits on a shared buffer (Atomics), so no process is started and nothing but
// this thread's own client talks to the server. It writes one JSON answer into the buffer:
// `{"phones": [{id, model, width, height}]}` or `{"failure": {kind, line}}`.
import { workerData } from 'node:worker_threads';
import { ServiceError } from '../core/errors.js';
import { DeviceClient } from './client.js';

/** What the runner hands the thread: the server (its password in memory only) and the buffer to answer in. */
export interface ListingRequest {
  server: { url: string; user: string; password: string; apiRoot: string };
  /** Int32 0: 1 once answered; Int32 1: the answer's length in bytes; from byte 8: the answer as UTF-8 JSON. */
  buffer: SharedArrayBuffer;
  /** The thread's own budget, ms: the client's deadline, so its requests end with it. */
  timeoutMs: number;
}

const { server, buffer, timeoutMs } = workerData as ListingRequest;
answer(await list());

async function list(): Promise<unknown> {
  const client = new DeviceClient({ ...server, totalTimeout: timeoutMs });
  try {
    const ids = await client.devices();
    const phones = await Promise.all(ids.map((id) => client.deviceInfo(id)));
    return { phones: phones.map((p) => ({ id: p.id, model: p.model, screen: { width: p.width, height: p.height } })) };
  } catch (error) {
    // The server answered with a failure (a route it lacks, a refusal of its own), or it could not be asked.
    const refused = error instanceof ServiceError && (error.reason === 'not-offered' || error.reason === 'failed');
    return { failure: { kind: refused ? 'refused' : 'failed', line: error instanceof Error ? error.message : String(error) } };
  } finally {
    await client.close();
  }
}

function answer(result: unknown): void {
  const bytes = Buffer.from(JSON.stringify(result), 'utf8');
  const room = new Uint8Array(buffer, 8);
  const fits = bytes.length <= room.length ? bytes : Buffer.from(JSON.stringify({ failure: { kind: 'failed', line: `the list of phones is too long (${bytes.length} bytes)` } }));
  room.set(fits);
  const view = new Int32Array(buffer, 0, 2);
  Atomics.store(view, 1, fits.length);
  Atomics.store(view, 0, 1);
  Atomics.notify(view, 0);
}
