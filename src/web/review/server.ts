// The review page's server: the local pages' server (src/web/server.ts) with the review's files and API.
import { assetsFolder, startPageServer, type PageServer } from '../server.js';
import type { Review } from './review.js';
import { answerReview } from './routes.js';

/**
 * Serves a review on 127.0.0.1, behind the token of the printed URL, as the inspector is served.
 * @param port the port; 0 picks a free one
 * @param clean scrubs a message before the page sees it
 */
export function startReview(review: Review, port: number, clean: (text: string) => string): Promise<PageServer> {
  return startPageServer({ command: 'review', assets: reviewAssets(), api: (req) => answerReview(review, req, clean), clean, port });
}

/** The folder of the review page's files (served from the package's src/, see {@link assetsFolder}). */
export function reviewAssets(): string {
  return assetsFolder(import.meta.url);
}
