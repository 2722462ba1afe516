// The film of a phone's screen: frames and their times in, one WebM file out. The one encoder behind it is the
// registry's static build of ffmpeg (@ffmpeg-installer/ffmpeg), run as a child process after the test's verdict;
// docs/performance.md ("The film's encoder") says why it won against ffmpeg in WebAssembly.
import { spawn } from 'node:child_process';
import { copyFile, open, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';

/** One frame of a film: a PNG or JPEG file, and when the screen showed it, in ms from the film's start. */
export interface FilmFrame {
  file: string;
  at: number;
}

/** What {@link encodeFilm} is handed. */
export interface EncodeOptions {
  /**
   * The frames in the order they were taken, numbered files of one folder and one type (`f000001.png`, …, as
   * {@link frameName} names them), their times rising.
   */
  frames: readonly FilmFrame[];
  /** ms from the film's start when its last frame stops showing: the film's length. */
  end: number;
  /** The WebM file to write. */
  out: string;
  /** The long side of the film, in pixels (even). @default 720 */
  size?: number;
  /** Stops the encoder (its process is killed). */
  signal?: AbortSignal;
}

/** The film written. */
export interface Film {
  file: string;
  bytes: number;
  /** ms: the film's length. */
  duration: number;
  frames: number;
}

/** Why a film could not be made: no encoder for this machine, or the encoder failed. */
export class FilmError extends Error {
  readonly code = 'PW_FILM';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FilmError';
  }
}

/** The long side of a film unless told: the report's player shows a phone's screen at about this height. */
export const DEFAULT_FILM_SIZE = 720;
/**
 * Any whole second far from 0: ffmpeg reads each frame's time from its file's modification time (`-ts_from_file 2`,
 * in ns) and the film starts at the first one, so only the differences count.
 */
const EPOCH_S = 1_000_000_000;

/**
 * The file name of the frame numbered `index` (from 1) of a film, as {@link encodeFilm} reads them.
 * @param type the image's type, as the capture came
 */
export function frameName(index: number, type: 'png' | 'jpg' = 'png'): string {
  return `f${String(index).padStart(6, '0')}.${type}`;
}

/**
 * Encodes frames into a WebM (VP8) film that Chromium, and so Playwright's HTML report, plays: each frame shown
 * for as long as the screen held it (its time to the next frame's, the last one's to `end`), scaled so the long
 * side is `size`. The frames' files get their times as modification times (ffmpeg reads them there) and the last
 * frame is copied once more, as the film's end.
 */
export async function encodeFilm(options: EncodeOptions): Promise<Film> {
  const { frames, end, out, size = DEFAULT_FILM_SIZE, signal } = options;
  if (!frames.length) throw new FilmError('no frame to encode');
  if (!Number.isInteger(size) || size < 16 || size % 2) throw new FilmError(`invalid film size ${size}: expected an even number of pixels ≥ 16`);
  const folder = path.dirname(frames[0]!.file);
  const ext = path.extname(frames[0]!.file);
  let last = frames[0]!.at;
  for (const [i, frame] of frames.entries()) {
    if (frame.file !== path.join(folder, frameName(i + 1, ext.slice(1) as 'png' | 'jpg'))) throw new FilmError(`frame ${i + 1} is ${frame.file}: expected ${frameName(i + 1)} in ${folder}`);
    last = Math.max(last, frame.at);
    await stamp(frame.file, frame.at - frames[0]!.at);
  }
  // The last frame again, at the film's end: ffmpeg gives a frame the time to the next one, and the last none.
  const tail = path.join(folder, frameName(frames.length + 1, ext.slice(1) as 'png' | 'jpg'));
  const length = Math.max(end, last + 1) - frames[0]!.at;
  await copyFile(frames[frames.length - 1]!.file, tail);
  await stamp(tail, length);
  const scale = `scale=w='if(gt(iw,ih),${size},-2)':h='if(gt(iw,ih),-2,${size})'`;
  await run(
    encoderPath(),
    [
      ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      // One decoding thread: a PNG decoded on threads of its own took half as much CPU again (a film's few frames
      // leave them nothing to overlap), and a JPEG no less.
      ['-threads', '1'],
      // A JPEG at least twice the film's size is decoded at half its size (its DCT read at 4×4): a third of a
      // 1080×1920 frame's decoding, for a film of 720 px that shows no less.
      (await halvable(frames[0]!.file, size)) ? ['-lowres', '1'] : [],
      ['-ts_from_file', '2', '-i', path.join(folder, `f%06d${ext}`)],
      // The encoder counts in ms, WebM's own unit: left to itself it takes a frame rate guessed from the first frames'
      // times (1.25 fps from captures at 0, 0.4 and 1.2 s) and rounds every time to it (those came out 0, 0.8 and 1.6 s).
      // Square pixels, as the phone's: a JPEG says its pixels are square, and scaling it to an even width (406 for
      // 405) would otherwise mark them 254:255 wide, which a player shows at 404×722.
      ['-vf', `setpts=PTS-STARTPTS,${scale},setsar=1,format=yuv420p`, '-vsync', 'vfr', '-enc_time_base', '1/1000'],
      // VP8 at its fastest (a phone's screen is mostly still); a key frame every 20 frames, for seeking.
      ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k', '-crf', '30', '-g', '20', '-an', '-threads', '1'],
      [out],
    ].flat(),
    signal,
  );
  return { file: out, bytes: (await stat(out)).size, duration: length, frames: frames.length };
}

/** The encoder's binary, from its registry package; a {@link FilmError} naming what to do where there is none. */
export function encoderPath(): string {
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return installer.path;
  } catch (error) {
    throw new FilmError(`no film encoder for this machine (${String(error)}): try npm install @ffmpeg-installer/ffmpeg`, { cause: error });
  }
}

/**
 * Whether a frame is a JPEG whose long side is at least twice `size`: read from its frame header (SOF), the
 * first marker segment that holds the image's size.
 */
async function halvable(file: string, size: number): Promise<boolean> {
  const handle = await open(file);
  try {
    // A capture's header segments (tables, maybe a small EXIF) come well within the first 64 KiB.
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(65_536), 0, 65_536, 0);
    const dims = jpegSize(buffer.subarray(0, bytesRead));
    return dims !== undefined && Math.max(dims.width, dims.height) >= 2 * size;
  } finally {
    await handle.close();
  }
}

/** A JPEG's width and height from its start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC); undefined if none is found. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  for (let i = 2; i + 9 < bytes.length; ) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    }
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return undefined;
}

async function stamp(file: string, ms: number): Promise<void> {
  const s = EPOCH_S + ms / 1000;
  await utimes(file, s, s);
}

/** Runs the encoder, below this process's priority; rejects with its last lines of stderr. */
function run(bin: string, args: string[], signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    // Below its caller's priority: a film is encoded while the next test runs, and never before that test's work.
    try {
      if (child.pid !== undefined) setPriority(child.pid, Math.min(19, getPriority() + 5));
    } catch {
      // A system that does not let a process lower its child's priority encodes at the caller's.
    }
    let err = '';
    child.stderr.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-2000)));
    child.on('error', (e) => reject(new FilmError(`the film encoder did not run: ${e.message}`, { cause: e })));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new FilmError(`the film encoder failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}
