// `phonewright sim`'s lab flags: --lab, --clock-offset, --time-unit, printed and in --json, and a bad one refused
// through the CLI's entry.
import { request } from 'undici';
import { runSim } from '../../src/cli/commands/sim.js';
import { ARGS, capture, start } from './cli-harness.js';
import { expect, test } from './harness.js';

test.describe('the lab flags', () => {
  const PRESET_OFFSETS = { 'galaxy-s9': 300_000, 'pixel-7': -180_000, 'galaxy-tab-s7': 47_000, 'moto-g5': -90_000 };

  test('--lab turns the preset on: printed with each phone\'s clock, and in --json', async () => {
    const human = await start({ lab: true });
    const text = human.out.stdout.join('\n');
    expect(text).toMatch(/^ {2}lab: {7}latency pixel 20-80 ms, settings 20-60 ms, notifications 20-80 ms, login 50-150 ms, mainDevice 10-40 ms, upload 50-150 ms, download 5-20 ms, capture 80-200 ms, captureFile 5-20 ms, inputs 30-120 ms, texts 30-120 ms, script 30-120 ms, appState 200-600 ms, apps 20-80 ms, aai 40-200 ms; frame grabs of 3-7 ms one at a time per phone; seed 1$/m);
    expect(text).toMatch(/device@1116106541\s+galaxy-s9\s+1080x1920\s+portrait\s+clock \+5m00s\s+\(main\)/);
    expect(text).toMatch(/pixel-7 .*clock -3m00s$/m);
    expect(text).toMatch(/galaxy-tab-s7 .*clock \+47s$/m);
    expect(text).toMatch(/moto-g5 .*clock -1m30s$/m);
    human.stop();
    await human.done;
    const json = await start({ lab: true, json: true });
    const doc = JSON.parse(json.out.stdout[0]!) as { lab: { serialScreenReads: boolean }; phones: { name: string; clockOffsetMs: number }[] };
    expect(doc.lab).toMatchObject({ serialScreenReads: true, screenGrabMs: [3, 7], latencyMs: { pixel: [20, 80] } });
    expect(Object.fromEntries(doc.phones.map((p) => [p.name, p.clockOffsetMs]))).toEqual(PRESET_OFFSETS);
    json.stop();
    await json.done;
  });

  test('without --lab nothing changes: no lab line, no clock, "lab": false', async () => {
    const human = await start({});
    expect(human.out.stdout.join('\n')).not.toMatch(/lab:|clock/);
    human.stop();
    await human.done;
    const json = await start({ json: true });
    const doc = JSON.parse(json.out.stdout[0]!) as { lab: unknown; phones: { clockOffsetMs: number }[] };
    expect(doc.lab).toBe(false);
    expect(doc.phones.every((p) => p.clockOffsetMs === 0)).toBe(true);
    json.stop();
    await json.done;
  });

  test('--clock-offset sets a phone\'s clock by name or id, over the lab\'s; --time-unit s answers seconds', async () => {
    const { out, done, stop } = await start({ json: true, lab: true, clockOffset: ['pixel-7=-1000', 'device@-230441652=+250'], 'time-unit': 's' });
    const { url, adminKey, phones } = JSON.parse(out.stdout[0]!) as { url: string; adminKey: string; phones: { name: string; clockOffsetMs: number }[] };
    expect(Object.fromEntries(phones.map((p) => [p.name, p.clockOffsetMs]))).toEqual({ ...PRESET_OFFSETS, 'pixel-7': -1_000, 'moto-g5': 250 });
    const posted = await request(`${url}/_sim/notifications`, { method: 'POST', headers: { 'x-sim-admin-key': adminKey, 'content-type': 'application/json' }, body: JSON.stringify({ device: 'device@1174886816', app: 'a', text: 't', time: 1_539_833_828_999 }) });
    expect(((await posted.body.json()) as { notification: { time: number } }).notification.time).toBe(1_539_833_828);
    stop();
    await done;
  });

  test('a clock offset alone prints the phone\'s clock', async () => {
    const { out, done, stop } = await start({ clockOffset: ['galaxy-s9=1500'] });
    expect(out.stdout.join('\n')).toMatch(/galaxy-s9 .*clock \+1500ms\s+\(main\)$/m);
    expect(out.stdout.join('\n')).not.toMatch(/lab:/);
    stop();
    await done;
  });

  for (const [value, message] of [
    ['pixel-7', /invalid --clock-offset "pixel-7": expected <phone id or name>=<ms>, whole milliseconds from -86400000 to 86400000; try: phonewright sim --clock-offset pixel-7=-180000/],
    ['pixel-7=soon', /invalid --clock-offset "pixel-7=soon"/],
    ['pixel-7=1.5', /invalid --clock-offset "pixel-7=1.5"/],
    ['pixel-7=86400001', /invalid --clock-offset "pixel-7=86400001"/],
    ['=5', /invalid --clock-offset "=5"/],
    ['nokia=5', /clockOffsetMs names "nokia", which is not a phone here; write the id or name of one of the phones: device@1116106541 \(galaxy-s9\)/],
  ] as const) {
    test(`--clock-offset ${value} is refused with one line, before anything listens`, async () => {
      await expect(runSim({ ...ARGS, clockOffset: [value] }, capture(), new AbortController().signal, {})).rejects.toMatchObject({ code: 'PW_USAGE', message: expect.stringMatching(message) });
    });
  }

  test('through the CLI\'s entry: a bad --clock-offset exits 2 with one line on stderr and nothing on stdout', async () => {
    const { main } = await import('../../src/cli/main.js');
    const out = capture();
    expect(await main(['sim', '--port', '0', '--clock-offset', 'pixel-7=soon'], out)).toBe(2);
    expect(out.stdout).toEqual([]);
    expect(out.stderr).toEqual([expect.stringMatching(/^phonewright: invalid --clock-offset "pixel-7=soon": .*try: phonewright sim --clock-offset pixel-7=-180000/)]);
  });
});
