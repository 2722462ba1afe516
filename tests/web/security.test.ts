// Who may talk to a local page (the inspector, the review): judged from the request's facts alone, in order.
// The pages' own tests (tests/inspector/security.test.ts, tests/review/security.test.ts) send the forged requests.
import { refusal } from '../../src/web/security.js';
import { expect, test } from '../helpers/test.js';

test('a request is judged by its host, origin, fetch site, method and token, in that order', () => {
  const ok = { method: 'GET', host: '127.0.0.1:9400', origin: undefined, fetchSite: undefined, token: 'tok' };
  expect(refusal(ok, 9400, 'tok', 'inspect')).toBeUndefined();
  expect(refusal({ ...ok, host: 'localhost:9400', origin: 'http://localhost:9400', fetchSite: 'same-origin' }, 9400, 'tok', 'inspect')).toBeUndefined();
  expect(refusal({ ...ok, fetchSite: 'none' }, 9400, 'tok', 'inspect')).toBeUndefined();
  const cases: [object, number][] = [
    [{ host: undefined }, 403],
    [{ host: '127.0.0.1:9401' }, 403],
    [{ origin: 'null' }, 403],
    [{ origin: 'http://127.0.0.1:9400.evil.example' }, 403],
    [{ fetchSite: 'same-site' }, 403],
    [{ method: 'PUT' }, 405],
    [{ token: undefined }, 401],
    [{ token: 'to' }, 401],
  ];
  for (const [change, status] of cases) expect(refusal({ ...ok, ...change }, 9400, 'tok', 'inspect')?.status, JSON.stringify(change)).toBe(status);
});

test('a refusal for want of the token names the command whose URL carries it', () => {
  const facts = { method: 'GET', host: '127.0.0.1:9400', origin: undefined, fetchSite: undefined, token: undefined };
  expect(refusal(facts, 9400, 'tok', 'review')?.message).toBe('refused: this needs the token of the URL phonewright review printed (open that URL)');
  expect(refusal(facts, 9400, 'tok', 'inspect')?.message).toContain('phonewright inspect printed');
});
