import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkColor, checkObject, isInt, type Fail } from './check.js';
import type { Bounds, ElementSpec } from './elements.js';
import { FONT_WEIGHTS, type FontWeight } from './font.js';
import { Screen, type Rect } from './screen.js';
import { TEXT_ALIGNS, type TextAlign, type TextSpec } from './text-sprite.js';

const SCREEN_KEYS = ['png', 'width', 'height', 'fill', 'rects', 'texts', 'elements'];
const RECT_KEYS = ['x', 'y', 'width', 'height', 'color', 'scrolls'];
const TEXT_KEYS = ['x', 'y', 'text', 'size', 'color', 'weight'];
const ELEMENT_KEYS = ['text', 'description', 'id', 'class', 'bounds', 'clickable', 'editable', 'fill', 'textColor', 'textSize', 'weight', 'align', 'opens'];
/** Larger than any phone, small enough that a typo (19200 for 1920) is caught before it allocates. */
const MAX_SIDE = 16_384;
/** Text a phone shows in one line, in a size a phone shows: a longer one is a mistake (or a file pasted in). */
const MAX_TEXT = 1_000;
const MAX_TEXT_SIZE = 1_000;
/** An element's text is at most this big unless its size is given: a label's, not a headline's. */
const MAX_DEFAULT_TEXT_SIZE = 48;
/** Screens of the phone, by name: what `opens` and `launch` write. */
export const SCREEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Builds a screen from its JSON form: `{"png": path}` or `{"width", "height", "fill", "rects", "texts",
 * "elements"}`. An element's `opens` is checked by the phone, which knows its screens.
 * @param at the JSON path, for messages
 * @param extraKeys keys allowed beside the screen's (a frame's `durationMs`)
 */
export function readScreen(raw: unknown, at: string, baseDir: string, fail: Fail, extraKeys: string[]): Screen {
  const s = checkObject(raw, at, [...SCREEN_KEYS, ...extraKeys], fail);
  if (s.png !== undefined) return readPng(s, at, baseDir, fail);
  if (!isInt(s.width, 1, MAX_SIDE)) fail(`${at}.width`, `is ${JSON.stringify(s.width)}; write the screen width in pixels (1 to ${MAX_SIDE}), or give "png"`);
  if (!isInt(s.height, 1, MAX_SIDE)) fail(`${at}.height`, `is ${JSON.stringify(s.height)}; write the screen height in pixels (1 to ${MAX_SIDE}), or give "png"`);
  const fill = s.fill === undefined ? 0 : checkColor(s.fill, `${at}.fill`, fail);
  const rects = list(s.rects, `${at}.rects`, '{"x", "y", "width", "height", "color"}', fail).map((r, i) => readRect(r, `${at}.rects[${i}]`, fail));
  const texts = list(s.texts, `${at}.texts`, '{"x", "y", "text", "size"}', fail).map((t, i) => readText(t, `${at}.texts[${i}]`, fail));
  const size = { width: s.width as number, height: s.height as number };
  const elements = list(s.elements, `${at}.elements`, '{"text", "id", "class", "bounds", …}', fail).map((e, i) => readElement(e, `${at}.elements[${i}]`, size, fail));
  return Screen.drawn(size.width, size.height, fill, rects, { texts, elements });
}

/** Refuses an element whose `opens` names no screen of the phone. */
export function checkOpens(screen: Screen, names: ReadonlySet<string>, at: string, fail: Fail): void {
  screen.elements.forEach((e, i) => {
    if (e.opens !== undefined && !names.has(e.opens)) {
      fail(`${at}.elements[${i}].opens`, `is ${JSON.stringify(e.opens)}, which is not a screen of the phone; write one of its "screens" (${[...names].join(', ') || 'it has none'})`);
    }
  });
}

