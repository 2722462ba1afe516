/**
 * This machine's own time, as against the phone's: the milliseconds in which this process could not have seen a
 * phone's answer because the host was busy. Two kinds add up in one count:
 *
 * - the event loop held: a tick due every {@link TICK_MS} that comes later than {@link SLACK_MS} past its moment
 *   was kept waiting by work on this thread (a search, a read of text) or by a host whose cores other processes
 *   had; an answer that arrived meanwhile sat unread;
 * - work this process waits for on the host's account, named with {@link onHost}: an engine loading, a turn on
 *   the host's cores. Several at once count once.
 *
 * A check's deadline runs on the phone's time: it moves later by what the host took (up to an allowance), so a
 * phone is never said to have stopped answering while this machine kept the answer waiting.
 */

/** The sampling tick: about twenty a second, a few microseconds each. */
const TICK_MS = 50;
/** Lateness below this is the loop's ordinary jitter, not the host's. */
const SLACK_MS = 10;

let ticking: NodeJS.Timeout | undefined;
let lastTick = 0;
/** ms the loop was held, counted at the ticks. */
let held = 0;
/** ms during which at least one wait named with {@link onHost} was pending, up to {@link waitingSince}. */
let waited = 0;
let waiting = 0;
let waitingSince = 0;
/** When the last wait on the host's account ended: the loop's lateness before it is that wait's, counted there. */
let waitEnded = -Infinity;

function start(): void {
  if (ticking) return;
  lastTick = performance.now();
  ticking = setInterval(tick, TICK_MS);
  // The count keeps no process alive.
  ticking.unref();
}

/**
 * The loop's lateness at `now` that no wait on the host's account covers: none while one is pending, and only
 * what came after the last one ended. A hold that begins as a wait ends is counted whole.
 */
function heldSince(now: number): number {
  const late = now - lastTick - TICK_MS;
  if (late <= SLACK_MS || waiting > 0) return 0;
  return Math.max(0, Math.min(late, now - waitEnded));
}

function tick(): void {
  const now = performance.now();
  held += heldSince(now);
  lastTick = now;
}

/**
 * ms of this host's time since the process first asked: a count that only grows. The difference of two reads is
 * the host's share of the time between them. The first call starts the count.
 */
export function hostMs(): number {
  start();
  const now = performance.now();
  // A hold in progress (the loop runs again only now) counts at once, not at the next tick.
  return held + heldSince(now) + waited + (waiting > 0 ? now - waitingSince : 0);
}

/**
 * Waits for `work` on the host's account: loading an engine, a turn on the host's cores. The time it is pending
 * is this machine's, not a phone's.
 */
export async function onHost<T>(work: Promise<T> | (() => Promise<T>)): Promise<T> {
  start();
  const now = performance.now();
  // A hold just over is counted now: the tick that would count it comes while this wait is pending.
  held += heldSince(now);
  lastTick = now - TICK_MS;
  if (waiting++ === 0) waitingSince = now;
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    if (--waiting === 0) {
      waitEnded = performance.now();
      waited += waitEnded - waitingSince;
    }
  }
}
