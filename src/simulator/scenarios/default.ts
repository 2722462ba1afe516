import { EXAMPLE_MAIN_DEVICE } from '../../core/defaults.js';
import { DEFAULT_APPS, type DrawnScreenInput, type FrameInput, type RectInput, type ScenarioInput } from '../scenario-types.js';
import { EXAMPLE_APP, exampleApp } from './sign-in.js';

/** App icon colours (Material palette), distinct enough for a pixel check with a small tolerance. */
const ICONS = ['0xe53935', '0x8e24aa', '0x1e88e5', '0x43a047', '0xfdd835', '0xfb8c00', '0x00acc1', '0x6d4c41', '0xd81b60', '0x3949ab', '0x7cb342', '0x546e7a'];

/**
 * How long each phase of the status bar's spinner shows: several a second, so a film of the phone shows motion. Its
 * turn (600 ms) is no divisor of a film's ticks (100 ms to 1 s): frames taken at a steady rate catch other phases.
 */
const SPIN_MS = 150;
/** The spinner's phases: one of its dots lit in turn. */
const SPIN_PHASES = 4;

/**
 * The built-in scenario: four phones of different sizes and orientations, each on a home screen with a
 * status bar, a grid of app icons and a dock, all plain rectangles so specs can check pixels and regions.
 * It is a module, not a JSON file, so the build carries it into dist/; `phonewright sim --print-scenario`
 * prints it as JSON to start a scenario of one's own from.
 *
 * The main phone is the vendor's example, `device@1116106541`, whose pixel (100, 100) is `0x25425c`; the
 * Pixel 7 has the id of the vendor's notification example and posts a message every 30 seconds. Every phone
 * has the example app `com.example.app`, whose start shows a sign-in form in text and UI elements (sign-in.ts).
 */
export const DEFAULT_SCENARIO: ScenarioInput = {
  main: EXAMPLE_MAIN_DEVICE,
  phones: [
    {
      id: EXAMPLE_MAIN_DEVICE,
      name: 'galaxy-s9',
      model: 'SM-G960F',
      manufacturer: 'samsung',
      android: '10',
      sdk: 29,
      // The vendor's sample settings body.
      settings: { display_mode: 1, display_quality: 2, display_accl: 2, display_hw_decode: 1, display_resolution_mode: 2, display_orientation: 1, display_resolution: '1080*1920' },
      frames: homeFrames(1080, 1920, '0x25425c'),
      apps: [...DEFAULT_APPS, EXAMPLE_APP],
      ...exampleApp(1080, 1920),
    },
    {
      id: 'device@1174886816',
      name: 'pixel-7',
      model: 'Pixel 7',
      manufacturer: 'Google',
      android: '14',
      sdk: 34,
      frames: homeFrames(1080, 2400, '0x3b1f4a'),
      apps: [...DEFAULT_APPS, EXAMPLE_APP],
      ...exampleApp(1080, 2400),
    },
    {
      id: 'device@24681357',
      name: 'galaxy-tab-s7',
      model: 'SM-T870',
      manufacturer: 'samsung',
      android: '13',
      sdk: 33,
      settings: { display_quality: 1, display_accl: 3 },
      // A text cursor blinks in the search field, 0.6 s on and 0.6 s off, beside the spinner.
      frames: homeFrames(2560, 1600, '0x0f3d2e', true),
      apps: [...DEFAULT_APPS, EXAMPLE_APP],
      ...exampleApp(2560, 1600),
    },
    {
      id: 'device@-230441652',
      name: 'moto-g5',
      model: 'Moto G (5)',
      manufacturer: 'motorola',
      android: '8.1.0',
      sdk: 27,
      settings: { display_hw_decode: 0 },
      frames: homeFrames(1280, 720, '0x5c2a1e'),
      apps: [...DEFAULT_APPS, EXAMPLE_APP],
      ...exampleApp(1280, 720),
    },
  ],
  notifications: [
    { device: 'device@1174886816', app: 'com.sigma_rt.totalcontrol', text: '点击进入程序', atMs: 0 },
    { device: 'device@1174886816', app: 'com.android.systemui', text: 'USB debugging connected ({n})', everyMs: 30_000 },
  ],
};

/**
 * The home screen's frames: the status bar's activity spinner turning ({@link SPIN_PHASES} phases of {@link SPIN_MS}),
 * the search field's cursor, where there is one, on for a turn and off for the next.
 */
