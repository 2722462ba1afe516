import { parseDeviceId, type DeviceId } from '../core/device-id.js';
import { ServiceError, UsageError } from '../core/errors.js';
import type { Routes } from '../core/routes.js';
import { actName, actPoints, bridgeQuery, checkAct, checkPackage, inputsForm, KEY_NAMES, type Act } from './act-forms.js';
import type { CallOptions, Operation } from './caller.js';
import type { Extensions, Guard } from './extensions.js';

/** The routes an act may go through: `screen/inputs`, `screen/texts`, or the JS bridge. */
export type ActRoute = 'inputs' | 'texts' | 'script';

/** What an app is asked to become: started (in front), closed, or closed and started again. */
export type AppState = 'active' | 'inactive' | 'restart';

/** A form body, the way the vendor's public clients send a POST's token and arguments. */
const FORM = 'application/x-www-form-urlencoded';
/** Sent as the JS bridge's body: nothing (its arguments are in the query). */
const NO_BODY = { method: 'POST' as const, body: () => undefined };
/** How messages name the routes an act can take. */
const ROUTE_NAMES: Record<ActRoute, string> = { inputs: 'screen/inputs', texts: 'screen/texts', script: 'the JS bridge' };

/**
 * A phone's acts: taps, keys, gestures and text through `screen/inputs` and `screen/texts`, what the vendor's
 * public clients use, or else the JS bridge; apps started and closed. Each route is a capability of
 * {@link Extensions}, probed by the first act that needs it; an act is never sent twice once the server may
 * have done it.
 */
export class Acts {
  #ext: Extensions;
  #routes: Routes;
  #url: string;

  /** @param url the server's base URL, for messages */
  constructor(extensions: Extensions, routes: Routes, url: string) {
    this.#ext = extensions;
    this.#routes = routes;
    this.#url = url;
  }

  /**
   * An act: through `screen/inputs` (text through `screen/texts`), or else the JS bridge, decided by the first act
   * as any capability is. A lacking route means the server did not act, so the act goes to the other. A key the
   * inputs route has no name for goes through the bridge only. Points off the phone's known screen are refused
   * before anything is sent.
   * @returns the route that took it
   */
  async act(device: string, act: Act, options: CallOptions): Promise<ActRoute> {
    const id = parseDeviceId(device);
    checkAct(act);
    const points = actPoints(act);
    const screens = this.#ext.screens;
    screens.checkPoints(id, points);
    const routes: ActRoute[] = act.kind === 'text' ? ['texts', 'script'] : act.kind === 'key' && act.key.name === undefined ? ['script'] : ['inputs', 'script'];
    for (const route of routes) {
      if (this.#ext.lacks(route)) continue;
      // Text: the clipboard read shows screen/texts is there, so its refusal of the text is the server's word.
      const guard: Guard = { check: () => screens.checkPoints(id, points), ...(route === 'texts' ? { probe: this.#ext.clipboardOperation(id) } : {}) };
      try {
        await this.#ext.call(route, options, this.#operation(route, id, act), guard);
        return route;
      } catch (error) {
        if (!(error instanceof ServiceError && error.reason === 'not-offered')) throw error;
      }
    }
    throw this.#noRoute(act, routes);
  }

  /** See {@link DeviceClient.setAppState}. */
  async setAppState(device: string, pkg: string, state: AppState, options: CallOptions): Promise<void> {
    const id = parseDeviceId(device);
    checkPackage(pkg);
    if (state !== 'active' && state !== 'inactive' && state !== 'restart') throw new UsageError(`invalid app state ${JSON.stringify(state)}: expected active, inactive or restart`);
    const route = this.#routes.app(id, pkg);
    const operation = state === 'inactive' ? 'close app' : 'launch';
    // A package the phone does not have may be refused in the envelope: the foreground read tells that from a missing route.
    await this.#ext.call('appState', options, { operation, path: (t) => `${route}?token=${t}&state=${state}`, device: id, idempotent: false, request: NO_BODY }, { probe: this.#ext.foregroundOperation(id) });
  }

  /** An act in its route's form: a form body with the token for `screen/inputs` and `screen/texts`, the query for the bridge. */
  #operation(route: ActRoute, id: DeviceId, act: Act): Operation {
    const operation = actName(act);
    if (route === 'script') return { operation, path: (t) => `${this.#routes.script(id)}?token=${t}&${bridgeQuery(act)}`, device: id, idempotent: false, request: NO_BODY };
    const path = route === 'texts' ? this.#routes.texts(id) : this.#routes.inputs(id);
    return { operation, path: () => path, device: id, idempotent: false, request: { method: 'POST', headers: { 'content-type': FORM }, body: (t) => inputsForm(act, t) } };
  }

  /** The one line for an act no route of the server takes: both routes named, or the bridge alone for a key only it has. */
  #noRoute(act: Act, routes: ActRoute[]): ServiceError {
    const operation = actName(act);
    if (routes.length === 1 && act.kind === 'key') {
      return new ServiceError(operation, `this server does not offer the JS bridge, the only route that takes ${act.key.constant} (a route beyond the device-control interface): ${this.#url}`, {
        reason: 'not-offered',
        hint: `press one of ${KEY_NAMES.join(', ')}, which go through screen/inputs`,
      });
    }
    const what = act.kind === 'text' ? 'typing text' : 'taps, gestures and keys';
    return new ServiceError(operation, `this server does not offer ${what}: neither ${ROUTE_NAMES[routes[0]!]} nor ${ROUTE_NAMES[routes[1]!]} answers (routes beyond the device-control interface): ${this.#url}`, {
      reason: 'not-offered',
    });
  }
}
