// region_compare_ms: compareImages on a whole 1080×2400 screen against its golden with a tenth of its pixels
// changed (every tenth pixel, so each is a lone difference that goes through the anti-aliasing detector), the
// diff image included: what a failing full-screen toMatchRegion costs per sample, in this process.
import { compareImages, type Image } from '../src/image/index.js';
import type { BenchResult } from './report.js';
import { median } from './stats.js';

const WIDTH = 1080;
const HEIGHT = 2400;
const ROUNDS = 9;

export async function run(): Promise<BenchResult> {
  const golden = screen();
  const changed = { width: WIDTH, height: HEIGHT, data: golden.data.slice() };
  const bytes = changed.data;
  for (let at = 0; at < bytes.length; at += 40) {
    bytes[at] = bytes[at]! ^ 0x30;
    bytes[at + 2] = bytes[at + 2]! ^ 0x50;
  }
  const same = { width: WIDTH, height: HEIGHT, data: golden.data.slice() };
  // The CPU time beside the wall time: on a shared machine the wall time also counts the others' turns.
  const timed = (actual: Image) => {
    const [t0, cpu0] = [performance.now(), process.cpuUsage()];
    const mismatch = compareImages(golden, actual);
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, mismatch };
  };
  const first = timed(changed);
  if (!first.mismatch || first.mismatch.diffPixels < (WIDTH * HEIGHT) / 20) throw new Error(`the changed screen should fail: ${first.mismatch?.errorMessage ?? 'it matched'}`);
  const changedMs: number[] = [];
  const changedCpuMs: number[] = [];
  const sameMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = timed(changed);
    changedMs.push(t.ms);
    changedCpuMs.push(t.cpuMs);
    sameMs.push(timed(same).ms);
  }
  return {
    figures: { region_compare_ms: Math.round(median(changedMs)) },
    notes: {
      region_compare_ms: `median of ${ROUNDS}, CPU ${Math.round(median(changedCpuMs))} ms (first, cold: ${Math.round(first.ms)} ms); ${first.mismatch.errorMessage.split(';')[0]}; an unchanged screen ${median(sameMs).toFixed(1)} ms`,
    },
  };
}

/**
 * A phone screen of flat colours, anti-aliased text, a gradient header and photographs: a status bar, a header
 * that fades from one blue to another, and rows of a list, each with a photo (smooth noise, a colour nearly
 * every pixel) and two lines of "text" (dark strokes with soft edges).
 */
function screen(): Image {
  const data = new Uint8Array(WIDTH * HEIGHT * 4);
  let seed = 1;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) / 65536;
  const set = (x: number, y: number, r: number, g: number, b: number) => data.set([r, g, b, 255], (y * WIDTH + x) * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      if (y < 72) set(x, y, 0x12, 0x1a, 0x2b);
      else if (y < 360) set(x, y, 0x20 + ((y - 72) >> 3), 0x40 + (x >> 5), 0xc0 - ((y - 72) >> 4));
      else set(x, y, 0xf5, 0xf5, 0xf5);
    }
  }
  for (let top = 400; top + 180 <= HEIGHT; top += 200) {
    let grain = random() * 255;
    for (let y = top; y < top + 160; y++) {
      for (let x = 40; x < 200; x++) {
        grain = Math.min(255, Math.max(0, grain + (random() - 0.5) * 24));
        set(x, y, grain, (grain + y) & 255, (grain + x) & 255);
      }
    }
    for (const [line, length] of [[top + 40, 600 + random() * 200], [top + 100, 300 + random() * 400]] as const) {
      for (let x = 240; x < 240 + length; x++) {
        // A stroke 20 px high with a one-pixel soft edge above and below, broken into "letters" of 14 px.
        if (x % 18 > 13) continue;
        for (let y = line - 1; y <= line + 20; y++) {
          const edge = y === line - 1 || y === line + 20;
          const v = edge ? 0x9a : 0x22;
          set(x, y, v, v, v + 8);
        }
      }
    }
  }
  return { width: WIDTH, height: HEIGHT, data };
}
