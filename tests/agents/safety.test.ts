import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { closedPort } from '../helpers/fake-server.js';
import { expect, test } from '../helpers/test.js';
import { startTokenSpy, type TokenSpy } from '../helpers/token-spy.js';
import { answerText, startMcp, type McpSession } from './client.js';

// What an agent meets when the lab goes wrong, and what it never sees: one tool error each, the server going on,
// no password or token in an answer or in the log.

const PASSWORD = 'Qv7-lab-Secret-2291';
let mcp: McpSession | undefined;
let sim: SimulatorHandle | undefined;
let spy: TokenSpy | undefined;
test.afterEach(async () => {
  await mcp?.close();
  await spy?.close();
  await sim?.close();
  mcp = sim = spy = undefined;
});

async function labServer(): Promise<{ sim: SimulatorHandle; spy: TokenSpy }> {
  sim = await startSimulator({ port: 0, user: 'qa', password: PASSWORD });
  spy = await startTokenSpy(sim.url);
  return { sim, spy };
}

test('no answer or log line carries the password or a token, whatever the tools did', async () => {
  const lab = await labServer();
  // Calls meant to succeed have time to on a busy machine: the test is about what they say, not how soon.
  mcp = await startMcp({ PHONEWRIGHT_URL: lab.spy.url, PHONEWRIGHT_USER: 'qa', PHONEWRIGHT_PASSWORD: PASSWORD }, ['--timeout', '30000']);
  const answers = [
    await mcp.call('phones'),
    await mcp.call('screen', { texts: true }),
    await mcp.call('pixel', { x: 1, y: 1 }),
    await mcp.call('launch', { app: 'com.example.app' }),
    await mcp.call('find', { locator: { text: 'Password' } }),
    await mcp.call('tap', { locator: { id: 'com.example.app:id/password' }, screen: false }),
    // Typed into the password field: never logged, never answered.
    await mcp.call('type', { text: PASSWORD, screen: false }),
    await mcp.call('notifications', { phone: 'device@1174886816' }),
    // A locator that quotes the password fails with a message that shows it masked.
    await mcp.call('tap', { locator: { text: `Nowhere ${PASSWORD}` }, timeout: 300 }),
    await mcp.call('pixel', { x: 99999, y: 1 }),
  ];
  expect(lab.spy.tokens.size).toBeGreaterThan(0);
  // The last call's log line, written after its answer: the whole log is in.
  await mcp.stderrHolds('mcp: pixel failed in');
  const seen = [...answers.map(answerText), mcp.stderr()].join('\n');
  expect(answers.filter((a) => a.isError).map(answerText), mcp.stderr()).toEqual([expect.stringMatching(/is not on the screen/), expect.stringMatching(/invalid argument x/)]);
  expect(seen).not.toContain(PASSWORD);
  for (const token of lab.spy.tokens) expect(seen).not.toContain(token);
});

test('a refused login, a server down and a phone that drops or hangs are each one tool error, and the server goes on', async () => {
  const lab = await labServer();
  mcp = await startMcp({ PHONEWRIGHT_URL: lab.sim.url, PHONEWRIGHT_USER: 'qa', PHONEWRIGHT_PASSWORD: 'wrong-password-1' });
  const refused = await mcp.call('phones');
  expect(refused.isError).toBe(true);
  expect(answerText(refused)).toMatch(/^phonewright: .*login.*"qa"/i);
  expect(answerText(refused)).not.toContain('wrong-password-1');
  expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(10);
  await mcp.close();

  mcp = await startMcp({ PHONEWRIGHT_URL: `http://127.0.0.1:${await closedPort()}`, PHONEWRIGHT_PASSWORD: PASSWORD });
  const down = await mcp.call('phones', { timeout: 3000 });
  expect(down.isError).toBe(true);
  expect(answerText(down)).toMatch(/^phonewright: main-device: logging in: (no answer before the deadline|.*cannot be reached)/);
  await mcp.close();

  mcp = await startMcp({ PHONEWRIGHT_URL: lab.sim.url, PHONEWRIGHT_USER: 'qa', PHONEWRIGHT_PASSWORD: PASSWORD });
  expect((await mcp.call('pixel', { phone: 'pixel-7', x: 1, y: 1 })).isError).toBeFalsy();
  lab.sim.setOnline('device@1174886816', false);
  const dropped = await mcp.call('pixel', { phone: 'pixel-7', x: 1, y: 1, timeout: 2000 });
  expect(dropped.isError).toBe(true);
  expect(answerText(dropped)).toMatch(/device@1174886816/);
  lab.sim.freeze('device@1116106541');
  const hung = await mcp.call('pixel', { x: 1, y: 1, timeout: 1000 });
  expect(hung.isError).toBe(true);
  expect(answerText(hung)).toMatch(/1000 ms|deadline|no answer/);
  lab.sim.thaw('device@1116106541');
  lab.sim.setOnline('device@1174886816', true);
  expect((await mcp.call('pixel', { phone: 'pixel-7', x: 1, y: 1 })).isError).toBeFalsy();
});
