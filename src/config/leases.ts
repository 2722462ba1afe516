import { ConfigError } from '../core/errors.js';
import { ENV, type Env } from './resolve.js';
import type { ConfigFile } from './schema.js';

/** Where phones are leased, and for how long: PHONEWRIGHT_LEASES over `"leases"` of phonewright.config.json. */
export interface LeaseSettings {
  /** The Redis URL, with the credentials PHONEWRIGHT_LEASES may carry: never shown. */
  url: string;
  /** The URL as messages show it: `redis://host:port`, no user or password. */
  shown: string;
  /** A lease outlives its last renewal by this long (ms). */
  expiryMs: number;
  /** A worker waits this long for a phone another run holds (ms). */
  waitMs: number;
}

/** A crashed run's phones are free within this long; renewals go every third of it. */
export const DEFAULT_EXPIRY_SECONDS = 30;
/** A nightly queued behind another run waits this long for each phone before failing it. */
export const DEFAULT_WAIT_SECONDS = 1_800;

/**
 * The lease settings of a run, or undefined when phones are not leased (no URL in PHONEWRIGHT_LEASES nor in
 * the file's `leases.url`). The file may give the timings and leave the URL, which may hold a password, to
 * the environment.
 * @param env the environment (PHONEWRIGHT_LEASES)
 * @param file the configuration file, validated (its `leases` has the schema's shape)
 */
export function resolveLeases(env: Env, file: ConfigFile | undefined): LeaseSettings | undefined {
  const fromEnv = env[ENV.leases] || undefined;
  const url = fromEnv ?? file?.leases?.url;
  if (url === undefined) {
    if (file?.leases) {
      throw new ConfigError(`${file.source}: leases: no Redis URL to keep the leases in`, { hint: `add "url": "redis://host:6379" to "leases", or set ${ENV.leases}` });
    }
    return undefined;
  }
  const shown = checkRedisUrl(url, fromEnv !== undefined ? ENV.leases : `${file!.source}: leases.url`);
  return {
    url,
    shown,
    expiryMs: (file?.leases?.expirySeconds ?? DEFAULT_EXPIRY_SECONDS) * 1000,
    waitMs: (file?.leases?.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000,
  };
}

/** Checks a Redis URL; returns it without its credentials, for messages. Its password never reaches a message. */
function checkRedisUrl(raw: string, where: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${where} is not a URL`, { hint: 'redis://<host>:6379' });
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new ConfigError(`${where}: ${u.protocol} is not redis: or rediss:`, { hint: 'redis://<host>:6379 (rediss:// for TLS)' });
  }
  if (!u.hostname) throw new ConfigError(`${where}: the URL names no host`, { hint: 'redis://<host>:6379' });
  return `${u.protocol}//${u.host}${u.pathname.length > 1 ? u.pathname : ''}`;
}