function readPng(s: Record<string, unknown>, at: string, baseDir: string, fail: Fail): Screen {
  for (const key of ['width', 'height', 'fill', 'rects', 'texts', 'elements']) if (s[key] !== undefined) fail(`${at}.${key}`, 'cannot go with "png": the PNG gives the size and the pixels');
  let bytes: Uint8Array;
  let shown = 'the bytes given';
  if (s.png instanceof Uint8Array) {
    bytes = s.png;
  } else if (typeof s.png === 'string' && s.png !== '') {
    shown = path.resolve(baseDir, s.png);
    try {
      bytes = readFileSync(shown);
    } catch (e) {
      return fail(`${at}.png`, `names ${shown}, which cannot be read (${(e as NodeJS.ErrnoException).code}); write the path of a PNG file, relative to the scenario file`);
    }
  } else {
    return fail(`${at}.png`, 'must be the path of a PNG file, relative to the scenario file');
  }
  try {
    return Screen.fromPng(bytes);
  } catch (e) {
    return fail(`${at}.png`, `(${shown}) is not a PNG image: ${(e as Error).message}`);
  }
}

function list(raw: unknown, at: string, shape: string, fail: Fail): unknown[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(at, `must be a list of ${shape}`);
  return raw as unknown[];
}

function readRect(raw: unknown, where: string, fail: Fail): Rect {
  const o = checkObject(raw, where, RECT_KEYS, fail);
  for (const key of ['x', 'y']) if (!isInt(o[key], 0, MAX_SIDE)) fail(`${where}.${key}`, `is ${JSON.stringify(o[key])}; write an integer from 0 to ${MAX_SIDE}`);
  for (const key of ['width', 'height']) if (!isInt(o[key], 1, MAX_SIDE)) fail(`${where}.${key}`, `is ${JSON.stringify(o[key])}; write an integer from 1 to ${MAX_SIDE}`);
  if (o.scrolls !== undefined && typeof o.scrolls !== 'boolean') fail(`${where}.scrolls`, `is ${JSON.stringify(o.scrolls)}; write true for a rectangle that moves with the phone's swipes, or leave it out`);
  return { x: o.x as number, y: o.y as number, width: o.width as number, height: o.height as number, color: checkColor(o.color, `${where}.color`, fail), scrolls: o.scrolls === true };
}

function readText(raw: unknown, where: string, fail: Fail): TextSpec {
  const o = checkObject(raw, where, TEXT_KEYS, fail);
  for (const key of ['x', 'y']) if (!isInt(o[key], 0, MAX_SIDE)) fail(`${where}.${key}`, `is ${JSON.stringify(o[key])}; write an integer from 0 to ${MAX_SIDE} (${key === 'x' ? 'the left edge of the text' : 'the top of its line'})`);
  if (typeof o.text !== 'string' || o.text === '') fail(`${where}.text`, `is ${JSON.stringify(o.text)}; write the text to draw, one line`);
  const text = checkLine(o.text, `${where}.text`, fail);
  const size = checkSize(o.size, `${where}.size`, fail);
  if (size === undefined) fail(`${where}.size`, `is missing; write the font size in pixels, e.g. 40`);
  return { x: o.x as number, y: o.y as number, text, size, color: o.color === undefined ? 0 : checkColor(o.color, `${where}.color`, fail), weight: checkWeight(o.weight, `${where}.weight`, fail), align: 'left' };
}

