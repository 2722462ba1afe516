import type { Act } from './act-log.js';
import { elementAt } from './elements.js';
import type { Phone } from './phone.js';
import type { Screen } from './screen.js';

/**
 * What an act does to a phone beyond being recorded, whichever route it came through:
 * - a tap on an element (the topmost clickable or editable one under the point) focuses it when it is editable,
 *   and shows the screen it `opens`;
 * - text typed goes into the focused field, after its text (AAI's `setText` sets the text itself: not here);
 * - the home key shows the home screen, the back key the screen before (from an app's first screen, home);
 *   a key acts when pressed or released, not when only put down;
 * - an app started comes to the front and shows its launch screen (a restart: as the scenario has it), or the
 *   home screen if the scenario gives it none; the app in front closed leaves the home screen.
 * Touches (down, move, up), swipes and long presses only do what they did before: a swipe scrolls.
 * @param screen the screen the phone shows now
 */
export function applyAct(phone: Phone, screen: Screen, act: Act): void {
  switch (act.kind) {
    case 'tap': {
      const element = elementAt(screen.elements, act.x, act.y);
      if (!element) return;
      if (element.editable) phone.focus = element;
      if (element.opens !== undefined) phone.open(element.opens);
      return;
    }
    case 'text': {
      const focus = phone.focus;
      if (act.via !== 'aai' && focus && screen.elements.includes(focus)) screen.setElementText(focus, focus.text + act.text);
      return;
    }
    case 'key': {
      if (act.state === 'down') return;
      const key = act.key.replace(/^KEY_/, '').toLowerCase();
      if (key === 'home') phone.home();
      else if (key === 'back') phone.back();
      return;
    }
    case 'app':
      if (act.state === 'inactive') {
        if (phone.app === act.app) phone.home();
        return;
      }
      phone.app = act.app;
      if (!phone.installed.includes(act.app)) phone.installed.push(act.app);
      phone.launch(act.app, act.state === 'restart');
      return;
    default:
      return;
  }
}
