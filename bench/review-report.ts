// A run's reports as a Playwright run leaves them, made up: a folder with specs, goldens and reports/results.json
// whose tests failed their region checks on several phones, each with the images and facts the fixtures attach.
// The review's benchmark loads 200 of them; its tests use a few (tests/review/).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodePng, solidImage, type Image } from '../src/image/index.js';

/** The phones of the made-up run: two of one model. */
export const SYNTHETIC_PHONES = [
  { project: 'galaxy-s9', model: 'SM-G960F' },
  { project: 'galaxy-s9-lab', model: 'SM-G960F' },
  { project: 'pixel-7', model: 'Pixel 7' },
  { project: 'moto-g5', model: 'Moto G (5)' },
];

export interface SyntheticRun {
  /** The project's folder. */
  dir: string;
  /** The report's folder, `<dir>/reports`. */
  reports: string;
  failures: number;
  /** The golden of test `t` on phone `p`, relative to the folder. */
  golden(t: number, project: string): string;
}

/**
 * Writes a run of `tests` tests, each failing its 40×30 badge check on every phone: `specs/home.spec.ts`, each
 * golden, and `reports/results.json`. The report's rootDir is `dir`, so the run is this folder's.
 * @param options.rootDir the rootDir the report names (another machine's, for a report made elsewhere)
 */
export async function writeSyntheticRun(dir: string, tests: number, options: { rootDir?: string } = {}): Promise<SyntheticRun> {
  const rootDir = options.rootDir ?? dir;
  const spec = 'specs/home.spec.ts';
  const golden = (t: number, project: string) => `${spec}-snapshots/badge-${t}-${project}.png`;
  await mkdir(path.join(dir, 'specs', 'home.spec.ts-snapshots'), { recursive: true });
  await mkdir(path.join(dir, 'reports'), { recursive: true });
  await writeFile(path.join(dir, spec), Array.from({ length: tests }, (_, t) => `test('badge ${t}', async ({ device }) => {\n  await expect(device).toMatchRegion(BADGE, 'badge-${t}.png');\n});\n`).join('\n'));
  const screen = encodePng(solidImage(360, 640, { r: 0x25, g: 0x42, b: 0x5c }), {}, true);
  const expected = badge(false);
  const actual = badge(true);
  const diff = encodePng(solidImage(40, 30, { r: 0xf0, g: 0xf0, b: 0xf0 }));
  const specs = [];
  for (let t = 0; t < tests; t++) {
    const results = SYNTHETIC_PHONES.map((p) => {
      const facts = {
        matcher: 'toMatchRegion', phone: `${p.project} (device@${7000 + t})`, isNot: false, region: { x: 60, y: 30, width: 40, height: 30 },
        mask: [{ x: 90, y: 30, width: 10, height: 10 }], golden: golden(t, p.project), goldenPath: path.join(rootDir, golden(t, p.project)),
        actualAttachment: `badge-${t}-actual.png`, outcome: 'differs', mismatch: '36 pixels (3% of 40×30) are different by more than ΔE00 2.3 (largest 59.5); 0 allowed.',
        reads: { answered: 3, unanswered: 0, ms: 1500, timeout: 1500 },
      };
      const attachment = (name: string, body: Buffer | string, contentType = 'image/png') => ({ name, contentType, body: Buffer.from(body).toString('base64') });
      return {
        projectName: p.project, projectId: p.project, status: 'unexpected', expectedStatus: 'passed', annotations: [], timeout: 20000,
        results: [{
          status: 'failed', retry: 0, duration: 1600, startTime: new Date().toISOString(), workerIndex: 0, parallelIndex: 0, stdout: [], stderr: [], annotations: [],
          errors: [{ message: `Error: expect(device).toMatchRegion(rect, name)\n\nPhone:    ${facts.phone}\nRegion:   40×30 at (60, 30)`, location: { file: path.join(rootDir, spec), line: 2 + 4 * t, column: 24 } }],
          attachments: [
            attachment('phone-screen.png', screen),
            attachment(`badge-${t}-expected.png`, expected),
            attachment(`badge-${t}-actual.png`, actual),
            attachment(`badge-${t}-diff.png`, diff),
            attachment('phonewright-facts.json', JSON.stringify(facts), 'application/json'),
          ],
        }],
      };
    });
    specs.push({ title: `badge ${t}`, ok: false, tags: [], id: `s${t}`, file: spec, line: 1 + 4 * t, column: 1, tests: results });
    for (const p of SYNTHETIC_PHONES) await writeFile(path.join(dir, golden(t, p.project)), expected);
  }
  const report = {
    config: { rootDir, projects: SYNTHETIC_PHONES.map((p) => ({ name: p.project, id: p.project, testDir: path.join(rootDir, 'specs'), metadata: { model: p.model } })) },
    suites: [{ title: spec, file: spec, line: 0, column: 0, specs, suites: [] }],
    errors: [],
    stats: { startTime: new Date().toISOString(), duration: 2000, expected: 0, unexpected: specs.length * SYNTHETIC_PHONES.length, flaky: 0, skipped: 0 },
  };
  await writeFile(path.join(dir, 'reports', 'results.json'), JSON.stringify(report));
  return { dir, reports: path.join(dir, 'reports'), failures: tests * SYNTHETIC_PHONES.length, golden };
}

/** The badge: green, its clock corner masked in magenta; `dotted` adds the pink dot of a changed screen. */
function badge(dotted: boolean): Buffer {
  const image: Image = solidImage(40, 30, { r: 0x3d, g: 0xdc, b: 0x84 });
  const paint = (x0: number, y0: number, w: number, h: number, rgba: number[]) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) image.data.set(rgba, (y * 40 + x) * 4);
  };
  paint(30, 0, 10, 10, [255, 0, 255, 255]);
  if (dotted) paint(6, 8, 6, 6, [0xd5, 0x00, 0xf9, 255]);
  return encodePng(image);
}
