import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { expect, test } from '../helpers/test.js';
import { answerJson, answerText, startMcp, type McpSession } from './client.js';

// The notifications tool's `since`: messages stamped at a moment or after it, the moment given as a message's time,
// an ISO time or a span back from now; a moment that is none is one tool error naming the argument.

const PHONE = 'device@1116106541';
const APP = 'com.example.since';
const MIN = 60_000;
let mcp: McpSession | undefined;
let sim: SimulatorHandle | undefined;
test.afterEach(async () => {
  await mcp?.close();
  await sim?.close();
  mcp = sim = undefined;
});

test('notifications since a message\'s time, an ISO time or a span back from now; a bad moment names since', async () => {
  sim = await startSimulator({ port: 0 });
  const now = Date.now();
  // Stamped two hours, twenty minutes and one minute ago, and one from another app a minute ago.
  const [old, earlier, recent] = [120, 20, 1].map((ago, i) => sim!.postNotification({ device: PHONE, app: APP, text: `message ${i + 1}`, time: now - ago * MIN }));
  sim.postNotification({ device: PHONE, app: 'com.example.other', text: 'other app', time: now - MIN });
  mcp = await startMcp({ PHONEWRIGHT_URL: sim.url, PHONEWRIGHT_PASSWORD: sim.password });
  const texts = async (args: Record<string, unknown>) => {
    const result = await mcp!.call('notifications', { app: APP, ...args });
    expect(result.isError, answerText(result)).toBeFalsy();
    return answerJson<{ notifications: { text: string }[] }>(result).notifications.map((n) => n.text);
  };
  expect(await texts({})).toEqual(['message 1', 'message 2', 'message 3']);
  // A message's time from an earlier answer, as a number or its digits: that message and what came after it.
  expect(await texts({ since: earlier!.time })).toEqual(['message 2', 'message 3']);
  expect(await texts({ since: String(recent!.time) })).toEqual(['message 3']);
  expect(await texts({ since: new Date(now - 60 * MIN).toISOString() })).toEqual(['message 2', 'message 3']);
  expect(await texts({ since: '30m' })).toEqual(['message 2', 'message 3']);
  expect(await texts({ since: '5 min ago' })).toEqual(['message 3']);
  // The count is of what the moment lets through.
  expect(await texts({ since: '3h', count: 1 })).toEqual(['message 1']);
  expect(await texts({ since: old!.time + 1, count: 1 })).toEqual(['message 2']);
  // The answer says the moment it compared with.
  const said = answerJson<{ since: { ms: number; iso: string } }>(await mcp.call('notifications', { since: earlier!.time }));
  expect(said.since).toEqual({ ms: earlier!.time, iso: new Date(earlier!.time).toISOString() });

  const refusals: [unknown, RegExp][] = [
    ['yesterday', /^phonewright: invalid argument since of notifications: "yesterday" is not a moment; try: an ISO time with its zone/],
    ['2026-12-02T13:05', /invalid argument since of notifications: "2026-12-02T13:05" has no time zone.*; try: add Z for UTC/],
    ['2026-02-30T10:00Z', /invalid argument since of notifications: "2026-02-30T10:00Z" is not a moment/],
    [-5, /invalid argument since of notifications/],
    [true, /invalid argument since of notifications/],
  ];
  for (const [since, message] of refusals) {
    const result = await mcp.call('notifications', { since });
    expect(result.isError, JSON.stringify(since)).toBe(true);
    expect(answerText(result)).toMatch(message);
  }
  // The last refusal's log line, written after its answer: the whole log is in.
  await mcp.stderrHolds('(got true)');
  expect(mcp.stderr()).not.toContain(sim.password);
});
