// The inspector's pure parts, table by table: the project a run gives a phone (so goldens land where a run
// looks), file names it accepts, points placed on another screen, the suggested deltaE, the table's source.
import path from 'node:path';
import { test, expect } from '../helpers/test.js';
import { checkSpecName, fixturesImport, goldenFile, projectOf, type PhoneFacts, type ServerFacts } from '../../src/inspector/naming.js';
import { suggestDeltaE } from '../../src/inspector/reads.js';
import { specSource } from '../../src/inspector/spec-source.js';
import { scalePoint, tableSource } from '../../src/inspector/table.js';

const MAIN = 'device@1116106541';
const OTHER = 'device@-230441652';
const s9: PhoneFacts = { id: MAIN, name: 'galaxy-s9', model: 'SM-G960F', screen: { width: 1080, height: 1920 } };
const moto: PhoneFacts = { id: OTHER, name: 'mobile7', model: 'Moto G (5)', screen: { width: 1280, height: 720 } };
// `others`: the names the config file's other servers give their phones.
const real = (devices: ServerFacts['devices'], others: string[] = []): ServerFacts => ({ devices, embedded: false, mainDevice: MAIN, name: 'lab-a', othersNames: new Set(others) });
const embedded = (devices: ServerFacts['devices']): ServerFacts => ({ devices, embedded: true, mainDevice: MAIN, name: 'simulator', othersNames: new Set() });

const PROJECTS: [string, PhoneFacts, ServerFacts, string, string][] = [
  ['the embedded simulator: the scenario\'s name', s9, embedded(undefined), 'galaxy-s9', 'galaxy-s9'],
  ['the embedded simulator, listed as main in the file', s9, embedded([{ id: 'main', name: 'ignored' }]), 'galaxy-s9', 'galaxy-s9'],
  ['the embedded simulator, in a pool', s9, embedded([{ id: MAIN, pool: 'samsung' }]), 'samsung', 'samsung'],
  ['a server by --url: its main device is the project main, its goldens named after the phone', s9, real(undefined), 'main', 'SM-G960F-1080x1920'],
  ['a server by --url, another phone: its id', moto, real(undefined), OTHER, OTHER],
  ['the file names the phone', moto, real([{ id: OTHER, name: 'moto-g5' }]), 'moto-g5', 'moto-g5'],
  ['the file lists it by id', moto, real([{ id: OTHER }]), OTHER, OTHER],
  ['the file lists main with a name: goldens still by the phone', s9, real([{ id: 'main', name: 'lab-main' }]), 'lab-main', 'SM-G960F-1080x1920'],
  ['a pool of the file', moto, real([{ id: OTHER, name: 'moto-a', pool: 'motos' }]), 'motos', 'motos'],
  ['devices: all, by id', moto, real('all'), OTHER, OTHER],
  ['a file of several servers keeps the phone\'s name', moto, real([{ id: OTHER, name: 'moto-g5' }], ['main', 'pixel-7']), 'moto-g5', 'moto-g5'],
  ['another server names a phone alike: the project is <server>-<phone>', moto, real([{ id: OTHER, name: 'moto-g5' }], ['moto-g5']), 'lab-a-moto-g5', 'lab-a-moto-g5'],
  ['another server names a pool alike: the pool is <server>-<pool>', moto, real([{ id: OTHER, name: 'moto-a', pool: 'motos' }], ['motos']), 'lab-a-motos', 'lab-a-motos'],
  ['a main device of unknown model: its id', { ...s9, model: undefined }, real(undefined), 'main', MAIN],
  ['a model with spaces, sanitized as the run does', { ...moto, id: MAIN }, real(undefined), 'main', 'Moto_G_5_-1280x720'],
];

for (const [what, phone, server, project, suffix] of PROJECTS) {
  test(`a phone's project and golden name: ${what}`, () => {
    expect(projectOf(phone, server)).toEqual({ project, goldenSuffix: suffix });
  });
}

