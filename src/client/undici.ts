import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool, errors as UndiciErrors } from 'undici';

// undici's index loads every dispatcher, fetch, WebSocket, the cache stores… about 120 ms of CPU in every
// Playwright worker before its first test; these three files cost about 30 ms. They are the very objects the
// index exports (tests/client/undici-parts.test.ts holds it across upgrades). The index also mixes `request`
// into every dispatcher's prototype; the client calls it on its pool instead of relying on that, taking it from
// its own file rather than from lib/api/index.js, which also loads stream, pipeline, upgrade and connect.
const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
export type Pool = UndiciPool;
export const undiciErrors = require('undici/lib/core/errors.js') as typeof UndiciErrors;
const apiRequest = require('undici/lib/api/api-request.js') as Dispatcher['request'];

/** undici's `dispatcher.request(options)`. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData<unknown>> {
  return apiRequest.call(dispatcher, options);
}
