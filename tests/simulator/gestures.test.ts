// The simulator's JS bridge refuses a swipe or text it cannot do, in the interface's failure shape, and
// then neither records nor scrolls anything; a path or a direction through screen/inputs scrolls as its
// swipe does.
import { authed, expect, login, test } from './harness.js';

const PHONE = 'device@1116106541';

test.use({
  simOptions: {
    scenario: { phones: [{ id: PHONE, screen: { width: 100, height: 200, rects: [{ x: 0, y: 100, width: 100, height: 20, color: '0xff0000', scrolls: true }] } }] },
  },
});

test('a swipe of one point, off the screen or without times, and text not quoted: refused, nothing moves', async ({ sim }) => {
  const token = await login(sim);
  const bad: [string, string][] = [
    ['swipe', '[[1,1,0]]'],
    ['swipe', '[[1,1,0],[100,1,5]]'],
    ['swipe', '[[1,1],[2,2]]'],
    ['swipe', '[[1,1,0],[2,2,-5]]'],
    ['inputText', 'hello'],
    ['inputText', '["hello"]'],
  ];
  for (const [cmd, param] of bad) {
    const answer = await authed(sim, token, `/devices/${PHONE}/scripts?cmd=${cmd}&param=${encodeURIComponent(param)}`, { method: 'POST' });
    expect(answer.json, `${cmd} ${param}`).toMatchObject({ status: null, value: expect.stringContaining(cmd) });
  }
  expect(sim.acts()).toEqual([]);
  const rgb = async (x: number, y: number) => ((await authed(sim, token, `/devices/${PHONE}/screen/colors?q=color&x=${x}&y=${y}`)).json as { value: { rgb: string } }).value.rgb;
  expect([await rgb(50, 5), await rgb(50, 105)]).toEqual(['0x000000', '0xff0000']);
  // Fractions of the screen, as the vendor's recorded scripts give them, scroll as pixels do.
  const ok = await authed(sim, token, `/devices/${PHONE}/scripts?cmd=swipe&param=[[0.5,0.9,0],[0.5,0.4,200]]`, { method: 'POST' });
  expect(ok.json).toEqual({ status: true, value: '0' });
  expect(sim.acts().map(({ at: _, ...act }) => act)).toEqual([{ device: PHONE, via: 'script', kind: 'swipe', from: { x: 50, y: 180 }, to: { x: 50, y: 80 }, durationMs: 200 }]);
  expect([await rgb(50, 5), await rgb(50, 105)]).toEqual(['0xff0000', '0x000000']);
});

test('a path through screen/inputs scrolls as the bridge\'s swipe does; a direction swipes half the screen', async ({ sim }) => {
  const token = await login(sim);
  const rgb = async (x: number, y: number) => ((await authed(sim, token, `/devices/${PHONE}/screen/colors?q=color&x=${x}&y=${y}`)).json as { value: { rgb: string } }).value.rgb;
  const inputs = (body: string) => authed(sim, token, `/devices/${PHONE}/screen/inputs`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  // The same drag as the bridge test above, with points in pixels and no times: the red row goes up by 100.
  expect((await inputs('coord=[[50,180],[50,130],[50,80]]')).json).toEqual({ status: true });
  expect([await rgb(50, 5), await rgb(50, 105)]).toEqual(['0xff0000', '0x000000']);
  // A long press moves nothing.
  await inputs('coord=[[10,10,0],[10,10,800]]');
  expect(await rgb(50, 5)).toBe('0xff0000');
  // Down by half the 200-pixel screen, from 50 to 150: the row is back at 100.
  expect((await inputs('direction=down')).json).toEqual({ status: true });
  expect([await rgb(50, 5), await rgb(50, 105)]).toEqual(['0x000000', '0xff0000']);
  expect(sim.acts().map(({ at: _, device: __, ...act }) => act)).toEqual([
    { via: 'inputs', kind: 'swipe', from: { x: 50, y: 180 }, to: { x: 50, y: 80 }, durationMs: 0, path: [{ x: 50, y: 180, ms: 0 }, { x: 50, y: 130, ms: 0 }, { x: 50, y: 80, ms: 0 }] },
    { via: 'inputs', kind: 'long-press', x: 10, y: 10, durationMs: 800 },
    { via: 'inputs', kind: 'directional-swipe', direction: 'down', from: { x: 50, y: 50 }, to: { x: 50, y: 150 } },
  ]);
});