test('goldens go where the matrix\'s snapshotPathTemplate puts them; spec names stay inside specs/', () => {
  const specs = path.join('/p', 'specs');
  expect(goldenFile(specs, 'home.spec.ts', 'status-bar.png', 'galaxy-s9')).toBe('/p/specs/home.spec.ts-snapshots/status-bar-galaxy-s9.png');
  expect(goldenFile(specs, 'settings/dark.spec.ts', 'a.png', 'main')).toBe('/p/specs/settings/dark.spec.ts-snapshots/a-main.png');
  for (const good of ['a.spec.ts', 'settings/dark.spec.ts', 'x_y-1.spec.ts']) expect(checkSpecName(good)).toBe(good);
  for (const bad of ['../a.spec.ts', '/etc/a.spec.ts', 'a/../../b.spec.ts', './a.spec.ts', 'a.ts', '.spec.ts', 'a b.spec.ts', 'a\\b.spec.ts', 7, '']) {
    expect(() => checkSpecName(bad), String(bad)).toThrow(/invalid file name .*: expected a name ending in \.spec\.ts, inside specs\//);
  }
  expect(checkSpecName('phones.ts', '.ts')).toBe('phones.ts');
});

test('a point is placed on another screen by proportion, kept on it; as it is where a size is unknown', () => {
  const p = { name: 'p', x: 100, y: 100 };
  expect(scalePoint(p, { width: 1080, height: 1920 }, { width: 1080, height: 2400 })).toEqual({ name: 'p', x: 100, y: 125 });
  expect(scalePoint(p, { width: 160, height: 120 }, { width: 320, height: 240 })).toEqual({ name: 'p', x: 200, y: 200 });
  expect(scalePoint({ name: 'p', x: 159, y: 119 }, { width: 160, height: 120 }, { width: 80, height: 60 })).toEqual({ name: 'p', x: 79, y: 59 });
  expect(scalePoint({ name: 'p', x: 159, y: 0 }, { width: 160, height: 120 }, { width: 320, height: 240 })).toEqual({ name: 'p', x: 318, y: 0 });
  expect(scalePoint(p, undefined, { width: 320, height: 240 })).toEqual(p);
});

test('the suggested deltaE: none on a flat area, the spread rounded up to a tenth, none past an edge', () => {
  const c = { r: 37, g: 66, b: 92 };
  expect(suggestDeltaE(c, [c, c, undefined])).toEqual({ spread: 0, deltaE: undefined });
  const near = suggestDeltaE(c, [c, { r: 38, g: 66, b: 92 }]);
  expect(near.spread).toBeGreaterThan(0);
  expect(near.deltaE).toBe(Math.ceil(near.spread * 10) / 10);
  expect(suggestDeltaE(c, [{ r: 255, g: 255, b: 255 }])).toMatchObject({ deltaE: undefined });
});

test('the table\'s source: the shape of specs/phones.ts, keyed by project; bad rows refused', () => {
  const settings = { orientation: 'portrait', resolution: '1080*1920', resolutionMode: '640p', accl: 'DirectX', hwDecode: 'yes' };
  const source = tableSource([{ project: 'lab-a-moto-g5', points: [{ name: 'wallpaper', x: 1, y: 2, color: '0x25425c' }], settings }], 'galaxy-s9 (device@1116106541)');
  expect(source).toContain('export interface PhoneModel {\n  wallpaper: { x: number; y: number; color: string };');
  expect(source).toContain("  'lab-a-moto-g5': {\n    wallpaper: { x: 1, y: 2, color: '0x25425c' },\n    settings: { orientation: 'portrait', resolution: '1080*1920', resolutionMode: '640p', accl: 'DirectX', hwDecode: 'yes' },\n  },");
  expect(source).toContain('export function modelOf(projectName: string): PhoneModel {');
  const row = (over: object) => [{ project: 'a', points: [{ name: 'p', x: 1, y: 2, color: '0x000000' }], settings, ...over }];
  expect(() => tableSource(row({ points: [{ name: 'settings', x: 1, y: 2, color: '0x000000' }] }), 'x')).toThrow(/invalid point name "settings"/);
  expect(() => tableSource(row({ points: [{ name: 'p', x: 1, y: 2, color: 'red' }] }), 'x')).toThrow(/invalid colour "red"/);
  expect(() => tableSource(row({ settings: undefined }), 'x')).toThrow(/invalid table row 1/);
  expect(() => tableSource(row({ project: "it's" }), 'x')).toThrow(/invalid table row 1/);
  expect(() => tableSource([], 'x')).toThrow(/the table has no phone/);
});

test('the draft\'s spec: the fixtures imported as told, the title escaped, one statement a line', () => {
  const source = specSource({ title: "it's\nfine", lines: ["await device.tap(1, 2);"], fixtures: 'phonewright/fixtures' });
  expect(source).toBe("import { test, expect } from 'phonewright/fixtures';\n\n// Drafted with phonewright inspect: the lines in the order they were made.\ntest('it\\'s\\nfine', async ({ device }) => {\n  await device.tap(1, 2);\n});\n");
  const fixtures = 'phonewright/fixtures';
  expect(() => specSource({ title: 't', lines: ['a;\nb;'], fixtures })).toThrow(/one statement a line/);
  expect(() => specSource({ title: 't', lines: [], fixtures })).toThrow(/the draft is empty/);
  expect(() => specSource({ title: ' ', lines: ['x;'], fixtures })).toThrow(/needs a title/);
});

test('fixtures of the project\'s own, beside specs/, are imported by a path up from the spec\'s folder', () => {
  expect(fixturesImport('a.spec.ts')).toBe('../fixtures');
  expect(fixturesImport('settings/dark.spec.ts')).toBe('../../fixtures');
});
