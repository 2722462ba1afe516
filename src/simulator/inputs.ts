import { offScreen, parsePath, performDirection, performPath } from './gesture.js';
import type { Phone } from './phone.js';
import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

/** The key codes public clients send (`code=`), recorded as sent. */
export const INPUT_KEYS: readonly string[] = ['home', 'back', 'menu', 'space', 'backspace', 'enter', 'up', 'down', 'left', 'right', 'power', 'recentapp'];

const KEYS = new Set(INPUT_KEYS);
const DIRECTIONS = new Set(['up', 'down', 'left', 'right']);
const TOUCH_STATES = new Set(['press', 'down', 'up', 'move']);
const KEY_STATES = new Set(['press', 'down', 'up']);
const OK = '{"status":true}';
/** A coordinate as a client writes it: a whole number of pixels. */
const PIXEL = /^\d{1,6}$/;

/**
 * `POST devices/<id>/screen/inputs`: one act per request, chosen by the argument present. `x` and `y` touch
 * the screen, with `state` = `press` (down and up: a tap, the default), `down` (the finger stays down),
 * `move` (it moves there) or `up` (it is lifted there); `code` presses a key (`home`, `back`, …, with
 * `state` press, down or up); `coord` acts a path out (`[[x,y,ms],…]`, the ms optional: the first point
 * presses, the middle ones move, the last releases; every point the same is a long press held for the sum
 * of the ms); `direction` swipes up, down, left or right. Answers `{"status": true}`; each act is recorded
 * `via: 'inputs'` with its arguments.
 * @param params the request's parameters: query, then form or JSON body
 */
export function inputs(state: SimulatorState, device: string, params: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const given = (['coord', 'direction', 'code', 'x'] as const).filter((k) => (k === 'x' ? params.x !== undefined || params.y !== undefined : params[k] !== undefined));
  if (given.length !== 1) {
    const got = given.length === 0 ? 'none of them' : `${given.map((k) => (k === 'x' ? 'x/y' : k)).join(' and ')} together`;
    return failure(`screen/inputs takes one act: x and y (a touch, with state press, down, move or up), code (a key), coord (a path) or direction (a swipe); got ${got}`);
  }
  switch (given[0]) {
    case 'coord': {
      const points = parsePath(params.coord, phone.size, { name: 'coord', ms: 'optional', fractions: false });
      if (typeof points === 'string') return failure(points);
      performPath(state, phone, points, 'inputs');
      return OK;
    }
    case 'direction': {
      const direction = params.direction!;
      if (!DIRECTIONS.has(direction)) return failure(`direction ${JSON.stringify(direction)} is not up, down, left or right`);
      performDirection(state, phone, direction as 'up' | 'down' | 'left' | 'right');
      return OK;
    }
    case 'code':
      return key(state, phone, params.code!, params.state);
    default:
      return touch(state, phone, params);
  }
}

function key(state: SimulatorState, phone: Phone, code: string, given: string | undefined): string {
  if (!KEYS.has(code)) return failure(`code ${JSON.stringify(code)} is not a key this simulator knows: ${INPUT_KEYS.join(', ')}`);
  const keyState = given ?? 'press';
  if (!KEY_STATES.has(keyState)) return failure(`state ${JSON.stringify(keyState)} of a key is not press, down or up`);
  state.record({ device: phone.id, via: 'inputs', kind: 'key', key: code, state: keyState as 'press' | 'down' | 'up', at: state.now() });
  return OK;
}

/** A touch: a tap (`press`), or the finger put down, moved or lifted; `move` without a finger down moves nothing. */
function touch(state: SimulatorState, phone: Phone, params: Query): string {
  const touchState = params.state ?? 'press';
  if (!TOUCH_STATES.has(touchState)) return failure(`state ${JSON.stringify(touchState)} of a touch is not press, down, move or up`);
  const { x: rawX, y: rawY } = params;
  if (rawX === undefined || rawY === undefined || !PIXEL.test(rawX) || !PIXEL.test(rawY)) {
    return failure(`a touch takes x and y, whole pixels on the screen (${phone.size.width}×${phone.size.height}); got x ${JSON.stringify(rawX ?? null)}, y ${JSON.stringify(rawY ?? null)}`);
  }
  const [x, y] = [Number(rawX), Number(rawY)];
  if (x >= phone.size.width || y >= phone.size.height) return failure(offScreen(x, y, phone.size));
  const at = state.now();
  const base = { device: phone.id, via: 'inputs' as const, x, y, at };
  if (touchState === 'press') {
    phone.finger = undefined;
    state.record({ ...base, kind: 'tap' });
  } else if (touchState === 'down') {
    phone.finger = { x, y };
    state.record({ ...base, kind: 'touch-down' });
  } else if (touchState === 'move') {
    if (phone.finger) phone.finger = { x, y };
    state.record({ ...base, kind: 'touch-move' });
  } else {
    phone.finger = undefined;
    state.record({ ...base, kind: 'touch-up' });
  }
  return OK;
}
