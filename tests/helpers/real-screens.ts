/**
 * Real apps' screens, with the labels a person read on them: the corpus text on a phone is judged on. The
 * screenshots are other projects' files under their own licences, so they are not in this repository: the folder
 * `PHONEWRIGHT_REALSCREENS` names holds them and their `labels.json` (`.ci/run` sets it; several folders are joined
 * as PATH is). Each screen is served as
 * a phone's by the simulator, without UI elements, so `getByText` reads its pixels.
 *
 * labels.json, one key per screen file: `find` `[text, x, y, exact?]` (a text and the centre of where it is),
 * `count` `[text, n]` (matched exactly, it is there n times), `absent` (texts nowhere on the screen). A find counts
 * when the box `bounds()` gives has its centre within {@link LINE_SLACK} px of y and spans x (± {@link SPAN_SLACK}).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Phone } from '../../src/phone/index.js';
import type { ScenarioInput } from '../../src/simulator/index.js';

/** The variable that names the corpus's folder. */
export const REALSCREENS_ENV = 'PHONEWRIGHT_REALSCREENS';
/** How far (px) a found box's centre may be from the label's line. */
const LINE_SLACK = 30;
/** How far (px) past a found box's ends the label's x may be. */
const SPAN_SLACK = 60;
/** How long a find waits: the first look of a screen loads the engine and reads it; a found text answers at once. */
const FIND_TIMEOUT = 15_000;

export interface ScreenLabels {
  find: [string, number, number, boolean?][];
  count: [string, number][];
  absent: string[];
}

/** One screen of the corpus: its file, the phone that shows it, and its labels. */
export interface RealScreen {
  file: string;
  /** The screenshot's absolute path. */
  path: string;
  id: string;
  name: string;
  width: number;
  height: number;
  labels: ScreenLabels;
}

/** How one screen's labels went: what was found at its place, and every miss as a line. */
export interface ScreenScore {
  found: number;
  finds: number;
  countsRight: number;
  counts: number;
  falseFinds: number;
  misses: string[];
}

/**
 * The corpus in the folders {@link REALSCREENS_ENV} names (one, or several joined as PATH is: a team's own screens
 * beside the shared ones), or the one line that says why there is none (the variable unset, a folder without its
 * labels.json).
 */
export function realScreens(): { screens: RealScreen[] } | { skip: string } {
  const value = process.env[REALSCREENS_ENV];
  if (!value) return { skip: `${REALSCREENS_ENV} is not set: the real screens' tests need the folder of screenshots and labels.json (.ci/run sets it to the corpus kept beside the clone)` };
  const screens: RealScreen[] = [];
  for (const dir of value.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'labels.json');
    if (!existsSync(file)) return { skip: `${REALSCREENS_ENV} names ${dir}, which has no labels.json: name folders of real screens' screenshots and their labels` };
    const labels = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ScreenLabels>;
    for (const [name, l] of Object.entries(labels)) {
      const at = path.resolve(dir, name);
      const { width, height } = PNG.sync.read(readFileSync(at), { checkCRC: false });
      const id = `device@${900 + screens.length}`;
      screens.push({ file: name, path: at, id, name: name.replace(/\.png$/, ''), width, height, labels: { find: l.find ?? [], count: l.count ?? [], absent: l.absent ?? [] } });
    }
  }
  return { screens };
}

/** A simulator scenario whose phones each show one screen of the corpus as their home screen. */
export function realScreensScenario(screens: readonly RealScreen[]): ScenarioInput {
  return { phones: screens.map((s) => ({ id: s.id, name: s.name, screen: { png: s.path } })) };
}

/**
 * Every label of a screen through the phone's text locators, as a spec would: each find's `bounds()` at its
 * place, each count's `count()` exactly, and each absent text's `count()` as a substring, zero.
 */
export async function scoreScreen(phone: Phone, screen: RealScreen): Promise<ScreenScore> {
  const score: ScreenScore = { found: 0, finds: screen.labels.find.length, countsRight: 0, counts: screen.labels.count.length, falseFinds: 0, misses: [] };
  for (const [text, x, y, exact] of screen.labels.find) {
    const box = await phone
      .getByText(text, { exact: exact === true })
      .bounds({ timeout: FIND_TIMEOUT })
      .catch((e: Error) => e.message.split('\n')[0]!);
    if (typeof box !== 'string' && Math.abs(box.y + box.height / 2 - y) <= LINE_SLACK && box.x - SPAN_SLACK <= x && x <= box.x + box.width + SPAN_SLACK) score.found++;
    else score.misses.push(`${screen.file}: "${text}" at (${x}, ${y}): ${typeof box === 'string' ? box : `found at ${JSON.stringify(box)}`}`);
  }
  for (const [text, n] of screen.labels.count) {
    const count = await phone.getByText(text, { exact: true }).count();
    if (count === n) score.countsRight++;
    else score.misses.push(`${screen.file}: "${text}" counted ${count}, not ${n}`);
  }
  for (const text of screen.labels.absent) {
    const count = await phone.getByText(text).count();
    if (!count) continue;
    score.falseFinds++;
    score.misses.push(`${screen.file}: absent "${text}" found ${count} time(s)`);
  }
  return score;
}
