/**
 * The simulator's answers where the interface says "not shown": every answer servers are known to differ on,
 * with the most common as the default (docs/simulator.md). Set them in a scenario (`"behaviour": {…}`), in the
 * options, with a flag of `phonewright sim`, or at run time through the admin API.
 */
export interface Behaviour {
  /** Wrong credentials at login: `{"status":null,"value":"wrong user name or password"}` ('message', the reference page's null) or `{"status":false}` ('false'). */
  loginFailure: 'false' | 'message';
  /** Missing, wrong or expired token: `{"status":null,"value":"invalid token"}`, `{"status":false}` or HTTP 401. */
  tokenFailure: 'message' | 'false' | 'http401';
  /** Seconds a token stays valid; 0 means until the simulator restarts. */
  tokenLifetimeSeconds: number;
  /** Calls a token answers before it is refused, as a token expired is; 0 means no limit. */
  tokenCalls: number;
  /** Position 1 is the oldest message held ('oldest-first') or the newest ('newest-first'). */
  notificationOrder: 'oldest-first' | 'newest-first';
  /** `position` counts in the list after the device/app/match filters, or in the unfiltered list. */
  positionIndexes: 'filtered' | 'unfiltered';
  /** `match` keeps texts containing it (case-sensitive), or texts equal to it. */
  match: 'substring' | 'exact';
  /** A `position` past the end answers `{"status":true,"value":[]}` ('empty') or `{"status":false}`. */
  positionPastEnd: 'empty' | 'false';
  /** The newest messages kept per phone; older ones fall off. */
  messagesHeld: number;
  /** `file_url` of typed uploads: `http://host:port/…/storage/images/<n>.<ext>` or `images/<n>.<ext>`. */
  fileUrl: 'absolute' | 'relative';
  /** `display_hw_decode` as the number 1/0 or the string "1"/"0" (one vendor sample carries the string). */
  hwDecode: 'number' | 'string';
  /** `display_resolution` as `"1080*1920"` or `{"w":1080,"h":1920}`. */
  resolution: 'string' | 'object';
  /** Notification `time` in ms since the epoch, or in whole seconds (rounded down). */
  timeUnit: 'ms' | 's';
  /**
   * Where a screen capture's answer names its image: `value` with an absolute URL on `localhost` (the
   * reference text), `value` with a path on the server, or `file_url` (an older client's docstring).
   */
  captureUrl: 'value' | 'value-relative' | 'file_url';
  /** Whether a capture's `rect` leaves its bottom-right corner out (`[0,0,10,10]` is 10×10) or takes it in (11×11). */
  captureRect: 'exclusive' | 'inclusive';
}

export type BehaviourKey = keyof Behaviour;

/** The defaults where servers differ; a login refused answers `status` null, as the vendor's reference page says. */
export const DEFAULT_BEHAVIOUR: Readonly<Behaviour> = Object.freeze({
  loginFailure: 'message',
  tokenFailure: 'message',
  tokenLifetimeSeconds: 0,
  tokenCalls: 0,
  notificationOrder: 'oldest-first',
  positionIndexes: 'filtered',
  match: 'substring',
  positionPastEnd: 'empty',
  messagesHeld: 1_000,
  fileUrl: 'absolute',
  hwDecode: 'number',
  resolution: 'string',
  timeUnit: 'ms',
  captureUrl: 'value',
  captureRect: 'exclusive',
});

/** How each behaviour is written: its choices (or an integer range), its CLI flag and one line of help. */
export interface BehaviourSpec {
  flag: string;
  choices?: readonly string[];
  integer?: { min: number; max: number };
  describe: string;
}

/** One entry per switchable behaviour; the CLI builds its flags from this table. */
export const BEHAVIOUR_SPECS: Readonly<Record<BehaviourKey, BehaviourSpec>> = {
  loginFailure: { flag: 'login-failure', choices: ['message', 'false'], describe: 'Wrong credentials answer {"status":null,"value":"wrong user name or password"} or {"status":false}' },
  tokenFailure: { flag: 'token-failure', choices: ['message', 'false', 'http401'], describe: 'A bad token answers {"status":null,"value":"invalid token"}, {"status":false} or HTTP 401' },
  tokenLifetimeSeconds: { flag: 'token-lifetime', integer: { min: 0, max: 315_360_000 }, describe: 'Seconds a token stays valid (0: until restart)' },
  tokenCalls: { flag: 'token-calls', integer: { min: 0, max: 1_000_000_000 }, describe: 'Calls a token answers before it is refused (0: no limit)' },
  notificationOrder: { flag: 'notification-order', choices: ['oldest-first', 'newest-first'], describe: 'Which message position 1 is' },
  positionIndexes: { flag: 'position-indexes', choices: ['filtered', 'unfiltered'], describe: 'Whether position counts in the filtered or the unfiltered list' },
  match: { flag: 'match', choices: ['substring', 'exact'], describe: 'How the match filter compares texts (case-sensitive)' },
  positionPastEnd: { flag: 'position-past-end', choices: ['empty', 'false'], describe: 'A position past the end answers [] or {"status":false}' },
  messagesHeld: { flag: 'messages-held', integer: { min: 1, max: 1_000_000 }, describe: 'Messages kept per phone' },
  fileUrl: { flag: 'file-url', choices: ['absolute', 'relative'], describe: 'file_url of typed uploads: absolute URL or images/<n>.<ext>' },
  hwDecode: { flag: 'hw-decode', choices: ['number', 'string'], describe: 'display_hw_decode as 1/0 or "1"/"0"' },
  resolution: { flag: 'resolution', choices: ['string', 'object'], describe: 'display_resolution as "1080*1920" or {"w":1080,"h":1920}' },
  timeUnit: { flag: 'time-unit', choices: ['ms', 's'], describe: 'Notification time in milliseconds or whole seconds since the epoch' },
  captureUrl: { flag: 'capture-url', choices: ['value', 'value-relative', 'file_url'], describe: 'A screen capture names its image in value (http://localhost:<port>/…), in value as a path, or in file_url' },
  captureRect: { flag: 'capture-rect', choices: ['exclusive', 'inclusive'], describe: 'Whether a capture\'s rect takes its bottom-right corner in (one pixel larger)' },
};

/**
 * Checks behaviour settings written by a user. Returns the problem as text (the caller wraps it into the
 * error type that fits: a scenario's ConfigError, an option's UsageError), or the checked settings.
 * @param input the parsed `behaviour` object
 * @param where how the object is named in messages, e.g. `behaviour`
 */
export function checkBehaviour(input: unknown, where: string): Partial<Behaviour> | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return `${where} must be an object such as {"tokenFailure": "http401"}`;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const spec = (BEHAVIOUR_SPECS as Record<string, BehaviourSpec | undefined>)[key];
    if (!spec) return `${where}.${key} is not a behaviour; write one of ${Object.keys(BEHAVIOUR_SPECS).join(', ')}`;
    if (spec.choices) {
      if (typeof value !== 'string' || !spec.choices.includes(value)) {
        return `${where}.${key} is ${JSON.stringify(value)}; write one of ${spec.choices.map((c) => JSON.stringify(c)).join(', ')}`;
      }
    } else if (spec.integer) {
      const { min, max } = spec.integer;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        return `${where}.${key} is ${JSON.stringify(value)}; write an integer from ${min} to ${max}`;
      }
    }
    out[key] = value;
  }
  return out as Partial<Behaviour>;
}
