import { elementInfo, type ElementInfo } from './elements.js';
import type { Phone } from './phone.js';
import type { SimulatorState } from './state.js';

/** What a phone shows now, as the admin API and the handle tell it: which screen, its elements and its texts. */
export interface ScreenInfo {
  /** The named screen shown (an app's), or null: the home screen. */
  screen: string | null;
  /** The screen's UI elements in the order drawn, their texts as they are now (what `sendAai` searches). */
  elements: ElementInfo[];
  /** The texts that show, in the order drawn (the scenario's, then the elements'), each with the box its ink covers. */
  texts: TextInfo[];
}

/** A text drawn on the screen, and the box its ink covers: what the simulator's OCR reads, and where. */
export interface TextInfo {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the phone shows now (drawing its texts if they were not yet: their boxes are where their ink is). */
export function screenInfo(state: SimulatorState, phone: Phone): ScreenInfo {
  const screen = state.screenOf(phone);
  const texts = screen.texts().flatMap((sprite) => {
    const ink = sprite.ink;
    return ink ? [{ text: sprite.spec.text, x: ink.x1, y: ink.y1, width: ink.x2 - ink.x1, height: ink.y2 - ink.y1 }] : [];
  });
  return { screen: phone.shown ?? null, elements: screen.elements.map(elementInfo), texts };
}
