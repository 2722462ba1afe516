// The review page's API: the run's failures, their images and heat maps, and the decisions. Each answer of a
// decision carries every failure again, as what Accept would write changes with each file written.
import { isPhonewrightError } from '../../core/errors.js';
import { WriteFailed } from '../../report/run-files.js';
import { checkRequest, fields, text, type BodySchema, type RouteSchema } from '../bodies.js';
import type { ApiAnswer, ApiRequest } from '../server.js';
import { SCOPES, type ImageKind, type Review, type Scope } from './review.js';

const KINDS: readonly ImageKind[] = ['expected', 'actual', 'diff', 'screen', 'heat'];

type Route = (review: Review, req: ApiRequest) => Promise<ApiAnswer>;

/** A failure's id, as the review numbers them (review.ts): `f0`, `f1`, … */
const ID = text(8, 'a failure\'s id like "f3"', '^f(0|[1-9][0-9]*)$');
const KIND: BodySchema = { enum: KINDS, errorMessage: `one of ${KINDS.join(', ')}` };
const SCOPE: BodySchema = { enum: SCOPES, errorMessage: `one of ${SCOPES.join(', ')}` };

/** What each route takes: its body or its query, checked before it runs (../bodies.ts). */
const REQUESTS: Record<string, RouteSchema> = {
  'GET review': {},
  'GET image': { query: fields({ id: ID, kind: KIND }, ['id', 'kind'], 'a failure and an image') },
  'GET heat': { query: fields({ id: ID }, ['id'], 'a failure') },
  'GET film': { query: fields({ id: ID }, ['id'], 'a failure') },
  'POST accept': { body: fields({ id: ID, scope: SCOPE }, ['id'], 'a failure and a scope') },
  'POST reject': { body: fields({ id: ID }, ['id'], 'a failure') },
};

const ROUTES: Record<string, Route> = {
  'GET review': async (review) => ok({ run: review.runJson(), items: review.items(liveUrl, liveFilmUrl), live: true }),
  'GET image': async (review, req) => {
    const kind = req.query.get('kind') as ImageKind;
    const png = review.image(req.query.get('id')!, kind);
    return png ? { status: 200, png } : { status: 404, json: { error: `this failure has no ${kind} image` } };
  },
  'GET film': async (review, req) => {
    const webm = await review.film(req.query.get('id')!);
    return webm ? { status: 200, body: webm, type: 'video/webm' } : { status: 404, json: { error: 'this failure has no film in the run\'s results' } };
  },
  'GET heat': async (review, req) => {
    const heat = review.heat(req.query.get('id')!);
    return heat ? ok({ changed: heat.changed, largest: heat.largest }) : { status: 404, json: { error: 'no heat map: the check attached no expected and actual images of one size' } };
  },
  'POST accept': async (review, req) => {
    const result = await review.accept(req.body.id as string, (req.body.scope ?? 'one') as Scope);
    return ok({ result, items: review.items(liveUrl, liveFilmUrl) });
  },
  'POST reject': async (review, req) => {
    const result = await review.reject(req.body.id as string);
    return ok({ result, items: review.items(liveUrl, liveFilmUrl) });
  },
};

/**
 * Answers one request of the API, its body or query checked first against its route's schema: a wrong input or
 * a decision that cannot be made is 400, a file that could not be written 500, each with one line that says
 * what went wrong and what to do.
 * @param clean scrubs a message before the page sees it
 */
export async function answerReview(review: Review, req: ApiRequest, clean: (text: string) => string): Promise<ApiAnswer> {
  const route = ROUTES[`${req.method} ${req.route}`];
  if (!route) return { status: 404, json: { error: `no such API route: ${req.method} /api/${req.route.slice(0, 60)}` } };
  try {
    await checkRequest(REQUESTS, req);
    return await route(review, req);
  } catch (error) {
    if (!isPhonewrightError(error)) return { status: 500, json: { error: clean(`unexpected error: ${(error as Error)?.message ?? String(error)}`) } };
    return { status: error instanceof WriteFailed ? 500 : 400, json: { error: clean(error.message), reason: error instanceof WriteFailed ? 'write' : error.code } };
  }
}

/** Where the live page finds an image: this API. */
function liveUrl(id: string, kind: ImageKind): string {
  return `api/image?id=${id}&kind=${kind}`;
}

/** Where the live page finds a film: this API, which reads it from the run's results. */
function liveFilmUrl(id: string): string {
  return `api/film?id=${id}`;
}

function ok(json: unknown): ApiAnswer {
  return { status: 200, json };
}
