// The forms in which a server answers a route it lacks, for the fake server (vendor-like bodies) and the
// simulator (`capabilities: 'seed'` with `missingRoutes`): the tests of "not offered" run over all four.
import { startSimulator, type MissingRouteForm, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';
import type { AnswerReply, FakeReply, FakeServer, Op } from './fake-server.js';

/** One form: its name in test titles, the fake server's answer, the simulator's option. */
export interface MissingForm {
  name: string;
  reply: FakeReply;
  sim: MissingRouteForm;
}

const html = (status: number, title: string): AnswerReply => ({ status, body: `<html><body><h1>${status} ${title}</h1></body></html>`, headers: { 'content-type': 'text/html' } });

/**
 * The four forms. The envelope's message says "no such route": by its words alone a client would read it as
 * a phone that is not there, which is what the contrast with an interface read must not do.
 */
export const MISSING_FORMS: MissingForm[] = [
  { name: 'HTTP 404', reply: html(404, 'Not Found'), sim: 404 },
  { name: 'HTTP 405', reply: { ...html(405, 'Method Not Allowed'), headers: { 'content-type': 'text/html', allow: 'GET' } }, sim: 405 },
  { name: 'HTTP 501', reply: { status: 501, json: { status: null, value: 'not implemented' } }, sim: 501 },
  { name: 'the failure envelope', reply: { json: { status: null, value: 'no such route' } }, sim: 'envelope' },
];

/** The fake server's routes beyond the interface. */
export const VENDOR_OPS: Op[] = ['devices', 'deviceInfo', 'capture', 'inputs', 'texts', 'script', 'app', 'apps', 'aai'];

/** Makes every route of the fake server beyond the interface answer `reply` (the interface still answers). */
export function lacking(server: FakeServer, reply: FakeReply): void {
  for (const op of VENDOR_OPS) server.handle(op, reply);
}

/** The one line a call to a route the server lacks fails with. */
export function notOffered(what: string, url: string): string {
  return `this server does not offer ${what} (a route beyond the device-control interface): ${url}`;
}

/** The one line an act fails with on a server that has neither of its routes: taps, keys and gestures, or text. */
export function noActRoute(kind: 'taps' | 'text', url: string): string {
  const [what, route] = kind === 'text' ? ['typing text', 'screen/texts'] : ['taps, gestures and keys', 'screen/inputs'];
  return `this server does not offer ${what}: neither ${route} nor the JS bridge answers (routes beyond the device-control interface): ${url}`;
}

/**
 * A fixture that starts simulators of the interface only (`capabilities: 'seed'`) whose vendor routes answer
 * in a given form, on port 0, each closed when the test ends.
 */
export async function seedSimFixture({}: object, use: (start: (form: MissingRouteForm, options?: SimulatorOptions) => Promise<SimulatorHandle>) => Promise<void>): Promise<void> {
  const sims: SimulatorHandle[] = [];
  await use(async (form, options = {}) => {
    const sim = await startSimulator({ port: 0, ...options, capabilities: 'seed', missingRoutes: form });
    sims.push(sim);
    return sim;
  });
  await Promise.all(sims.map((s) => s.close()));
}
