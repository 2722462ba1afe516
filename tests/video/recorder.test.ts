// The recorder of a phone's film (src/phone/film.ts) on a client of our own: frames at the rate asked and after an
// act, never two captures of the phone in flight (a slow one skips ticks), a failure or a server without capture
// ends the film with a line saying why and throws nothing.
import { ServiceError, TimeoutError } from '../../src/core/errors.js';
import type { DeviceId } from '../../src/core/device-id.js';
import { FilmRecorder, type FilmedPhone } from '../../src/phone/film.js';
import { expect, test } from '../helpers/test.js';

/** A phone whose capture answers with `answer(n)` for the n-th call (from 1), counting the captures in flight. */
function fakePhone(answer: (n: number) => Promise<Buffer>): FilmedPhone & { calls: number; most: number } {
  let inFlight = 0;
  const phone = {
    calls: 0,
    most: 0,
    id: 'device@1' as DeviceId,
    screen: { width: 4, height: 4 },
    toString: () => 'fake (device@1)',
    client: {
      deviceInfo: () => Promise.reject(new Error('not asked: the screen is known')),
      capture: async () => {
        phone.most = Math.max(phone.most, ++inFlight);
        try {
          return { png: await answer(++phone.calls), width: 4, height: 4 };
        } finally {
          inFlight--;
        }
      },
    },
  };
  return phone as unknown as FilmedPhone & { calls: number; most: number };
}

/** Resolves once `check` holds, looked at on every turn of the event loop's timers. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

test('frames at the rate asked, each different one handed on with its time; the same screen again is not', async () => {
  // Screens 1, 1, 2, 3, 3, 6, 7…: two repeats.
  const phone = fakePhone(async (n) => Buffer.from([[0, 1, 1, 2, 3, 3][n] ?? n]));
  const got: [number, number][] = [];
  const recorder = new FilmRecorder(phone, { frame: async (bytes, at) => void got.push([bytes[0]!, at]) }, { fps: 10 });
  recorder.start();
  await until(() => phone.calls >= 6);
  await recorder.stop();
  expect(got.map(([b]) => b).slice(0, 4)).toEqual([1, 2, 3, 6]);
  const times = got.map(([, at]) => at);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(recorder.ended).toBeUndefined();
});

test('a capture still running at the next tick makes it skip; an act asks for a frame, skipped too while one runs', async () => {
  const release: (() => void)[] = [];
  const phone = fakePhone((n) => new Promise((resolve) => release.push(() => resolve(Buffer.from([n])))));
  const recorder = new FilmRecorder(phone, { frame: async () => {} }, { fps: 10 });
  recorder.start();
  await until(() => recorder.skipped >= 3);
  recorder.now();
  expect(phone.calls).toBe(1);
  release.shift()!();
  await until(() => phone.calls === 2);
  release.shift()!();
  await until(() => recorder.frames === 2);
  await recorder.stop();
  release.forEach((r) => r());
  expect(phone.most).toBe(1);
});

test('a capture that fails midway ends the film with a line, and the recorder throws nothing', async () => {
  const phone = fakePhone(async (n) => {
    if (n === 3) throw new ServiceError('screen capture', 'screen capture: the server answered status false', { reason: 'failed' });
    return Buffer.from([n]);
  });
  const recorder = new FilmRecorder(phone, { frame: async () => {} }, { fps: 10 });
  recorder.start();
  await until(() => recorder.ended !== undefined);
  await recorder.stop();
  expect(recorder.frames).toBe(2);
  expect(recorder.ended).toMatch(/^a capture of fake \(device@1\) failed after [\d.]+ s of film: screen capture: the server answered status false/);
  expect(phone.calls).toBe(3);
});

test('a capture out of time skips its frame; three in a row end the film', async () => {
  const late = () => new TimeoutError('screen capture: no answer before the deadline', { reason: 'deadline' });
  // 1 late, 2 a frame, 3 and 4 late, 5 a frame, then late for good.
  const phone = fakePhone(async (n) => {
    if (n === 2 || n === 5) return Buffer.from([n]);
    throw late();
  });
  const recorder = new FilmRecorder(phone, { frame: async () => {} }, { fps: 10 });
  recorder.start();
  await until(() => recorder.ended !== undefined);
  await recorder.stop();
  expect(recorder.frames).toBe(2);
  expect(phone.calls).toBe(8);
  expect(recorder.ended).toMatch(/^a capture of fake \(device@1\) failed after [\d.]+ s of film: screen capture: no answer before the deadline/);
});

test('a server without screen capture: no frame, and the line says the server has none', async () => {
  const phone = fakePhone(async () => {
    throw new ServiceError('screen capture', 'screen capture is not offered by this server', { reason: 'not-offered' });
  });
  const recorder = new FilmRecorder(phone, { frame: async () => {} });
  recorder.start();
  await until(() => recorder.ended !== undefined);
  await recorder.stop();
  expect(recorder.frames).toBe(0);
  expect(recorder.ended).toMatch(/^the server has no screen capture for fake \(device@1\): /);
});

test('fps above 10 or not above 0 is refused', () => {
  const phone = fakePhone(async () => Buffer.from([1]));
  for (const fps of [0, 11, Number.NaN]) expect(() => new FilmRecorder(phone, { frame: async () => {} }, { fps })).toThrow(/invalid fps/);
});
