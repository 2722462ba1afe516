import type { Phone } from './phone.js';
import type { Query } from './query.js';
import { failure } from './respond.js';
import type { SimulatorState } from './state.js';

/**
 * Text read from the screen: `screen/texts` with `rect=[x1,y1,x2,y2]` (and the vendor's `lang` and `mode`),
 * the server's OCR. This simulator does not offer it yet: it answers the failure envelope saying so. Reading
 * the drawn text of a phone's screen belongs here, and nowhere else in the routing.
 * @param params the request's parameters (`rect`, `lang`, `mode`)
 */
export function readScreenText(_state: SimulatorState, phone: Phone, params: Query): string {
  return failure(`OCR (screen/texts with rect=${(params.rect ?? '').slice(0, 60)}) is not offered by this simulator on ${phone.id}: it types text and reads the clipboard only`);
}
