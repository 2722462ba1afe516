import { randomBytes } from 'node:crypto';
import { Deadline } from '../client/deadline.js';
import { waitForTurn } from '../client/resilience.js';
import { LeaseBusyError, LeaseLostError } from './errors.js';
import { describeHolder, type LeaseHolder } from './holder.js';
import { COMMAND_MS, type LeaseStore } from './store.js';

/** What a lease is taken for, and how long it lasts and is waited for. */
export interface AcquireOptions {
  /** The lease's key: one per phone and server, the same on every machine. */
  key: string;
  /** The phone in messages, e.g. `pixel-7 (device@11) on lab-a`. */
  phone: string;
  /** This worker, and its run and machine; `since` is filled in when the lease is taken. */
  holder: Omit<LeaseHolder, 'since'>;
  /** The lease outlives its last renewal by this long (ms). */
  expiryMs: number;
  /** How long to wait for a phone another run holds (ms). */
  waitMs: number;
}

/** A phone held by this worker until {@link Lease.release}. */
export interface Lease {
  /** This worker's lease, in one line. */
  holder: string;
  /** How long the worker waited for it. */
  waitedMs: number;
  /** Who held the phone last while the worker waited: the run it took over from. */
  waitedFor?: string;
  /** Aborts, with a {@link LeaseLostError} as its reason, when the lease cannot be kept. */
  signal: AbortSignal;
  /** Stops renewing and deletes the lease if it is still this worker's; true when it was. */
  release(): Promise<boolean>;
}

/** How often a waiting worker asks again: a release is seen within this long, an expiry too. */
const POLL_MS = 250;
/** A renewal that failed is tried again this soon, until the lease would expire. */
const RETRY_MS = 250;
/** What a renewal's try gives when the lease was released meanwhile: nothing more to renew. */
const RELEASED = Symbol('released');

// Compare-and-renew and compare-and-delete: a lease is changed only by the worker whose value it holds, in one
// step on the server, so an expired lease another run has taken since is never renewed or deleted by its old owner.
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const DELETE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/**
 * Leases a phone: an atomic set-if-absent with an expiry (`SET key value NX PX ms`), tried again while another
 * run holds the phone, up to `waitMs`. Once held, the lease is renewed every third of its expiry; when Redis
 * does not answer renewals until just before the lease would expire, or another run has taken the phone, the
 * lease is lost: `signal` aborts and the worker stops driving the phone.
 * @throws LeaseBusyError naming the holder when the wait ends; UnreachableError when Redis does not answer
 */
export async function acquireLease(store: LeaseStore, o: AcquireOptions): Promise<Lease> {
  const token = randomBytes(12).toString('base64url');
  const started = performance.now();
  const deadline = Deadline.budget(o.waitMs);
  let waitedFor: string | undefined;
  // Gone between the two commands (released or expired): asked again at once, while the wait lasts.
  let gone = false;
  const lease = await waitForTurn(
    async () => {
      const sent = performance.now();
      const holder: LeaseHolder = { ...o.holder, since: new Date().toISOString() };
      // The token makes the value this worker's alone: the scripts below compare it whole.
      const value = JSON.stringify({ ...holder, token });
      const set = await store.command<string | null>(['SET', o.key, value, 'NX', 'PX', String(o.expiryMs)]);
      if (set === 'OK') return held(store, o, value, { holder, sent, waitedMs: performance.now() - started, waitedFor });
      const current = holderOf(await store.command<string | null>(['GET', o.key]));
      gone = current === undefined;
      waitedFor = current ?? waitedFor;
      return undefined;
    },
    { deadline, pauseMs: () => (gone ? 0 : POLL_MS) },
  );
  if (lease) return lease;
  waitedFor ??= 'a run that let it go as the wait ended';
  throw new LeaseBusyError(`${o.phone} is leased by ${waitedFor}; waited ${seconds(o.waitMs)} for it`, waitedFor, {
    hint: 'wait for that run to end (a crashed run frees it within the lease\'s expiry), or raise leases.waitSeconds in phonewright.config.json',
  });
}

/** A lease just taken: renewed from now on, until released or lost. */
function held(store: LeaseStore, o: AcquireOptions, value: string, got: { holder: LeaseHolder; sent: number; waitedMs: number; waitedFor: string | undefined }): Lease {
  const controller = new AbortController();
  // The lease is certainly valid until `sent + expiry` (Redis counts from when it received the command), less
  // a margin for the clocks' drift: the phone is given up before then, never after.
  const margin = Math.min(1_000, o.expiryMs / 10);
  let validUntil = got.sent + o.expiryMs - margin;
  let timer: NodeJS.Timeout | undefined;
  let released = false;
  const lose = (why: string, cause?: unknown) => {
    controller.abort(new LeaseLostError(`lost the lease on ${o.phone}: ${why}; stopped driving the phone`, { hint: 'check the lease store (Redis) and this machine\'s link to it', cause }));
  };
  // A worker's end is its teardown's release, never a pending renewal or its pause: the timers are unref'd.
  const later = (ms: number, then: () => void) => {
    timer = setTimeout(then, Math.max(0, ms));
    timer.unref();
  };
  const schedule = (ms: number) => later(ms, () => void renew());
  // One renewal: sent again after a failure, every RETRY_MS, while the lease is certainly still valid.
  const renew = async () => {
    let sent = 0;
    let failed: unknown;
    const renewed = await waitForTurn(
      async () => {
        if (released) return RELEASED;
        sent = performance.now();
        try {
          return await store.command<number>(['EVAL', RENEW, '1', o.key, value, String(o.expiryMs)], Math.min(COMMAND_MS, validUntil - sent));
        } catch (error) {
          failed = error;
          return undefined;
        }
      },
      // A release clears the pause's timer with the schedule's: the renewal then never resumes, and holds nothing.
      { deadline: Deadline.budget(validUntil - performance.now()), pauseMs: () => RETRY_MS, woken: (ms) => new Promise<void>((resolve) => later(ms, resolve)) },
    );
    if (released) return;
    if (renewed === undefined) {
      const cause = ((failed as Error).cause as Error | undefined)?.message ?? (failed as Error).message;
      return lose(`the lease store ${store.shown} did not answer its renewals in time (${cause})`, failed);
    }
    if (renewed !== 1) return lose('another run took the phone after the lease expired');
    validUntil = sent + o.expiryMs - margin;
    schedule(o.expiryMs / 3);
  };
  schedule(o.expiryMs / 3);
  return {
    holder: describeHolder(got.holder),
    waitedMs: got.waitedMs,
    ...(got.waitedFor ? { waitedFor: got.waitedFor } : {}),
    signal: controller.signal,
    release: async () => {
      released = true;
      clearTimeout(timer);
      if (controller.signal.aborted) return false;
      // Not answering here costs nothing but time: the lease then expires by itself.
      return (await store.command<number>(['EVAL', DELETE, '1', o.key, value]).catch(() => 0)) === 1;
    },
  };
}

/** A lease's value as one line; undefined when there is no lease. */
function holderOf(value: string | null): string | undefined {
  if (value === null) return undefined;
  try {
    return describeHolder(JSON.parse(value) as LeaseHolder);
  } catch {
    return `an unknown holder (${JSON.stringify(value.slice(0, 60))})`;
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