function homeFrames(width: number, height: number, wallpaper: string, cursor?: boolean): FrameInput[] {
  const turns = cursor ? 2 : 1;
  const frames: FrameInput[] = [];
  for (let i = 0; i < SPIN_PHASES * turns; i++) {
    frames.push({ ...homeScreen(width, height, wallpaper, cursor === undefined ? undefined : i < SPIN_PHASES, i % SPIN_PHASES), durationMs: SPIN_MS });
  }
  return frames;
}

/**
 * A home screen: wallpaper, a status bar (a signal mark at its left end, so the 48×48 corner region is not one
 * flat colour, a clock, a battery), a search field, a grid of app icons and a dock, its first icon the chat app's.
 */
function homeScreen(width: number, height: number, wallpaper: string, cursor: boolean | undefined, spin: number): DrawnScreenInput {
  const landscape = width > height;
  const bar = Math.round(Math.min(width, height) / 15); // 72 px on a 1080-wide phone
  const icon = Math.round(Math.min(width, height) * 0.1333); // 144 px on a 1080-wide phone
  const columns = landscape ? 8 : 4;
  const rows = landscape ? 2 : 4;
  const gap = Math.floor((width - columns * icon) / (columns + 1));
  const rects: RectInput[] = [
    { x: 0, y: 0, width, height: bar, color: '0x101820' },
    { x: 16, y: 16, width: 16, height: 16, color: '0xffffff' },
    { x: 36, y: 24, width: 8, height: 8, color: '0x9e9e9e' },
    { x: Math.round(width / 2) - 60, y: Math.round(bar / 4), width: 120, height: Math.round(bar / 2), color: '0xe0e0e0' },
    { x: width - 64, y: Math.round(bar / 4), width: 40, height: Math.round(bar / 2), color: '0x3ddc84' },
  ];
  // The activity spinner, left of the battery: four dots, one lit in turn. No example spec or test reads it.
  const dot = Math.round(bar / 6);
  for (let i = 0; i < SPIN_PHASES; i++) {
    rects.push({ x: width - 64 - 24 - (SPIN_PHASES - i) * (dot + 6), y: Math.round(bar / 2 - dot / 2), width: dot, height: dot, color: i === spin ? '0xffffff' : '0x37474f' });
  }
  const searchY = bar + Math.round(icon * 0.75);
  rects.push({ x: gap, y: searchY, width: width - 2 * gap, height: Math.round(icon / 2), color: '0xf5f5f5' });
  if (cursor) rects.push({ x: gap + 24, y: searchY + 12, width: 4, height: Math.round(icon / 2) - 24, color: '0x1a73e8' });
  const gridY = searchY + icon;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const color = ICONS[(row * columns + col) % ICONS.length]!;
      rects.push({ x: gap + col * (icon + gap), y: gridY + row * (icon + gap), width: icon, height: icon, color });
    }
  }
  const dock = Math.round(icon * 1.5);
  rects.push({ x: 0, y: height - dock, width, height: dock, color: '0x1c2b36' });
  for (let col = 0; col < 4; col++) {
    rects.push({ x: gap + col * (icon + gap), y: height - dock + Math.round(icon / 4), width: icon, height: icon, color: ICONS[(col * 5) % ICONS.length]! });
  }
  rects.push(...chatGlyph(gap, height - dock + Math.round(icon / 4), icon, ICONS[0]!));
  return { width, height, fill: wallpaper, rects };
}

/**
 * The chat app's glyph on the first dock icon: a white speech bubble with two lines of text and a tail, drawn in
 * proportion to the icon, so it is one image at every density (`specs/images/chat-app.png` is the galaxy-s9's).
 */
function chatGlyph(x: number, y: number, side: number, color: string): RectInput[] {
  const at = (fx: number, fy: number, fw: number, fh: number, c: string): RectInput => ({ x: x + Math.round(side * fx), y: y + Math.round(side * fy), width: Math.round(side * fw), height: Math.round(side * fh), color: c });
  return [at(0.2, 0.22, 0.6, 0.42, '0xffffff'), at(0.3, 0.64, 0.14, 0.12, '0xffffff'), at(0.3, 0.33, 0.4, 0.07, color), at(0.3, 0.48, 0.26, 0.07, color)];
}
