import { hostname } from 'node:os';
import { RUN_NAME_ENV, type LeaseHolder } from './holder.js';

export { acquireLease, type AcquireOptions, type Lease } from './lease.js';
export { LeaseStore } from './store.js';
export { LeaseBusyError, LeaseLostError } from './errors.js';
export { describeHolder, leaseAnnotation, parseLeaseAnnotation, LEASE_ANNOTATION, RUN_NAME_ENV, type LeaseHolder, type LeaseNote } from './holder.js';

/**
 * The lease key of a phone: the server's origin (scheme, host, port) and the phone's id, so every machine that
 * names the server by the same URL contends for the same key, whatever its API root or its config's names.
 * @param serverUrl the server's base URL
 * @param deviceId the phone's id, e.g. `device@1116106541`
 */
export function leaseKey(serverUrl: string, deviceId: string): string {
  return `phonewright:lease:${new URL(serverUrl).origin}/${deviceId}`;
}

/**
 * This worker as a lease holder: the machine, the run (PHONEWRIGHT_RUN_NAME, else the runner's process id)
 * and the worker's own process id.
 * @param env the environment
 */
export function workerHolder(env: Readonly<Record<string, string | undefined>>): Omit<LeaseHolder, 'since'> {
  return { host: hostname(), run: env[RUN_NAME_ENV] || `pid ${process.ppid}`, pid: process.pid };
}
