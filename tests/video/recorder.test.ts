// The recorder of a phone's film (src/phone/film.ts) on a client of our own: frames at the rate asked and after an
// act, never two captures of the phone in flight (a slow one skips ticks), a failure or a server without capture
// ends the film with a line saying why and throws nothing.
import { ServiceError, TimeoutError } from '../../src/core/errors.js';
import type { DeviceId } from '../../src/core/device-id.js';
import { FilmRecorder, type FilmedPhone } from '../../src/phone/film.js';
import { expect, test } from '../helpers/test.js';

/**
 * A phone whose capture answers with `answer(n, type)` for the n-th call (from 1), in the type asked, counting the
 * captures in flight and noting the types asked.
 */
function fakePhone(answer: (n: number, type: 'png' | 'jpg') => Promise<Buffer>): FilmedPhone & { calls: number; most: number; asked: string[] } {
  let inFlight = 0;
  const phone = {
    calls: 0,
    most: 0,
    asked: [] as string[],
    id: 'device@1' as DeviceId,
    screen: { width: 4, height: 4 },
    toString: () => 'fake (device@1)',
    client: {
      deviceInfo: () => Promise.reject(new Error('not asked: the screen is known')),
      extensions: {
        captureImage: async (_id: DeviceId, _rect: unknown, type: 'png' | 'jpg') => {
          phone.most = Math.max(phone.most, ++inFlight);
          phone.asked.push(type);
          try {
            return { bytes: await answer(++phone.calls, type), type };
          } finally {
            inFlight--;
          }
        },
      },
    },
  };
  return phone as unknown as FilmedPhone & { calls: number; most: number; asked: string[] };
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

test('frames are JPEG where the server gives them, and no PNG is asked for; told PNG, PNG only', async () => {
  const told = fakePhone(async (n) => Buffer.from([n]));
  const png = new FilmRecorder(told, { frame: async () => {} }, { fps: 10, type: 'png' });
  png.start();
  await until(() => png.frames >= 2);
  await png.stop();
  expect(new Set(told.asked)).toEqual(new Set(['png']));
  const phone = fakePhone(async (n) => Buffer.from([n]));
  const types: string[] = [];
  const recorder = new FilmRecorder(phone, { frame: async (_bytes, _at, type) => void types.push(type) }, { fps: 10 });
  recorder.start();
  await until(() => recorder.frames >= 3);
  await recorder.stop();
  expect(new Set(phone.asked)).toEqual(new Set(['jpg']));
  expect(new Set(types)).toEqual(new Set(['jpg']));
});

test('a server that refuses JPEG: the same capture again as PNG, and its next films ask for PNG only', async () => {
  const phone = fakePhone(async (n, type) => {
    if (type === 'jpg') throw new ServiceError('screen capture', 'screen capture: the server answered "type jpg is not offered"', { reason: 'failed' });
    return Buffer.from([n]);
  });
  const types: string[] = [];
  const sink = { frame: async (_bytes: Buffer, _at: number, type: 'png' | 'jpg') => void types.push(type) };
  const first = new FilmRecorder(phone, sink, { fps: 10 });
  first.start();
  await until(() => first.frames >= 2);
  await first.stop();
  expect(first.ended).toBeUndefined();
  expect(phone.asked.slice(0, 3)).toEqual(['jpg', 'png', 'png']);
  expect(phone.asked.filter((t) => t === 'jpg')).toHaveLength(1);
  phone.asked.length = 0;
  const second = new FilmRecorder(phone, sink, { fps: 10 });
  second.start();
  await until(() => second.frames >= 1);
  await second.stop();
  expect(phone.asked.every((t) => t === 'png')).toBe(true);
  expect(new Set(types)).toEqual(new Set(['png']));
});

test('fps above 10 or not above 0 is refused', () => {
  const phone = fakePhone(async () => Buffer.from([1]));
  for (const fps of [0, 11, Number.NaN]) expect(() => new FilmRecorder(phone, { frame: async () => {} }, { fps })).toThrow(/invalid fps/);
});
