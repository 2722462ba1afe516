import { readScreenText } from './ocr.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

const OK = '{"status":true}';

/**
 * `devices/<id>/screen/texts`, GET or POST, dispatched on the parameters present, as the vendor's server
 * does: `rect` reads text on the screen (the OCR form, {@link readScreenText}); `type=clipboard_text` answers
 * the phone's clipboard as `value`; `text` types it (recorded `via: 'texts'`; into the field a tap focused, if
 * any, drawn there) and answers `{"status": true}`.
 * @param params the request's parameters: query, then form or JSON body
 * @param ocr whether the OCR form is offered
 */
export function texts(state: SimulatorState, device: string, params: Query, ocr: boolean): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  if (params.rect !== undefined) return readScreenText(state, phone, params, ocr);
  if (params.type !== undefined) {
    if (params.type !== 'clipboard_text') return failure(`type ${JSON.stringify(params.type)} is not clipboard_text (the clipboard's text)`);
    return JSON.stringify({ status: true, value: phone.clipboard });
  }
  if (params.text !== undefined) {
    state.record({ device: phone.id, via: 'texts', kind: 'text', text: params.text, at: state.now() });
    return OK;
  }
  return failure('screen/texts takes text (to type it), type=clipboard_text (to read the clipboard) or rect (to read text on the screen)');
}
