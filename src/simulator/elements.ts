import type { FontWeight } from './font.js';
import type { Rect } from './screen.js';
import { TextSprite, type TextAlign } from './text-sprite.js';

/** An element's bounds on the screen, as Android writes them: `[left, top, right, bottom]`, right and bottom outside. */
export type Bounds = readonly [number, number, number, number];

/** A UI element of a drawn screen, checked: what the phone's accessibility tree says of it, and how it is drawn. */
export interface ElementSpec {
  /** What it shows (a label, a button's caption, a field's content); '' for none. */
  text: string;
  /** Its content description (an icon's spoken name); '' for none. */
  description: string;
  /** Its resource id, e.g. `com.example.app:id/login`; '' for none. */
  id: string;
  /** Its class, e.g. `android.widget.Button`. */
  className: string;
  bounds: Bounds;
  clickable: boolean;
  editable: boolean;
  /** The rectangle under it, 0xrrggbb; undefined: none (what is behind shows). */
  fill: number | undefined;
  /** How its text is drawn. */
  textColor: number;
  textSize: number;
  weight: FontWeight;
  align: TextAlign;
  /** The named screen of the phone that a tap on it shows; undefined: a tap changes nothing. */
  opens: string | undefined;
}

/** An element on a screen the phone shows: its spec, with its text as it is now and the text drawn for it. */
export interface Element extends ElementSpec {
  sprite: TextSprite | undefined;
}

/** The text of an element drawn as a box (a fill) is set in from its sides by this share of its size, as Android pads a field or a button. */
const PADDING = 0.4;

/** The rectangle drawn under an element, if it has a fill. */
export function elementRect(spec: ElementSpec): Rect | undefined {
  if (spec.fill === undefined) return undefined;
  const [left, top, right, bottom] = spec.bounds;
  return { x: left, y: top, width: right - left, height: bottom - top, color: spec.fill };
}

/**
 * The text drawn for an element: its text, aligned in its bounds (less the padding, for an element with a fill)
 * and centred from top to bottom.
 */
export function elementSprite(spec: ElementSpec, text: string): TextSprite | undefined {
  if (text === '') return undefined;
  const [left, top, right, bottom] = spec.bounds;
  const pad = spec.fill === undefined ? 0 : Math.round(spec.textSize * PADDING);
  return new TextSprite({ text, size: spec.textSize, color: spec.textColor, weight: spec.weight, align: spec.align, x: left + pad, y: top, width: Math.max(0, right - left - 2 * pad), height: bottom - top });
}

/** A live element of a spec, its text drawn. */
export function liveElement(spec: ElementSpec): Element {
  return { ...spec, sprite: elementSprite(spec, spec.text) };
}

/** The element as the admin API and the handle show it: the tree's fields, without how it is drawn. */
export interface ElementInfo {
  text: string;
  description: string;
  id: string;
  class: string;
  bounds: [number, number, number, number];
  clickable: boolean;
  editable: boolean;
}

export function elementInfo(e: Element): ElementInfo {
  return { text: e.text, description: e.description, id: e.id, class: e.className, bounds: [...e.bounds], clickable: e.clickable, editable: e.editable };
}

/**
 * The element a tap at (x, y) lands on: the last one drawn (the topmost) that is clickable or editable and
 * whose bounds hold the point; undefined when the tap lands on none.
 */
export function elementAt(elements: readonly Element[], x: number, y: number): Element | undefined {
  for (let i = elements.length - 1; i >= 0; i--) {
    const e = elements[i]!;
    const [left, top, right, bottom] = e.bounds;
    if ((e.clickable || e.editable) && x >= left && y >= top && x < right && y < bottom) return e;
  }
  return undefined;
}
