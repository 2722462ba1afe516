// The review page's API: the run's failures, their images and heat maps, and the decisions. Each answer of a
// decision carries every failure again, as what Accept would write changes with each file written.
import { isPhonewrightError } from '../../core/errors.js';
import { WriteFailed } from '../../report/run-files.js';
import type { ApiAnswer, ApiRequest } from '../server.js';
import { SCOPES, type ImageKind, type Review, type Scope } from './review.js';

const KINDS: readonly ImageKind[] = ['expected', 'actual', 'diff', 'screen', 'heat'];

type Route = (review: Review, req: ApiRequest) => Promise<ApiAnswer>;

const ROUTES: Record<string, Route> = {
  'GET review': async (review) => ok({ run: review.runJson(), items: review.items(liveUrl), live: true }),
  'GET image': async (review, req) => {
    const kind = req.query.get('kind') as ImageKind;
    if (!KINDS.includes(kind)) return { status: 400, json: { error: `invalid kind ${JSON.stringify(kind)}: one of ${KINDS.join(', ')}` } };
    const png = review.image(String(req.query.get('id')), kind);
    return png ? { status: 200, png } : { status: 404, json: { error: `this failure has no ${kind} image` } };
  },
  'GET heat': async (review, req) => {
    const heat = review.heat(String(req.query.get('id')));
    return heat ? ok({ changed: heat.changed, largest: heat.largest }) : { status: 404, json: { error: 'no heat map: the check attached no expected and actual images of one size' } };
  },
  'POST accept': async (review, req) => {
    const scope = (req.body.scope ?? 'one') as Scope;
    if (!SCOPES.includes(scope)) return { status: 400, json: { error: `invalid scope ${JSON.stringify(scope)}: one of ${SCOPES.join(', ')}` } };
    const result = await review.accept(String(req.body.id), scope);
    return ok({ result, items: review.items(liveUrl) });
  },
  'POST reject': async (review, req) => {
    const result = await review.reject(String(req.body.id));
    return ok({ result, items: review.items(liveUrl) });
  },
};

/**
 * Answers one request of the API: a wrong input or a decision that cannot be made is 400, a file that could not
 * be written 500, each with one line that says what went wrong and what to do.
 * @param clean scrubs a message before the page sees it
 */
export async function answerReview(review: Review, req: ApiRequest, clean: (text: string) => string): Promise<ApiAnswer> {
  const route = ROUTES[`${req.method} ${req.route}`];
  if (!route) return { status: 404, json: { error: `no such API route: ${req.method} /api/${req.route.slice(0, 60)}` } };
  try {
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

function ok(json: unknown): ApiAnswer {
  return { status: 200, json };
}
