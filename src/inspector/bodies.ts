// What each route of the inspector's API takes (checked by src/web/bodies.ts before the route runs): the
// fields, their types, lengths, counts and names, and no other field. What a schema cannot say (a point on the
// phone's screen, a spec's path inside specs/, a phone of this inspector) the routes check after it.
import { fields, list, text, whole, wholeText, type BodySchema, type RouteSchema } from '../web/bodies.js';
import { MAX_POINTS } from './every.js';

/** The largest coordinate or size the page sends, as the routes read it. */
export const LARGEST = 100_000;
/** The most rows of a table: one per phone. */
const MAX_ROWS = 1_000;
/** A draft's lines, as spec-source.ts checks them again: a thousand, of 2,000 characters each. */
const MAX_LINES = 1_000;
const MAX_LINE = 2_000;

const PHONE = text(24, 'a phone id such as "device@1116106541"', '^device@-?[0-9]{1,10}$');
const X = whole(0, LARGEST);
const RECT = fields({ x: X, y: X, width: whole(1, LARGEST), height: whole(1, LARGEST) }, ['x', 'y', 'width', 'height'], 'a rectangle { x, y, width, height } of whole numbers');
// The spec's path: its folders and name are checked by checkSpecName, whose message says what a name may be.
const SPEC = text(200, 'a file name ending in .spec.ts, inside specs/');
const PNG = (what: string) => text(200, `a file name ending in .png, e.g. "${what}"`, '^[\\w.-]+\\.png$');
const POINT_NAME: BodySchema = {
  ...text(64, 'a name such as wallpaper or statusBar (letters, digits and _, starting with a letter; not "settings")', '^[A-Za-z_$][\\w$]*$'),
  not: { enum: ['settings', '__proto__', 'constructor', 'prototype'] },
};
const POINT = fields({ name: POINT_NAME, x: X, y: X }, ['name', 'x', 'y'], 'a point { name, x, y }');
const SETTING = text(100, 'a display setting as the phone reported it');
// An empty list (a draft, a table, its points) is left to the route, whose refusal says what to do.
const ROW = fields(
  {
    // A Playwright project's name; `__proto__` would set the table's prototype, not a row of it.
    project: text(100, 'a project name of letters, digits, ".", "_", "@" and "-"', '^(?!__proto__$)[\\w.@-]+$'),
    points: list(fields({ ...POINT.properties as Record<string, BodySchema>, color: text(8, 'a colour such as "0x25425c"', '^0x[0-9a-f]{6}$') }, ['name', 'x', 'y', 'color'], 'a point { name, x, y, color }'), 0, MAX_POINTS, `a list of up to ${MAX_POINTS} points { name, x, y, color }`),
    settings: fields(
      { orientation: SETTING, resolution: SETTING, resolutionMode: SETTING, accl: SETTING, hwDecode: SETTING },
      ['orientation', 'resolution', 'resolutionMode', 'accl', 'hwDecode'],
      'the settings { orientation, resolution, resolutionMode, accl, hwDecode }',
    ),
  },
  ['project', 'points', 'settings'],
  'a row { project, points, settings }',
);

const AT_POINT = fields({ phone: PHONE, x: wholeText(LARGEST), y: wholeText(LARGEST) }, ['phone', 'x', 'y'], 'a phone and a point');
const ON_PHONE = fields({ phone: PHONE }, ['phone'], 'a phone');

/** Each route of the inspector's API, keyed `POST tap`: its body or its query. */
export const INSPECTOR_REQUESTS: Readonly<Record<string, RouteSchema>> = {
  'GET phones': {},
  'GET screen': { query: ON_PHONE },
  'GET pixel': { query: AT_POINT },
  'GET locator': { query: AT_POINT },
  'GET texts': { query: ON_PHONE },
  'POST tap': { body: fields({ phone: PHONE, x: X, y: X }, ['phone', 'x', 'y'], 'a phone and a point') },
  'POST press': { body: fields({ phone: PHONE, key: text(44, 'a key such as home or back, or a constant such as KEY_VOLUME_UP', '^[A-Za-z][A-Za-z0-9_]*$') }, ['phone', 'key'], 'a phone and a key') },
  'POST golden': {
    body: fields(
      { phone: PHONE, spec: SPEC, name: PNG('status-bar.png'), rect: RECT, mask: list(RECT, 0, 100, 'a list of up to 100 rectangles'), replace: { type: 'boolean', errorMessage: 'true or false' } },
      ['phone', 'spec', 'name', 'rect'],
      'a golden',
    ),
  },
  'POST template': {
    body: fields({ phone: PHONE, spec: SPEC, name: PNG('send-button.png'), rect: RECT, replace: { type: 'boolean', errorMessage: 'true or false' } }, ['phone', 'spec', 'name', 'rect'], 'an image'),
  },
  'POST spec': {
    body: fields(
      {
        spec: SPEC,
        title: { type: 'string', maxLength: 200, errorMessage: 'a title of 1 to 200 characters' },
        lines: list({ type: 'string', maxLength: MAX_LINE, pattern: '^[^\\r\\n\\u2028\\u2029]*$', errorMessage: `one line of code of up to ${MAX_LINE} characters` }, 0, MAX_LINES, `a list of up to ${MAX_LINES} lines of code`),
      },
      ['spec', 'title', 'lines'],
      'a draft',
    ),
  },
  'POST every': { body: fields({ phone: PHONE, points: list(POINT, 0, MAX_POINTS, `a list of up to ${MAX_POINTS} points { name, x, y }: read more on several tables`) }, ['phone', 'points'], 'a phone and its points') },
  'POST table': {
    body: fields({ phone: PHONE, rows: list(ROW, 0, MAX_ROWS, `a list of up to ${MAX_ROWS} rows`), file: text(200, 'a file name ending in .ts, inside specs/') }, ['phone', 'rows'], 'a table'),
  },
};