function readElement(raw: unknown, where: string, screen: { width: number; height: number }, fail: Fail): ElementSpec {
  const o = checkObject(raw, where, ELEMENT_KEYS, fail);
  const text = o.text === undefined ? '' : checkLine(o.text, `${where}.text`, fail);
  const strings: Record<string, string> = {};
  for (const key of ['description', 'id', 'class', 'opens']) {
    const v = o[key];
    if (v !== undefined && (typeof v !== 'string' || v === '' || v.length > 255)) fail(`${where}.${key}`, `is ${JSON.stringify(v)}; write a text of 1 to 255 characters${key === 'id' ? ', e.g. "com.example.app:id/login"' : key === 'class' ? ', e.g. "android.widget.Button"' : ''}`);
    if (typeof v === 'string') strings[key] = v;
  }
  for (const key of ['clickable', 'editable']) if (o[key] !== undefined && typeof o[key] !== 'boolean') fail(`${where}.${key}`, `is ${JSON.stringify(o[key])}; write true or false`);
  const bounds = checkBounds(o.bounds, `${where}.bounds`, screen, fail);
  const clickable = o.clickable === true;
  const editable = o.editable === true;
  if (o.align !== undefined && !TEXT_ALIGNS.includes(o.align as TextAlign)) fail(`${where}.align`, `is ${JSON.stringify(o.align)}; write one of ${TEXT_ALIGNS.join(', ')}`);
  const height = bounds[3] - bounds[1];
  return {
    text,
    description: strings.description ?? '',
    id: strings.id ?? '',
    className: strings.class ?? (editable ? 'android.widget.EditText' : text !== '' ? 'android.widget.TextView' : 'android.view.View'),
    bounds,
    clickable,
    editable,
    fill: o.fill === undefined ? undefined : checkColor(o.fill, `${where}.fill`, fail),
    textColor: o.textColor === undefined ? 0 : checkColor(o.textColor, `${where}.textColor`, fail),
    textSize: checkSize(o.textSize, `${where}.textSize`, fail) ?? Math.max(1, Math.min(MAX_DEFAULT_TEXT_SIZE, Math.round(height / 2))),
    weight: checkWeight(o.weight, `${where}.weight`, fail),
    align: (o.align as TextAlign | undefined) ?? (clickable && !editable ? 'center' : 'left'),
    opens: strings.opens,
  };
}

function checkBounds(raw: unknown, where: string, screen: { width: number; height: number }, fail: Fail): Bounds {
  let box: number[] | undefined;
  if (Array.isArray(raw) && raw.length === 4) box = raw as number[];
  else if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = checkObject(raw, where, ['x', 'y', 'width', 'height'], fail);
    if (['x', 'y', 'width', 'height'].every((k) => isInt(o[k], 0, MAX_SIDE))) box = [o.x as number, o.y as number, (o.x as number) + (o.width as number), (o.y as number) + (o.height as number)];
  }
  const [left, top, right, bottom] = box ?? [];
  const fits = box !== undefined && box.every((n) => isInt(n, 0, MAX_SIDE)) && left! < right! && top! < bottom! && right! <= screen.width && bottom! <= screen.height;
  if (!fits) fail(where, `is ${JSON.stringify(raw)}; write [left, top, right, bottom] (right and bottom outside the element, as Android writes bounds) or {"x", "y", "width", "height"}, on the screen (${screen.width}×${screen.height}) and not empty`);
  return [left!, top!, right!, bottom!];
}

function checkLine(raw: unknown, where: string, fail: Fail): string {
  if (typeof raw !== 'string' || raw.length > MAX_TEXT || /[\r\n]/.test(raw)) fail(where, `is ${JSON.stringify(raw)?.slice(0, 80)}; write one line of text (no line breaks), at most ${MAX_TEXT} characters`);
  return raw as string;
}

function checkSize(raw: unknown, where: string, fail: Fail): number | undefined {
  if (raw === undefined) return undefined;
  if (!isInt(raw, 1, MAX_TEXT_SIZE)) fail(where, `is ${JSON.stringify(raw)}; write the font size in whole pixels, 1 to ${MAX_TEXT_SIZE}`);
  return raw as number;
}

function checkWeight(raw: unknown, where: string, fail: Fail): FontWeight {
  if (raw === undefined) return 'regular';
  if (!FONT_WEIGHTS.includes(raw as FontWeight)) fail(where, `is ${JSON.stringify(raw)}; write "regular" or "bold"`);
  return raw as FontWeight;
}
