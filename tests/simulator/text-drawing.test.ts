// Text drawn into a drawn screen's pixels: the glyphs' pixels are where the font's outlines are (checked against
// the font file read here, not against the simulator's own layout), antialiased, blended over what is under
// them; the PNG, colorAt and the pixel route agree; a rectangle painted later covers text; the fonts ship with
// the package and are found from its bundle.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { Screen } from '../../src/simulator/screen.js';
import type { ScenarioInput } from '../../src/simulator/index.js';
import { installPackage } from '../helpers/installed.js';
import { ROOT, runNode } from '../helpers/spawn.js';
import { authed, expect, login, test } from './harness.js';

interface FontFile {
  unitsPerEm: number;
  ascender: number;
  charToGlyph(c: string): { getPath(x: number, y: number, size: number): { getBoundingBox(): { x1: number; y1: number; x2: number; y2: number } } };
}
const opentype = createRequire(import.meta.url)('opentype.js') as { parse(b: ArrayBuffer): FontFile };
const face = (file: string) => {
  const bytes = readFileSync(path.join(ROOT, 'src/simulator/fonts', file));
  return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
};
const REGULAR = face('Roboto-Regular.ttf');

const PHONE = 'device@7';
const WHITE = 0xffffff;
const BLUE = 0x1a73e8;
const SIZE = 200;

/** One phone whose screen shows `texts` over white (and the rectangles given). */
function scenario(screen: Record<string, unknown>): ScenarioInput {
  return { phones: [{ id: PHONE, screen: { width: 400, height: 300, fill: '0xffffff', ...screen } }] } as ScenarioInput;
}

/** The glyph's outline box in pixels, as the font file gives it, for a text at (x, y): baseline 0.93 × size below y. */
function outline(char: string, x: number, y: number, size: number, font = REGULAR) {
  const baseline = Math.round(y + (font.ascender * size) / font.unitsPerEm);
  return font.charToGlyph(char).getPath(x, baseline, size).getBoundingBox();
}

/** Every pixel of a PNG as 0xrrggbb, row by row. */
function pixels(png: Buffer): { width: number; at: (x: number, y: number) => number } {
  const image = PNG.sync.read(png);
  return { width: image.width, at: (x, y) => image.data.readUInt32BE((y * image.width + x) * 4) >>> 8 };
}

