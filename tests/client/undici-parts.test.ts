import { createRequire } from 'node:module';
import { expect, test } from '../helpers/test.js';
import { Pool, request, undiciErrors } from '../../src/client/undici.js';

// The client takes undici's Pool and error classes from their own files to spare each worker the whole index.
// An undici upgrade that moves them must fail here, not turn every network error into an "unexpected" one.
test('the Pool, the error classes and request are the ones undici exports', () => {
  const require = createRequire(import.meta.url);
  const undici = require('undici') as typeof import('undici');
  expect(Pool).toBe(undici.Pool);
  expect(undiciErrors).toBe(undici.errors);
  expect(new undiciErrors.SocketError('x')).toBeInstanceOf(undici.errors.UndiciError);
  // What the index mixes into every dispatcher is the function the client calls on its pool.
  expect(require('undici/lib/api/api-request.js')).toBe(undici.Dispatcher.prototype.request);
  expect(request.length, 'request(dispatcher, options)').toBe(2);
});
