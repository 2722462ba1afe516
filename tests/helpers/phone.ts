/**
 * A phone driven inside the test itself: the handle the `device` fixture gives a spec (fixtures/device.ts),
 * logged in to a server of the test, its checks running in this test's own Playwright (its `expect`, its
 * steps, its attachments). What a check decides and what it says need no other process; an inline run
 * (inline.ts) is for what only a whole run shows: the report, the locations, the exit code, the worker's set-up.
 * A test that opens a phone keeps its region goldens under its output folder (`test.info().snapshotPath(name)`).
 *
 * ```ts
 * test('a mismatch names the point', async ({ startSim, openPhone }) => {
 *   const device = await openPhone(await startSim(…), 'device@1', { name: 'lab-phone' });
 *   expect(await failureMessage(device.expectPixel(5, 5, { timeout: 300 }).toBe('0x000000'))).toContain('Point:    (5, 5)');
 * });
 * ```
 */
import { readFileSync } from 'node:fs';
import { DeviceClient } from '../../src/client/index.js';
import { parseDeviceId } from '../../src/core/device-id.js';
import { DeviceHandle, expect as phoneExpect } from '../../fixtures/device.js';
import type { PhoneScreenshotMode } from '../../fixtures/screen-evidence.js';
import { test as inlineTest, type Sim } from './inline.js';

export interface PhoneOptions {
  /** The phone's name, as the matrix names its project. @default the id */
  name?: string;
  /** The server's name in the phone's lines. @default 'sim' */
  server?: string;
  /** What `phoneScreenshot` would be for the test. @default 'off' */
  phoneScreenshot?: PhoneScreenshotMode;
  /** What names its region goldens instead of the project, as the set-up gives the server's main device (`<model>-<w>x<h>`). @default none */
  goldenKey?: string;
}

/** The server a phone is opened on: a simulator of the test, or any server's address and login. */
export type PhoneServer = Pick<Sim, 'url' | 'user' | 'password' | 'apiRoot'>;

/** Logs in to `server` and gives the phone `id` as a spec's `device` (its screen size read from the server); logged out after the test. */
export type OpenPhone = (server: PhoneServer, id: string, options?: PhoneOptions) => Promise<DeviceHandle>;

export const test = inlineTest.extend<{ openPhone: OpenPhone }>({
  // After the test, the phones' clients close before the test's simulators do (startSim tears down last).
  openPhone: async ({ startSim: _ }, use, testInfo) => {
    const clients: DeviceClient[] = [];
    // A region check's goldens go under the test's own output folder, never into the repository's snapshot folder.
    testInfo.snapshotPath = ((...names: unknown[]) => testInfo.outputPath('goldens', ...names.filter((n): n is string => typeof n === 'string'))) as typeof testInfo.snapshotPath;
    await use(async (server, id, options = {}) => {
      const client = new DeviceClient({ url: server.url, user: server.user, password: server.password, apiRoot: server.apiRoot });
      clients.push(client);
      await client.login();
      const deviceId = parseDeviceId(id);
      const info = await client.deviceInfo(deviceId).catch(() => undefined);
      const device = new DeviceHandle(client, deviceId, { name: options.name ?? id, server: options.server ?? 'sim', screen: info && { width: info.width, height: info.height }, goldenKey: options.goldenKey });
      device.evidence.begin(testInfo, options.phoneScreenshot ?? 'off', 'off');
      return device;
    });
    await Promise.all(clients.map((c) => c.close()));
  },
});

// What a call meant to fail failed with, and its message ANSI-free: the suite's one helper for it.
export { failure, failureMessage } from './failure.js';

/** The bytes of the running test's last attachment named `name` (a check's evidence); throws when there is none. */
export function attached(name: string): Buffer {
  const found = inlineTest.info().attachments.findLast((a) => a.name === name);
  if (!found) throw new Error(`no attachment ${name} on the test: it has ${inlineTest.info().attachments.map((a) => a.name).join(', ') || 'none'}`);
  return found.body ?? readFileSync(found.path!);
}

/** Playwright's `expect` with phonewright's matchers, as a spec imports it. */
export const expect = phoneExpect;
export { smallPhone } from './inline-config.js';
export type { Sim } from './inline.js';
