// locate_ms: one template search as device.locate() and toShow() make it, in this process: a 200×80 send button
// cut on a 1080-wide phone, found on a 1080×2400 chat screen (bench/phone-screens.ts), its capture's decoding
// left out (that is the capture's cost, failure_capture_ms). The median of rounds, after one to load OpenCV.
import { chatScreen } from './phone-screens.js';
import { cropImage, loadOpenCv, searchTemplate } from '../src/image/index.js';
import type { BenchResult } from './report.js';
import { median } from './stats.js';

const ROUNDS = 15;

export async function run(): Promise<BenchResult> {
  const t0 = performance.now();
  const cv = await loadOpenCv();
  const loadMs = performance.now() - t0;
  const source = chatScreen(1, 1080);
  const template = cropImage(source.image, { ...source.button, width: 200, height: 80 });
  const screen = chatScreen(2, 1080, { buttonAt: { x: 40, y: 420 } }).image;
  const absent = chatScreen(2, 1080, { button: 'absent' }).image;
  if (template.width !== 200 || template.height !== 80 || screen.height !== 2400) throw new Error(`a ${template.width}×${template.height} template on a ${screen.width}×${screen.height} screen: not the bench's`);
  const timed = (image: typeof screen) => {
    const t = performance.now();
    const result = searchTemplate(cv, image, template);
    return { ms: performance.now() - t, result };
  };
  const first = timed(screen);
  if (!first.result.found) throw new Error(`the button was not found: best score ${first.result.best.score}`);
  const found: number[] = [];
  const missing: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    found.push(timed(screen).ms);
    if (r % 3 === 0) missing.push(timed(absent).ms);
  }
  const { best } = first.result;
  return {
    figures: { locate_ms: Math.round(median(found)) },
    notes: {
      locate_ms: `median of ${ROUNDS}, found at (${best.x}, ${best.y}) score ${best.score}; absent (every scale step, as .not.toShow pays): ${Math.round(median(missing))} ms; loading OpenCV once: ${Math.round(loadMs)} ms`,
    },
  };
}
