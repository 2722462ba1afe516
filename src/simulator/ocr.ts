import type { Phone } from './phone.js';
import type { Query } from './query.js';
import { failure } from './respond.js';
import type { Area, Screen } from './screen.js';
import type { SimulatorState } from './state.js';

const RECT = /^\[\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*\]$/;

/**
 * Text read from the screen: `screen/texts` with `rect=[x1,y1,x2,y2]` (and the vendor's `lang` and `mode`),
 * the server's OCR. The simulator knows what it drew, so it reads no pixels: it answers the drawn texts whose
 * ink lies wholly inside the rectangle (x2 and y2 outside it, as a capture's), in reading order,
 * `{"status": true, "value": "<text>\n"}`: with `mode=singleline` (or `singleword`, `singlechar`) on one line,
 * the texts joined by spaces; in every other mode (or none) one line per line of text. Nothing there (a PNG screen, whose
 * text the simulator does not know): the empty string. `lang` is taken and not checked: the simulator reads its
 * own drawing in any language. With OCR not offered (the `ocr: false` option), the failure envelope says so.
 * @param params the request's parameters (`rect`, `lang`, `mode`)
 */
export function readScreenText(state: SimulatorState, phone: Phone, params: Query, offered: boolean): string {
  if (!offered) return failure(`OCR (screen/texts with rect=${(params.rect ?? '').slice(0, 60)}) is not offered by this simulator on ${phone.id}: it types text and reads the clipboard only`);
  const screen = state.screenOf(phone);
  const m = RECT.exec(params.rect ?? '');
  if (!m) return failure(`bad rect ${JSON.stringify((params.rect ?? '').slice(0, 60))}: write [topLeftX,topLeftY,bottomRightX,bottomRightY]`);
  const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
  if (x2 <= x1 || y2 <= y1 || x2 > screen.width || y2 > screen.height) return failure(`bad rect ${params.rect}: not inside the screen (${screen.width}×${screen.height})`);
  const lines = textLines(screen, { x1, y1, x2, y2 });
  const oneLine = params.mode !== undefined && ONE_LINE.has(params.mode);
  const value = lines.length === 0 ? '' : `${oneLine ? lines.map((l) => l.join(' ')).join(' ') : lines.map((l) => l.join(' ')).join('\n')}\n`;
  return JSON.stringify({ status: true, value });
}

/** The modes whose answer is one line. */
const ONE_LINE = new Set(['singleline', 'singleword', 'singlechar']);

/**
 * The texts of a screen whose ink lies inside an area, in reading order: lines from top to bottom (a text whose
 * ink's middle is within another's height is on its line), each line's texts from left to right.
 */
export function textLines(screen: Screen, area: Area): string[][] {
  const inside = screen
    .texts()
    .flatMap((sprite) => {
      const ink = sprite.ink;
      return ink && ink.x1 >= area.x1 && ink.y1 >= area.y1 && ink.x2 <= area.x2 && ink.y2 <= area.y2 ? [{ text: sprite.spec.text.trim(), ink }] : [];
    })
    .filter((t) => t.text !== '')
    .sort((a, b) => a.ink.y1 - b.ink.y1 || a.ink.x1 - b.ink.x1);
  const lines: { top: number; bottom: number; texts: typeof inside }[] = [];
  for (const t of inside) {
    const middle = (t.ink.y1 + t.ink.y2) / 2;
    const line = lines.find((l) => middle >= l.top && middle < l.bottom);
    if (line) line.texts.push(t);
    else lines.push({ top: t.ink.y1, bottom: t.ink.y2, texts: [t] });
  }
  return lines.map((l) => l.texts.sort((a, b) => a.ink.x1 - b.ink.x1).map((t) => t.text));
}
