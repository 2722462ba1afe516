import type { Query } from './query.js';
import { BODY, failure } from './respond.js';
import type { SimulatorState } from './state.js';

const STATES = new Set(['active', 'inactive', 'restart']);

/**
 * An app's state (`POST devices/<id>/apps/<package>` with `state=active|inactive|restart`, from the query, a
 * form body or a JSON body): starts, closes or restarts it, answering `{"status": true, "value": "make it
 * <state>"}` (the reference example's words for `inactive`). A started app comes to the front, joins the
 * phone's installed packages if it was not among them, and shows its launch screen (the scenario's `launch`;
 * a restart shows it as the scenario has it); the app in front closed leaves the home screen.
 */
export function appState(state: SimulatorState, device: string, app: string, params: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  const wanted = params.state ?? '';
  if (!STATES.has(wanted)) return failure(`state ${JSON.stringify(wanted)} is not active, inactive or restart`);
  // Recording it starts or closes it (act-effects.ts): the front, the installed list, the screen shown.
  state.record({ device: phone.id, via: 'apps', kind: 'app', app, state: wanted as 'active' | 'inactive' | 'restart', at: state.now() });
  return JSON.stringify({ status: true, value: `make it ${wanted}` });
}

/**
 * A phone's apps (`GET devices/<id>/apps`): `q=foreground_app` answers the package in front as `value` (the
 * launcher on the home screen), `q=installed_apk_list` the installed packages as a list.
 */
export function appList(state: SimulatorState, device: string, params: Query): string {
  const phone = state.find(device);
  if (!phone?.online) return BODY.deviceNotFound;
  if (params.q === 'foreground_app') return JSON.stringify({ status: true, value: phone.foreground });
  if (params.q === 'installed_apk_list') return JSON.stringify({ status: true, value: phone.installed });
  return failure(`q ${JSON.stringify(params.q ?? null)} is not foreground_app (the app in front) or installed_apk_list (the installed packages)`);
}
