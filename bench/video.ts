// video_overhead_ratio: the example suites on the simulator's lab preset with `phoneVideo: 'on'` (every test filmed,
// encoded and attached) over the same run with 'off', wall time, the two runs side by side in each round, the order
// flipped every other round; median of the rounds. video_fps: the frames a second the films hold (frames ÷ length,
// over every film of the 'on' runs); video_kb_per_min: their size per minute of film. video_retain_overhead_ratio:
// 'retain-on-failure' over 'off' in the same rounds (the example suites pass: every test filmed, none encoded), the
// recording's own share. phonewright installed.
import { spawnSync } from 'node:child_process';
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encoderPath } from '../src/video/index.js';
import type { BenchResult } from './report.js';
import { median, round } from './stats.js';
import { exampleSpecs, INSTALLED_CONFIG, installedProject, removeProject, runPlaywright } from './suite.js';

const ROUNDS = 3;
/** The modes of a round, in this order (reversed every other round). */
const MODES = ['off', 'on', 'retain-on-failure'];

export async function run(): Promise<BenchResult> {
  const dir = await installedProject(await exampleSpecs());
  try {
    for (const mode of MODES) await writeFile(path.join(dir, `phonewright.${mode}.json`), JSON.stringify({ simulator: { lab: true }, phoneVideo: mode }));
    const wall: Record<string, number[]> = { on: [], off: [], 'retain-on-failure': [] };
    const cpu: Record<string, number[]> = { on: [], off: [], 'retain-on-failure': [] };
    const films = { frames: 0, seconds: 0, bytes: 0, count: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
        const result = await runPlaywright(dir, ['-c', INSTALLED_CONFIG], { PHONEWRIGHT_CONFIG: `phonewright.${mode}.json` });
        if (result.code !== 0) throw new Error(`the example suites failed with phoneVideo '${mode}' (exit code ${result.code}):\n${result.output.slice(-4000)}`);
        wall[mode]!.push(result.ms);
        cpu[mode]!.push(result.cpuMs);
        if (mode === 'on') await countFilms(path.join(dir, 'test-results', 'matrix'), films);
      }
    }
    const ratios = wall.on!.map((on, i) => on / wall.off![i]!);
    const retain = wall['retain-on-failure']!.map((r, i) => r / wall.off![i]!);
    if (!films.count) throw new Error("the 'on' runs left no film");
    return {
      figures: {
        video_overhead_ratio: round(median(ratios), 3),
        video_fps: round(films.frames / films.seconds, 2),
        video_kb_per_min: round(films.bytes / 1024 / (films.seconds / 60), 1),
        video_retain_overhead_ratio: round(median(retain), 3),
      },
      notes: {
        video_overhead_ratio: `wall ${(median(wall.on!) / 1000).toFixed(1)} s on / ${(median(wall.off!) / 1000).toFixed(1)} s off (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}); CPU ${(median(cpu.on!) / 1000).toFixed(1)} s / ${(median(cpu.off!) / 1000).toFixed(1)} s; the example suites on the lab preset, ${ROUNDS} rounds`,
        video_retain_overhead_ratio: `wall ${(median(wall['retain-on-failure']!) / 1000).toFixed(1)} s (rounds ${retain.map((r) => r.toFixed(2)).join(', ')}); CPU ${(median(cpu['retain-on-failure']!) / 1000).toFixed(1)} s: every test filmed, no film kept`,
        video_fps: `${films.frames} frames in ${films.seconds.toFixed(1)} s of ${films.count} films, 2 asked`,
        video_kb_per_min: `${(films.bytes / 1024).toFixed(0)} KiB in ${films.seconds.toFixed(1)} s of film, VP8 at 720 px`,
      },
    };
  } finally {
    await removeProject(dir);
  }
}

/** Adds every film under `root` to the tally: its frames and length as ffmpeg reads them, its bytes. */
async function countFilms(root: string, tally: { frames: number; seconds: number; bytes: number; count: number }): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const e of entries.filter((x) => x.isFile() && x.name === 'phone-video.webm')) {
    const file = path.join(e.parentPath, e.name);
    const out = spawnSync(encoderPath(), ['-hide_banner', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' }).stderr;
    const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(out) ?? [];
    const frames = Number([...out.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0);
    tally.frames += Math.max(0, frames - 1); // the last frame is the first one again, at the film's end
    tally.seconds += Number(h) * 3600 + Number(m) * 60 + Number(s);
    tally.bytes += (await stat(file)).size;
    tally.count++;
  }
}
