// Locators on a server whose UI-element engine answers a query that finds nothing as a real server does, with its
// failure envelope `{"status": null, "value": "node not found"}` (the fake server, written from the vendor's pages:
// tests/helpers/fake-aai.ts), where the simulator answers an empty list. Nothing found is an answer: a `.not` passes
// at its first look, a check that waits for the text fails naming it, in looks that were each answered at once;
// a query the engine refuses, or a server without the engine, is not taken for nothing found.
import { parseDeviceId } from '../../src/core/device-id.js';
import { checkCount, checkText, checkVisible } from '../../src/phone/check-locator.js';
import { Phone, type CheckContext, type Part, type Verdict } from '../../src/phone/index.js';
import { aaiCalls, findNode } from '../helpers/fake-aai.js';
import { VENDOR_MAIN_DEVICE, type FakeServer } from '../helpers/fake-server.js';
import { expect, test } from '../client/harness.js';

const HELLO = { text: 'Hello', box: { x: 40, y: 500, width: 200, height: 80 } };
/** What one look for an absent text asks the engine: its bounds (nothing found), the count that says so, then the texts there are. */
const LOOK_FOR_GOODBYE = ['getBounds T:*Goodbye*', 'getCount T:*Goodbye*', 'getBounds T:*', 'getText T:*&&IX:0'];

const ctx = (isNot = false, timeout = 10_000): CheckContext => ({ isNot, timeout });

function text(v: Verdict): string {
  const plain = (p: Part) => (typeof p === 'string' ? p : JSON.stringify('expected' in p ? p.expected : p.received));
  return v.lines.map((line) => line.map(plain).join('')).join('\n');
}

/** The phone of a fake server showing "Hello", on a client that waits 10 s for a phone the server says is gone, as the fixtures' does. */
async function helloPhone(server: FakeServer, connect: (s: FakeServer, o: object) => import('../../src/client/index.js').DeviceClient): Promise<Phone> {
  server.handle('aai', findNode(() => [HELLO]));
  const client = connect(server, { phoneReconnectMs: 10_000 });
  await client.login();
  return new Phone(client, parseDeviceId(VENDOR_MAIN_DEVICE), { waitTimeout: () => 10_000 });
}

/** The sendAai calls made since `from` calls had been made. */
const callsSince = async (server: FakeServer, from: number) => (await aaiCalls(server.requests)).slice(from);

test('an absent text: .not.toBeVisible and toHaveCount(0) pass at the first look; toBeVisible fails naming it, every look answered; on a present text .not fails with "not visible", said once', async ({ serve, connect }) => {
  const server = await serve();
  const phone = await helloPhone(server, connect);
  const goodbye = phone.getByText('Goodbye');

  // The first look of the client: the engine not known yet, and nothing found is not taken for an engine missing.
  const absent = await checkVisible(goodbye, ctx(true));
  expect(absent.pass, text(absent)).toBe(false);
  expect(text(absent)).toMatch(/\nPolled: {3}1 look over \d+ ms \(timeout 10000 ms(?:, \d+ ms of it this host's)?\)$/);
  expect(await callsSince(server, 0)).toEqual(LOOK_FOR_GOODBYE);
  expect(phone.client.extensions.known('aai')).toBe('offered');

  let n = (await aaiCalls(server.requests)).length;
  expect((await checkCount(goodbye, 0, ctx())).pass).toBe(true);
  expect(await callsSince(server, n)).toEqual(LOOK_FOR_GOODBYE);

  n = (await aaiCalls(server.requests)).length;
  const missing = await checkVisible(goodbye, ctx(false, 500));
  expect(missing.pass).toBe(false);
  // A look may still be on the wire when the timeout comes (cut by it, the only failed one); none failed otherwise.
  const polled = /\nPolled: {3}(\d+) looks? over \d+ ms \(timeout 500 ms(?:, \d+ ms of it this host's)?\)(?:, 1 more without an answer\nLast look failed: UI elements: no answer before the deadline: POST .*)?$/;
  expect(text(missing)).toMatch(/^Phone: {4}device@1116106541\nLocator: {2}getByText\('Goodbye'\)\nExpected: "visible"\nReceived: "not visible"\nSeen: {5}the UI elements had no match; nearest: "Hello" at 200×80 \(40, 500\)\n/);
  expect(text(missing)).toMatch(polled);
  // Each look answered the first time it asked, none tried again: the same four calls a look.
  const calls = await callsSince(server, n);
  const [line, answered] = /Polled: {3}(\d+) look.*/.exec(text(missing))!;
  // A last look cut by its grace counts as none in the message, though its calls went.
  const sent = calls.filter((c) => c === LOOK_FOR_GOODBYE[0]).length - Number(answered);
  expect(sent === 0 || sent === 1, `${sent} looks more sent than answered: ${line}`).toBe(true);
  expect(calls).toEqual(Array.from({ length: calls.length }, (_, i) => LOOK_FOR_GOODBYE[i % LOOK_FOR_GOODBYE.length]));

  const present = await checkVisible(phone.getByText('Hello'), ctx(true, 300));
  expect(present.pass).toBe(true);
  expect(text(present)).toMatch(/^Phone: {4}device@1116106541\nLocator: {2}getByText\('Hello'\)\nExpected: "not visible"\nReceived: "visible: at 200×80 \(40, 500\)"\n/);
  // The other locator checks said `not` once already.
  expect(text(await checkCount(phone.getByText('Hello'), 1, ctx(true, 300)))).toContain('\nExpected: "not 1"\n');
  expect(text(await checkText(phone.getByText('Hello'), 'Hello', ctx(true, 300)))).toContain('\nExpected: "not Hello"\n');
});

test('a refusal is not nothing found: a query the engine rejects, and a server without the engine, fail a .not', async ({ serve, connect }) => {
  const server = await serve();
  const phone = await helloPhone(server, connect);
  expect((await checkVisible(phone.getByText('Hello'), ctx())).pass).toBe(true);
  const rejected = await checkVisible(phone.getByQuery('Q:x'), ctx(true));
  expect(rejected.pass, 'failed: neither visible nor not').toBe(true);
  expect(text(rejected)).toMatch(/^Phone: {4}device@1116106541\nLocator: {2}getByQuery\('Q:x'\)\nExpected: "not visible"\nReceived: "no answer: the phone stopped answering after 0 reads \(1 sent without an answer\)"\nPolled: .*\nLast look failed: UI elements failed for device@1116106541: the server said "invalid query: key Q is not one the engine reads"/);

  const bare = await serve();
  const without = new Phone(connect(bare, {}), parseDeviceId(VENDOR_MAIN_DEVICE), { waitTimeout: () => 10_000 });
  const needs = await checkVisible(without.getByDescription('Goodbye'), ctx(true));
  expect(needs.pass).toBe(true);
  expect(text(needs)).toMatch(/\nLast look failed: getByDescription\('Goodbye'\) needs the vendor's UI elements \(sendAai\), and this server does not offer/);
});
