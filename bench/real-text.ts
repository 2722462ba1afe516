// real_text_found_ratio, real_text_false_finds, real_text_look_ms, real_text_load_ms, real_text_rss_mib: text
// locators on real apps' screens (the corpus PHONEWRIGHT_REALSCREENS names: English, French, Chinese; dark and
// light; small print), each served as a phone's screen by a simulator without UI elements, in its own process.
// The ratio: every label found by getByText(…).bounds() at its place; false finds: absent texts found and counts
// wrong; a look: a capture of a 1080×1920 screen read and searched, on pixels this phone has not read before
// (the engine warm); the engine's load and this process's RSS once it has read every screen.
import { DeviceClient } from '../src/client/index.js';
import { parseDeviceId } from '../src/core/device-id.js';
import { ENGINES_ENV } from '../src/engines/client.js';
import { loadOcr } from '../src/image/ocr.js';
import { Phone } from '../src/phone/index.js';
import { realScreens, realScreensScenario, scoreScreen } from '../tests/helpers/real-screens.js';
import { startChild } from './proc.js';
import type { BenchResult } from './report.js';
import type { SimReady } from './sim-server.js';
import { median } from './stats.js';

/** Looks timed on each 1080×1920 screen. */
const ROUNDS = 5;

export async function run(): Promise<BenchResult> {
  // The engine measured in this process (a worker's, as PHONEWRIGHT_ENGINES=process has it), its kept reads forgotten
  // here: the host's engines would keep them across looks.
  process.env[ENGINES_ENV] = 'process';
  const corpus = realScreens();
  if ('skip' in corpus) {
    process.stderr.write(`bench: real-text: ${corpus.skip}\n`);
    return { figures: {} };
  }
  const { screens } = corpus;
  const sim = await startChild<SimReady>('sim-server', { scenario: realScreensScenario(screens), elements: false });
  const client = new DeviceClient({ url: sim.ready.url, user: sim.ready.user, password: sim.ready.password });
  try {
    const phoneOf = (id: string) => new Phone(client, parseDeviceId(id), { waitTimeout: () => 30_000 });
    const t0 = performance.now();
    const ocr = await loadOcr();
    const loadMs = performance.now() - t0;

    let found = 0;
    let finds = 0;
    let falseFinds = 0;
    const misses: string[] = [];
    for (const screen of screens) {
      const score = await scoreScreen(phoneOf(screen.id), screen);
      found += score.found;
      finds += score.finds;
      falseFinds += score.falseFinds + (score.counts - score.countsRight);
      misses.push(...score.misses);
    }
    const rss = process.memoryUsage().rss / 2 ** 20;

    // A new Phone each look: its last read is not taken again, so every look captures and reads.
    const tall = screens.filter((s) => s.width === 1080 && s.height === 1920);
    const looks: number[] = [];
    const byScreen = new Map<string, number[]>(tall.map((s) => [s.file, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const screen of tall) {
        const phone = phoneOf(screen.id);
        const text = screen.labels.find[0]![0];
        // The engine keeps the screens it read: forgotten, so each look reads its pixels again.
        ocr.forget();
        const t = performance.now();
        await phone.getByText(text).bounds();
        looks.push(performance.now() - t);
        byScreen.get(screen.file)!.push(performance.now() - t);
      }
    }
    return {
      figures: {
        real_text_found_ratio: Math.round((found / finds) * 1000) / 1000,
        real_text_false_finds: falseFinds,
        ...(looks.length ? { real_text_look_ms: Math.round(median(looks)) } : {}),
        real_text_load_ms: Math.round(loadMs),
        real_text_rss_mib: Math.round(rss),
      },
      notes: {
        real_text_found_ratio: `${found} of ${finds} labels on ${screens.length} screens found at their place${misses.length ? `; missed: ${misses.filter((m) => !/counted|absent/.test(m)).join('; ') || 'none'}` : ''}`,
        real_text_false_finds: misses.filter((m) => /counted|absent/.test(m)).join('; ') || 'no absent text found, every count right',
        real_text_look_ms: `getByText(…).bounds(), each look a capture read anew, median of ${looks.length}: ${[...byScreen].map(([file, ms]) => `${file} ${Math.round(median(ms))} ms`).join(', ')}`,
        real_text_load_ms: 'the OCR engine loaded once per worker: the runtime and both models',
        real_text_rss_mib: 'this process (a worker with the engine loaded) after reading every screen',
      },
    };
  } finally {
    await client.close();
    await sim.close();
  }
}
