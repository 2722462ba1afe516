// The soak: 32 waiters on 8 phones against the simulator for a while, its memory measured after a full
// collection when the steady state starts and when it ends; then 500 uploads at once, all checked intact.
import { percentile } from '../stats.js';
import { startSimChild, type Memory } from './sim-child.js';
import { runUploads, type UploadFigures } from './uploads.js';
import { runWaiters, type WaiterFigures } from './waiters.js';

export interface SoakOptions {
  /** Length of the steady state measured, in ms. */
  durationMs: number;
  /** Load before the first measurement: pools, sockets and the JIT settle. */
  warmupMs: number;
  phones?: number;
  waitersPerPhone?: number;
  uploads?: number;
  /** Largest upload, in bytes. */
  uploadBytes?: number;
}

export interface SoakFigures {
  phones: number;
  waiters: number;
  durationMs: number;
  notifications: WaiterFigures;
  memoryStart: Memory;
  memoryEnd: Memory;
  /** heapUsed growth over the steady state, in %. */
  heapGrowth: number;
  requests: number;
  uploads: UploadFigures;
}

/**
 * The bar a soak must clear. A soak whose waiters saw fewer than `messagesPerWaiter` messages each proves
 * nothing about losses or memory: the load did not happen.
 */
export const LIMITS = { heapGrowthPercent: 10, messagesPerWaiter: 20 } as const;

const USER = 'soak';
const PASSWORD = 'soak-password-1';
/** Messages each phone holds: the simulator's default, reached before the load starts. */
const HELD = 1_000;
/** A message not seen this long after posting is lost (the median is ~100 ms). */
const LOST_AFTER_MS = 15_000;

/** Runs the soak and returns its figures (it does not judge them: see {@link problems}). */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const phoneCount = options.phones ?? 8;
  const perPhone = options.waitersPerPhone ?? 4;
  const phones = Array.from({ length: phoneCount }, (_, i) => `device@${100_001 + i}`);
  const scenario = { main: phones[0]!, phones: phones.map((id, i) => ({ id, name: `soak-${i + 1}`, screen: { width: 64, height: 48, fill: '0x336699' } })) };
  const sim = await startSimChild({ scenario, user: USER, password: PASSWORD, prefill: HELD });
  try {
    const started = performance.now();
    const until = started + options.warmupMs + options.durationMs;
    const load = runWaiters({ url: sim.url, adminKey: sim.adminKey, user: USER, password: PASSWORD, phones, waitersPerPhone: perPhone, until, lostAfterMs: LOST_AFTER_MS });
    const memoryStart = await at(started + options.warmupMs, () => sim.memory());
    const requestsStart = (await sim.stats()).total;
    const waiters = await load;
    const memoryEnd = await sim.memory();
    const requests = (await sim.stats()).total - requestsStart;
    const uploads = await runUploads({ url: sim.url, user: USER, password: PASSWORD, storageRoot: sim.storageRoot, count: options.uploads ?? 500, maxBytes: options.uploadBytes ?? 64 * 1024 });
    return {
      phones: phoneCount,
      waiters: phoneCount * perPhone,
      durationMs: options.durationMs,
      notifications: waiters,
      memoryStart,
      memoryEnd,
      heapGrowth: ((memoryEnd.heapUsed - memoryStart.heapUsed) / memoryStart.heapUsed) * 100,
      requests,
      uploads,
    };
  } finally {
    await sim.close();
  }
}

/** What the figures show wrong, one line each; empty when the soak passed. */
export function problems(f: SoakFigures): string[] {
  const w = f.notifications;
  const out: string[] = [];
  if (w.posted <= f.waiters * LIMITS.messagesPerWaiter) out.push(`only ${w.posted} message(s) posted for ${f.waiters} waiters: the load was not real (at least ${LIMITS.messagesPerWaiter} per waiter)`);
  if (f.heapGrowth >= LIMITS.heapGrowthPercent) out.push(`the simulator's heap grew ${f.heapGrowth.toFixed(1)} % (limit ${LIMITS.heapGrowthPercent} %)`);
  if (w.lost.length) out.push(`${w.lost.length} message(s) never reached their waiter, e.g. ${w.lost[0]}`);
  if (w.missed.length) out.push(`${w.missed.length} message(s) missed by a feed, e.g. ${w.missed[0]}`);
  if (w.duplicates.length) out.push(`${w.duplicates.length} message(s) delivered twice, e.g. ${w.duplicates[0]}`);
  if (w.seen !== w.posted) out.push(`${w.posted} posted, ${w.seen} seen`);
  if (w.errors.length) out.push(`${w.errors.length} error(s), e.g. ${w.errors[0]}`);
  const u = f.uploads;
  if (u.errors.length) out.push(`${u.errors.length} upload(s) failed, e.g. ${u.errors[0]}`);
  if (u.damaged.length || u.stored !== u.sent) out.push(`${u.sent} uploads sent, ${u.stored} stored, ${u.damaged.length} not stored intact exactly once`);
  if (u.sharedUrls) out.push(`${u.sharedUrls} upload(s) answered with a file_url already given`);
  return out;
}

/** The figures as a few lines for people (and for docs/performance.md, "Soak"). */
export function describe(f: SoakFigures): string {
  const w = f.notifications;
  const s = f.durationMs / 1000;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return [
    `soak: ${f.waiters} waiters on ${f.phones} phones, ${s.toFixed(0)} s of steady state (after a warm-up)`,
    `  notifications: ${w.posted} posted, ${w.seen} seen by their waiter, ${w.lost.length} lost, ${w.duplicates.length} duplicated, ${w.missed.length} missed by a feed`,
    `  wait latency:  ${w.latencies.length ? [50, 95, 99].map((p) => `p${p} ${percentile(w.latencies, p).toFixed(0)} ms`).join(', ') + `, max ${percentile(w.latencies, 100).toFixed(0)} ms` : 'no message seen'}`,
    `  requests:      ${f.requests} in the steady state (${(f.requests / s).toFixed(0)}/s), ${w.pixelReads} pixel reads in all`,
    `  memory:        heap ${mib(f.memoryStart.heapUsed)} → ${mib(f.memoryEnd.heapUsed)} (${f.heapGrowth >= 0 ? '+' : ''}${f.heapGrowth.toFixed(1)} %), rss ${mib(f.memoryStart.rss)} → ${mib(f.memoryEnd.rss)}`,
    `  uploads:       ${f.uploads.sent} at once, ${mib(f.uploads.bytes)} in ${(f.uploads.ms / 1000).toFixed(2)} s, ${f.uploads.stored} stored, ${f.uploads.damaged.length} damaged or lost`,
  ].join('\n');
}

/** Runs `fn` once the clock reaches `time` (performance.now()). */
async function at<T>(time: number, fn: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));
  return fn();
}
