// The film's encoder (src/video): frames and their times in, a WebM out, each frame held until the next one's time;
// the steps as WebVTT captions.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodePng, solidImage } from '../../src/image/index.js';
import { encodeImage } from '../../src/simulator/image-formats.js';
import { encodeFilm, encoderPath, FilmError, frameName, webVtt } from '../../src/video/index.js';
import { expect, test } from '../helpers/test.js';

/** The film's length and frames as ffmpeg reads them back: its frames' times, in s. */
function probe(file: string): { duration: number; times: number[]; size: string; sar: string } {
  const out = spawnSync(encoderPath(), ['-hide_banner', '-i', file, '-vf', 'showinfo', '-f', 'null', '-'], { encoding: 'utf8' }).stderr;
  const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(out) ?? [];
  const times = [...out.matchAll(/pts_time:([\d.]+)/g)].map((x) => Number(x[1]));
  const size = /Video: vp8[^,]*, [^,]*, (\d+x\d+)/.exec(out)?.[1] ?? '';
  const sar = /Video: vp8[^,]*, [^,]*, \d+x\d+,? ?(?:\[)?SAR (\d+:\d+)/.exec(out)?.[1] ?? '';
  return { duration: Number(h) * 3600 + Number(m) * 60 + Number(s), times, size, sar };
}

test('each frame is shown from its time to the next one, the last to the end; the long side scaled to size', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'phonewright-film-'));
  try {
    // A portrait phone of 108×192: three screens, the second held 1.9 s, the film ending 1 s after the last.
    const colours = [{ r: 200, g: 0, b: 0 }, { r: 0, g: 200, b: 0 }, { r: 0, g: 0, b: 200 }];
    const at = [0, 100, 2_000];
    const frames = colours.map((c, i) => {
      const file = path.join(dir, frameName(i + 1));
      writeFileSync(file, encodePng(solidImage(108, 192, c)));
      return { file, at: at[i]! };
    });
    const out = path.join(dir, 'film.webm');
    const film = await encodeFilm({ frames, end: 3_000, out, size: 96 });
    expect(film).toMatchObject({ file: out, duration: 3_000, frames: 3 });
    const seen = probe(out);
    expect(seen.size).toBe('54x96');
    // The frames' times are the captures', not a fixed rate: 0, 0.1 and 2.0 s, and the last frame again at the end.
    expect(seen.times).toEqual([0, 0.1, 2, 3]);
    // The container's length: the end, and the short time the muxer gives the closing frame.
    expect(seen.duration).toBeGreaterThanOrEqual(3);
    expect(seen.duration).toBeLessThanOrEqual(3.2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Each frame's colour in the film, in order, read back from a pixel at its middle. */
function frameColours(file: string): [number, number, number][] {
  // 2×2 pixels a frame (a 4:2:0 film's smallest crop), 12 bytes of RGB.
  const out = spawnSync(encoderPath(), ['-hide_banner', '-loglevel', 'error', '-i', file, '-vf', 'crop=2:2', '-vsync', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 1 << 20 }).stdout;
  const colours: [number, number, number][] = [];
  for (let i = 0; i + 11 < out.length; i += 12) colours.push([out[i]!, out[i + 1]!, out[i + 2]!]);
  return colours;
}

test('JPEG frames, as a server captures them: each at its time, in its colours; one twice the film\'s size decoded at half', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'phonewright-film-'));
  try {
    const colours = [{ r: 200, g: 30, b: 30 }, { r: 30, g: 200, b: 30 }, { r: 30, g: 30, b: 200 }];
    for (const [width, height, size, seen] of [[108, 192, 96, '54x96'], [108, 192, 160, '90x160'], [192, 108, 96, '96x54'], [108, 192, 72, '40x72']] as const) {
      const at = [0, 400, 1_200];
      const frames = colours.map((c, i) => {
        const file = path.join(dir, frameName(i + 1, 'jpg'));
        writeFileSync(file, encodeImage('jpg', Buffer.from(solidImage(width, height, c).data), width, height));
        return { file, at: at[i]! };
      });
      const out = path.join(dir, 'film.webm');
      const film = await encodeFilm({ frames, end: 2_000, out, size });
      expect(film).toMatchObject({ duration: 2_000, frames: 3 });
      const probed = probe(out);
      expect(probed.size, `${width}×${height} at ${size}`).toBe(seen);
      // Square pixels, as the phone's, even where the width was rounded to an even number (40 for 40.5).
      expect(probed.sar, `${width}×${height} at ${size}`).toBe('1:1');
      expect(probed.times).toEqual([0, 0.4, 1.2, 2]);
      // Each screen's colour, within what JPEG and VP8 keep of it; the last one again at the end.
      const seenColours = frameColours(out);
      expect(seenColours).toHaveLength(4);
      for (const [i, [r, g, b]] of seenColours.entries()) {
        const want = colours[Math.min(i, 2)]!;
        expect(Math.max(Math.abs(r - want.r), Math.abs(g - want.g), Math.abs(b - want.b)), `${width}×${height} at ${size}, frame ${i + 1}: ${r},${g},${b}`).toBeLessThan(24);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('misuse is refused before the encoder runs: no frame, an odd size, frames not named in order', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'phonewright-film-'));
  try {
    const out = path.join(dir, 'film.webm');
    const cases: [frames: { file: string; at: number }[], size: number, message: RegExp][] = [
      [[], 720, /no frame to encode/],
      [[{ file: path.join(dir, frameName(1)), at: 0 }], 721, /invalid film size 721/],
      [[{ file: path.join(dir, frameName(2)), at: 0 }], 720, /frame 1 is .*f000002\.png: expected f000001\.png/],
    ];
    for (const [frames, size, message] of cases) {
      const error = await encodeFilm({ frames, end: 1_000, out, size }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(FilmError);
      expect((error as Error).message).toMatch(message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('captions: one WebVTT cue per step, its verdict and time, at least half a second long', () => {
  const vtt = webVtt([
    { title: 'press home on galaxy-s9', start: 120, end: 180, failed: false },
    { title: 'toHavePixel(x, y, color)\nsecond line --> arrow', start: 1_000, end: 3_725_500, failed: true },
  ]);
  expect(vtt).toBe(
    [
      'WEBVTT',
      '',
      '1',
      '00:00:00.120 --> 00:00:00.620',
      '✓ press home on galaxy-s9 (60 ms)',
      '',
      '2',
      '00:00:01.000 --> 01:02:05.500',
      '✗ toHavePixel(x, y, color) second line → arrow (3724500 ms)',
      '',
    ].join('\n'),
  );
});
