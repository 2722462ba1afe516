// Secrets are removed as values, never as substrings: a weak password (a common word, a number, one letter)
// leaves ordinary text as it was, and is gone wherever it stands as a value; a token, the login header and a
// strong password go wherever they appear.
import { redact } from '../../src/core/redact.js';
import { expect, test } from '../helpers/test.js';

const TOKEN = '270eq7lXQK8bXYsJ';
const CASES: { name: string; text: string; secrets: string[]; out: string }[] = [
  { name: 'a weak password inside words stays: masking it would show it', text: '✓ main device    device@795844152', secrets: ['device'], out: '✓ main device    device@795844152' },
  { name: 'a number inside a size stays', text: 'display_resolution 720*1280', secrets: ['1280'], out: 'display_resolution 720*1280' },
  { name: 'a one-letter password changes nothing', text: 'a phone, a server', secrets: ['a'], out: 'a phone, a server' },
  { name: 'a weak password as a query parameter\'s whole value', text: 'GET /login?user=sigma&p=device', secrets: ['device'], out: 'GET /login?user=sigma&p=***' },
  { name: 'a weak password URL-encoded as a value', text: 'GET /login?p=a%2Fb%3Dc', secrets: ['a/b=c'], out: 'GET /login?p=***' },
  { name: 'a weak password as a JSON string', text: '{"said": "secret", "secret": 1}', secrets: ['secret'], out: '{"said": "***", "secret": 1}' },
  { name: 'any password parameter, known or not', text: 'POST /x?password=hunter&y=1', secrets: [], out: 'POST /x?password=***&y=1' },
  { name: 'a token parameter, in a URL and a form body', text: 'GET /a?token=abc&q=1 and body x=1&token=def', secrets: [], out: 'GET /a?token=***&q=1 and body x=1&token=***' },
  { name: 'a JSON token, password and authorization', text: '{"token": "abc", "password":"pw", "Authorization": "Basic eA=="}', secrets: [], out: '{"token": "***", "password":"***", "Authorization": "***"}' },
  { name: 'an Authorization header', text: 'Authorization: Basic c2lnbWE6ZGV2aWNl; then', secrets: [], out: 'Authorization: Basic ***; then' },
  { name: 'a URL\'s user part', text: 'redis://lab:p4ss@host:6379', secrets: [], out: 'redis://lab:***@host:6379' },
  { name: 'a token wherever it is, even glued to a word', text: `x${TOKEN} | ${encodeURIComponent(TOKEN)}`, secrets: [TOKEN], out: 'x*** | ***' },
  { name: 'a strong password wherever it is', text: 'refused: Zq7 Secret/Pw! for qa', secrets: ['Zq7 Secret/Pw!'], out: 'refused: *** for qa' },
  { name: 'the word "password" in prose stays', text: 'check the password (--password or PHONEWRIGHT_PASSWORD)', secrets: ['secret'], out: 'check the password (--password or PHONEWRIGHT_PASSWORD)' },
];

for (const c of CASES) {
  test(`redact: ${c.name}`, () => {
    expect(redact(c.text, c.secrets)).toBe(c.out);
  });
}
