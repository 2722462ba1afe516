import type { Options } from 'yargs';

/** Options every command takes (docs/configuration.md): flag, then environment, then the config file. */
export interface GlobalOptions {
  url?: string;
  user?: string;
  password?: string;
  apiRoot?: string;
  server?: string;
  json: boolean;
  verbose: boolean;
}

export const GLOBAL_OPTIONS = {
  url: { type: 'string', describe: 'Server base URL, e.g. http://10.0.0.5:8090 [env PHONEWRIGHT_URL; unset: the embedded simulator]', global: true },
  user: { type: 'string', describe: 'User name [env PHONEWRIGHT_USER; default: the simulator\'s, sigma]', global: true },
  password: { type: 'string', describe: 'Password [env PHONEWRIGHT_PASSWORD; default: the simulator\'s]. Never printed', global: true },
  'api-root': { type: 'string', describe: 'API root [env PHONEWRIGHT_API_ROOT; default /TotalControl/v1]', global: true },
  server: { type: 'string', describe: 'Which server of phonewright.config.json [env PHONEWRIGHT_SERVER]', global: true },
  json: { type: 'boolean', default: false, describe: 'Print one JSON document on stdout, nothing else', global: true },
  verbose: { type: 'boolean', default: false, describe: 'Describe each service call on stderr (no secrets)', global: true },
} as const satisfies Record<string, Options>;
