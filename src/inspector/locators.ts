// What the inspector suggests for a click on an element: the most specific locator that names only it on the
// screen (its text, then its description, through the vendor's UI elements; the words read from the screen where
// the server has no engine), with the lines of a spec that tap it and check it is there; and every text getByText
// sees on the screen, each where it is, for the page to draw over the screen.
import type { CallOptions } from '../client/index.js';
import type { Rect } from '../core/screen.js';
import type { TextRead } from '../image/index.js';
import { offersElements, Phone, type Locator } from '../phone/index.js';
import { linesRead, readScreen, textsOf } from '../phone/locator-look.js';
import type { InspectedPhone } from './phones.js';

/** A suggestion for a point of the screen. */
export interface LocatorSuggestion {
  /** How the locator finds it: the UI elements, or the text read from the screen. */
  via: 'elements' | 'ocr';
  /** The spec's expression, `device.getByText('Sign in')`. */
  locator: string;
  /** What it names, where. */
  text: string;
  box: Rect;
  /** The lines to copy: a tap, and a check that it is there. */
  lines: { tap: string; visible: string };
}

/** Every text getByText sees on a phone's screen now, and how it sees them. */
export interface ScreenTexts {
  /** The UI elements' texts, or the lines read from the screen (OCR) on a server without them. */
  via: 'elements' | 'ocr';
  /** Each text and its box, top to bottom. */
  lines: TextRead[];
}

/** The most elements whose texts are read to find the one under a point: a screen's labels. */
const MAX_ELEMENTS = 40;

/**
 * One phone-layer phone per inspected phone, kept for the command's life: its last read of the screen is kept with
 * it, so a screen whose pixels have not changed is not read again (the overlay's reads, then a click's).
 */
const PHONES = new WeakMap<InspectedPhone, Phone>();

/**
 * The texts getByText sees on the screen now: the UI elements' texts where the server has them (at most 40, the
 * screen's labels), else every line read from the screen, as a failed text locator's evidence shows them.
 */
export async function textsOnScreen(client: Phone['client'], inspected: InspectedPhone, call: CallOptions): Promise<ScreenTexts> {
  const phone = phoneOf(client, inspected);
  if (await offersElements(phone)) {
    // An empty field or an icon answers the engine's "any text" with an empty one: nothing to read there.
    const texts = (await textsOf(phone, 'text', call)).filter((m) => m.text!.trim()).map((m) => ({ text: m.text!, box: m.box }));
    return { via: 'elements', lines: texts.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x) };
  }
  return { via: 'ocr', lines: linesRead(await readScreen(phone, undefined, call)) };
}

/**
 * The locator for what is under (x, y): the smallest element holding the point whose text (else description) names
 * it alone on the screen, exact where the loose text would name others too; on a server without the UI elements,
 * the line of words read there. None when nothing there has a text.
 */
export async function suggestLocator(client: Phone['client'], inspected: InspectedPhone, x: number, y: number, call: CallOptions): Promise<LocatorSuggestion | undefined> {
  const phone = phoneOf(client, inspected);
  if (await offersElements(phone)) {
    for (const by of ['text', 'description'] as const) {
      const found = await elementAt(phone, by, x, y, call);
      if (!found) continue;
      for (const exact of [false, true]) {
        const locator = by === 'text' ? phone.getByText(found.text, { exact }) : phone.getByDescription(found.text, { exact });
        if ((await locator.count()) === 1) return suggestion('elements', locator, found);
      }
    }
    return undefined;
  }
  const lines = await readScreen(phone, undefined, call);
  const line = lines.find((l) => l.words.some((w) => holds(w, x, y)));
  if (!line) return undefined;
  const text = line.words.map((w) => w.text).join(' ');
  for (const exact of [false, true]) {
    const locator = phone.getByText(text, { exact });
    const { matches } = await locator.look();
    if (matches.length === 1) return suggestion('ocr', locator, { text, box: matches[0]!.box });
  }
  return undefined;
}

/** The smallest element with a text (or description) that holds the point, and that text. */
async function elementAt(phone: Phone, by: 'text' | 'description', x: number, y: number, call: CallOptions): Promise<{ text: string; box: Rect } | undefined> {
  const { elements } = phone.client.extensions;
  const any = by === 'text' ? 'T:*' : 'D:*';
  const boxes = (await elements.bounds(phone.id, any, call)).slice(0, MAX_ELEMENTS);
  const under = boxes.map((box, i) => ({ box, i })).filter(({ box }) => holds(box, x, y));
  under.sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height);
  for (const { box, i } of under) {
    const text = (await elements.text(phone.id, `${any}&&IX:${i}`, call, by)).trim();
    if (text) return { text, box };
  }
  return undefined;
}

function phoneOf(client: Phone['client'], inspected: InspectedPhone): Phone {
  let phone = PHONES.get(inspected);
  if (!phone || phone.client !== client) PHONES.set(inspected, (phone = new Phone(client, inspected.id, { name: inspected.name, screen: inspected.screen })));
  return phone;
}

function suggestion(via: 'elements' | 'ocr', locator: Locator, found: { text: string; box: Rect }): LocatorSuggestion {
  const expression = `device.${String(locator)}`;
  return { via, locator: expression, text: found.text, box: found.box, lines: { tap: `await ${expression}.tap();`, visible: `await expect(${expression}).toBeVisible();` } };
}

function holds(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
}
