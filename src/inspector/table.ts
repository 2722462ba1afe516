// The "every phone" table: the points picked on one phone, placed on each phone of the matrix, and the
// per-model expectations written as TypeScript in the shape of specs/phones.ts. Pure: no reads, no files.
import { UsageError } from '../core/errors.js';
import type { ScreenSize } from '../core/screen.js';
import { SETTINGS_ENUMS, formatResolution, type DisplaySettings } from '../core/settings.js';

/** A point of the table: its name (a key of each phone's entry) and place. */
export interface NamedPoint {
  name: string;
  x: number;
  y: number;
}

/** The display settings as a spec writes them in `toHaveSettings`, the fields specs/phones.ts keeps. */
export interface TableSettings {
  orientation: string;
  resolution: string;
  resolutionMode: string;
  accl: string;
  hwDecode: string;
}

/** One phone's row: its project (the table's key), each point with its colour, and its settings. */
export interface TableRow {
  project: string;
  points: (NamedPoint & { color: string })[];
  settings: TableSettings;
}

/** Names a point may not take: the entry's own `settings`, and what an object literal cannot hold plainly. */
const RESERVED = new Set(['settings', '__proto__', 'constructor', 'prototype']);

/**
 * Places a point of one screen on another by proportion, each coordinate rounded and kept on the screen; the
 * point as it is where either size is not known.
 * @param point the point on the first phone
 * @param from the first phone's screen
 * @param to the other phone's screen
 */
export function scalePoint(point: NamedPoint, from: ScreenSize | undefined, to: ScreenSize | undefined): NamedPoint {
  if (!from || !to) return { ...point };
  const place = (v: number, a: number, b: number) => Math.min(b - 1, Math.max(0, Math.round((v * b) / a)));
  return { name: point.name, x: place(point.x, from.width, to.width), y: place(point.y, from.height, to.height) };
}

/** The settings of a phone as the table keeps them: enum names, the resolution as `1080*1920`. */
export function tableSettings(s: DisplaySettings): TableSettings {
  const named = (field: keyof typeof SETTINGS_ENUMS, value: number) => SETTINGS_ENUMS[field][value] ?? String(value);
  return {
    orientation: named('display_orientation', s.display_orientation),
    resolution: formatResolution(s.display_resolution),
    resolutionMode: named('display_resolution_mode', s.display_resolution_mode),
    accl: named('display_accl', s.display_accl),
    hwDecode: named('display_hw_decode', s.display_hw_decode),
  };
}

/**
 * Checks a point's name: an identifier, so that `modelOf(project).wallpaper` reads it.
 * @param name e.g. `wallpaper`, `statusBar`
 */
export function checkPointName(name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z_$][\w$]{0,63}$/.test(name) || RESERVED.has(name)) {
    throw new UsageError(`invalid point name ${JSON.stringify(String(name).slice(0, 40))}: expected a name such as wallpaper or statusBar`, {
      hint: 'letters, digits and _, starting with a letter; not "settings"',
    });
  }
  return name;
}

/**
 * The table as a TypeScript module, in the shape of specs/phones.ts: `PhoneModel`, `PHONES` keyed by project
 * name, and `modelOf(projectName)`. Every row must name the same points.
 * @param rows one per phone
 * @param source where the points were picked, for the heading comment (`galaxy-s9 (device@1116106541)`)
 */
export function tableSource(rows: readonly TableRow[], source: string): string {
  if (!rows.length) throw new UsageError('the table has no phone', { hint: 'read the points on every phone first' });
  rows.forEach(checkRow);
  const names = rows[0]!.points.map((p) => checkPointName(p.name));
  if (!names.length) throw new UsageError('the table has no point', { hint: 'pick a point on the phone first' });
  if (new Set(names).size !== names.length) throw new UsageError(`two points of the table have one name: ${names.join(', ')}`, { hint: 'give each point a name of its own' });
  // Each row's names are checked as the first row's: a name of a later row is written as a key too.
  for (const row of rows) {
    if (row.points.length !== names.length || row.points.some((p, i) => checkPointName(p.name) !== names[i])) {
      throw new UsageError(`the row of ${row.project} names other points than the first row: ${names.join(', ')}`);
    }
  }
  const lines = [
    `// What each phone of the matrix shows at the points picked on ${oneLine(source)} with phonewright inspect,`,
    '// placed on each screen by its size, then adjusted; the display settings as each phone reported them.',
    '// Keyed by the Playwright project (the phone\'s name): modelOf(testInfo.project.name).',
    '',
    'export interface PhoneModel {',
    ...names.map((n) => `  ${n}: { x: number; y: number; color: string };`),
    '  settings: { orientation: string; resolution: string; resolutionMode: string; accl: string; hwDecode: string };',
    '}',
    '',
    'export const PHONES: Record<string, PhoneModel> = {',
    ...rows.flatMap((row) => [
      `  ${literal(row.project)}: {`,
      ...row.points.map((p) => `    ${p.name}: { x: ${int(p.x)}, y: ${int(p.y)}, color: ${literal(color(p.color))} },`),
      `    settings: { ${(['orientation', 'resolution', 'resolutionMode', 'accl', 'hwDecode'] as const).map((k) => `${k}: ${literal(String(row.settings[k]))}`).join(', ')} },`,
      '  },',
    ]),
    '};',
    '',
    '/** The model of the phone this project runs on (the project is named after the phone). */',
    'export function modelOf(projectName: string): PhoneModel {',
    '  const model = PHONES[projectName];',
    '  if (!model) throw new Error(`no expectations for phone "${projectName}" in this table: read its points with phonewright inspect`);',
    '  return model;',
    '}',
    '',
  ];
  return lines.join('\n');
}

/** A string literal in single quotes, as the project writes them. */
export function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028|\u2029/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}'`;
}

/** A row as the page sent it: a project name, a list of points, the five settings as text. */
function checkRow(row: TableRow, i: number): void {
  const settings = row?.settings as unknown as Record<string, unknown> | undefined;
  const fine =
    typeof row?.project === 'string' &&
    /^[\w.@-]{1,100}$/.test(row.project) &&
    // Written as a key of PHONES: '__proto__' there would set the object's prototype, not add a row.
    row.project !== '__proto__' &&
    Array.isArray(row.points) &&
    row.points.every((p) => p && typeof p === 'object') &&
    !!settings &&
    typeof settings === 'object' &&
    ['orientation', 'resolution', 'resolutionMode', 'accl', 'hwDecode'].every((k) => typeof settings[k] === 'string');
  if (!fine) throw new UsageError(`invalid table row ${i + 1}: expected { project, points: [{ name, x, y, color }], settings: { orientation, resolution, resolutionMode, accl, hwDecode } }`);
}

function int(n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new UsageError(`invalid coordinate ${JSON.stringify(n)}: expected a whole number ≥ 0`);
  return n;
}

function color(c: unknown): string {
  if (typeof c !== 'string' || !/^0x[0-9a-f]{6}$/.test(c)) throw new UsageError(`invalid colour ${JSON.stringify(c)}: expected 0x and six lowercase hex digits, as the server gives it`);
  return c;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