test.describe('a glyph is where the font puts it', () => {
  test.use({ simOptions: { scenario: scenario({ texts: [{ x: 40, y: 20, text: 'I', size: SIZE, color: '0x000000' }] }) } });

  test("'I' (a bar in Roboto): text colour inside its outline, the background outside, coverage the bar's area", async ({ sim }) => {
    const box = outline('I', 40, 20, SIZE);
    const image = pixels(sim.screenshot(PHONE));
    let ink = 0;
    let edges = 0;
    const wrong: string[] = [];
    for (let y = 0; y < 300; y++) {
      for (let x = 0; x < 400; x++) {
        const c = image.at(x, y);
        const inside = x >= box.x1 + 1 && x + 1 <= box.x2 - 1 && y >= box.y1 + 1 && y + 1 <= box.y2 - 1;
        const outside = x + 1 <= box.x1 - 1 || x >= box.x2 + 1 || y + 1 <= box.y1 - 1 || y >= box.y2 + 1;
        if ((inside && c !== 0) || (outside && c !== WHITE)) wrong.push(`(${x}, ${y}) ${inside ? 'inside' : 'outside'}: 0x${c.toString(16)}`);
        ink += (255 - (c & 0xff)) / 255;
        if (c !== 0 && c !== WHITE) edges++;
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    const area = (box.x2 - box.x1) * (box.y2 - box.y1);
    expect(Math.abs(ink - area) / area, `coverage ${ink.toFixed(1)} px² against the outline's ${area.toFixed(1)}`).toBeLessThan(0.01);
    expect(edges, 'antialiased edges: grey pixels along the outline').toBeGreaterThan(100);
  });

  test('the pixel route reads the same colours as the PNG', async ({ sim }) => {
    const box = outline('I', 40, 20, SIZE);
    const image = pixels(sim.screenshot(PHONE));
    const token = await login(sim);
    const row = Math.round((box.y1 + box.y2) / 2);
    const seen = new Set<number>();
    for (let x = Math.floor(box.x1) - 2; x <= Math.ceil(box.x2) + 1; x++) {
      const answer = (await authed(sim, token, `/devices/${PHONE}/screen/colors?q=color&x=${x}&y=${row}`)).json as { value: { rgb: string } };
      expect(parseInt(answer.value.rgb, 16), `x ${x}`).toBe(image.at(x, row));
      seen.add(image.at(x, row));
    }
    expect(seen.size, 'white, black and the greys of the edges between').toBeGreaterThan(2);
  });
});

test('a letter with a hole: background inside the "O", text colour on its ring; bold is heavier than regular', () => {
  const [x, y] = [40, 20];
  const o = Screen.drawn(400, 300, WHITE, [], { texts: [{ x, y, text: 'O', size: SIZE, color: 0, weight: 'regular', align: 'left' }] });
  const box = outline('O', x, y, SIZE);
  const middle = Math.round((box.y1 + box.y2) / 2);
  expect(o.colorAt(Math.round((box.x1 + box.x2) / 2), middle), 'the hole').toBe(WHITE);
  expect(o.colorAt(Math.round(box.x1) + 6, middle), 'the ring').toBe(0);
  const coverage = (weight: 'regular' | 'bold') => {
    const s = Screen.drawn(400, 300, WHITE, [], { texts: [{ x, y, text: 'I', size: SIZE, color: 0, weight, align: 'left' }] });
    let sum = 0;
    for (let py = 0; py < 300; py++) for (let px = 0; px < 400; px++) sum += 255 - (s.colorAt(px, py) & 0xff);
    return sum;
  };
  expect(coverage('bold') / coverage('regular')).toBeGreaterThan(1.3);
});

test('white text on blue: every pixel is blue, white or a blend of the two; the PNG agrees with colorAt everywhere', () => {
  const screen = Screen.drawn(300, 120, WHITE, [{ x: 0, y: 0, width: 300, height: 120, color: BLUE }], { texts: [{ x: 10, y: 10, text: 'Sign in', size: 64, color: WHITE, weight: 'regular', align: 'left' }] });
  const image = pixels(screen.toPng());
  let blends = 0;
  const wrong: string[] = [];
  for (let y = 0; y < 120; y++) {
    for (let x = 0; x < 300; x++) {
      const c = image.at(x, y);
      if (screen.colorAt(x, y) !== c) wrong.push(`(${x}, ${y}): colorAt 0x${screen.colorAt(x, y).toString(16)}, PNG 0x${c.toString(16)}`);
      const [r, g, b] = [c >> 16, (c >> 8) & 0xff, c & 0xff];
      // On the line from blue (0x1a, 0x73, 0xe8) to white: the same share of the way in each channel, within rounding.
      const share = (r - 0x1a) / (0xff - 0x1a);
      if (Math.abs((g - 0x73) / (0xff - 0x73) - share) > 0.02 || Math.abs((b - 0xe8) / (0xff - 0xe8) - share) > 0.1) wrong.push(`(${x}, ${y}) 0x${c.toString(16)} is no blend of blue and white`);
      if (c !== BLUE && c !== WHITE) blends++;
    }
  }
  expect(wrong.slice(0, 10)).toEqual([]);
  expect(blends).toBeGreaterThan(200);
});

test.describe('a rectangle painted over text', () => {
  test.use({ simOptions: { scenario: scenario({ texts: [{ x: 10, y: 10, text: 'Left', size: 40 }, { x: 200, y: 10, text: 'Right', size: 40 }] }) } });

  test('covers it where they meet; a text covered whole is no longer read', async ({ sim }) => {
    const before = sim.screenInfo(PHONE).texts;
    expect(before.map((t) => t.text)).toEqual(['Left', 'Right']);
    const right = before[1]!;
    // Half of "Left" and all of "Right".
    sim.fillRect(PHONE, { x: 0, y: 0, width: 40, height: 100, color: '0x00ff00' });
    sim.fillRect(PHONE, { x: 190, y: 0, width: 210, height: 100, color: '0x00ff00' });
    const image = pixels(sim.screenshot(PHONE));
    const notGreen: string[] = [];
    for (let y = 0; y < 100; y++) for (let x = 0; x < 40; x++) if (image.at(x, y) !== 0x00ff00) notGreen.push(`(${x}, ${y})`);
    for (let y = right.y; y < right.y + right.height; y++) for (let x = right.x; x < right.x + right.width; x++) if (image.at(x, y) !== 0x00ff00) notGreen.push(`(${x}, ${y})`);
    expect(notGreen.slice(0, 10)).toEqual([]);
    let dark = 0;
    for (let y = 0; y < 100; y++) for (let x = 40; x < 190; x++) if ((image.at(x, y) & 0xff) < 0x80) dark++;
    expect(dark, 'the rest of "Left" still shows').toBeGreaterThan(50);
    expect(sim.screenInfo(PHONE).texts.map((t) => t.text)).toEqual(['Left']);
  });
});

test("an element's text is centred in its bounds, and drawn: the tree and the pixels agree", () => {
  const screen = Screen.drawn(400, 200, WHITE, [], {
    elements: [{ text: 'Sign in', description: '', id: '', className: 'android.widget.Button', bounds: [20, 40, 380, 160], clickable: true, editable: false, fill: BLUE, textColor: WHITE, textSize: 48, weight: 'regular', align: 'center', opens: undefined }],
  });
  const [sprite] = screen.texts();
  const ink = sprite!.ink!;
  expect(Math.abs((ink.x1 + ink.x2) / 2 - 200)).toBeLessThanOrEqual(2);
  expect(Math.abs((ink.y1 + ink.y2) / 2 - 100)).toBeLessThanOrEqual(48 * 0.15);
  expect(screen.colorAt(21, 41), 'the fill').toBe(BLUE);
});

test('the fonts ship with the package: its bundle draws text', async () => {
  test.setTimeout(60_000);
  const dir = await mkdtemp(path.join(tmpdir(), 'phonewright-fonts-'));
  try {
    await installPackage(ROOT, dir);
    const script = path.join(dir, 'draw.mjs');
    await writeFile(
      script,
      `const { startSimulator } = await import('phonewright');
const sim = await startSimulator({ port: 0, scenario: { phones: [{ id: 'device@1', screen: { width: 200, height: 60, fill: '0xffffff', texts: [{ x: 4, y: 4, text: 'Hello', size: 40 }] } }] } });
console.log(JSON.stringify(sim.screenInfo('device@1').texts));
await sim.close();
`,
    );
    const run = await runNode(script, [], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' }, timeoutMs: 50_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ text: 'Hello', x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) }]);
    expect(JSON.parse(run.stdout)[0].width).toBeGreaterThan(60);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
