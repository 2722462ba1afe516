// The inspector's web server: the local pages' server (src/web/server.ts) with the inspector's files and API.
import { PAGE_HOST, assetsFolder, startPageServer, type PageServer } from '../web/server.js';
import { answer, type InspectorContext } from './routes.js';
import { ScreenCapturer } from './reads.js';

/** Where the inspector listens: this machine only. */
export const INSPECTOR_HOST = PAGE_HOST;

/** A running inspector. */
export type Inspector = PageServer;

/**
 * Starts the inspector's server on 127.0.0.1. Every request needs the token of the printed URL (in the
 * `token` query parameter, or the page's header for its API); a request from another origin or host is refused.
 * @param ctx the client, phones and folders the API works with
 * @param port the port; 0 picks a free one
 */
export async function startInspector(ctx: InspectorContext, port: number): Promise<Inspector> {
  const capturer = new ScreenCapturer(ctx.client);
  return startPageServer({ command: 'inspect', assets: assetsDir(), api: (req) => answer(ctx, req, capturer), clean: ctx.clean, port });
}

/** The folder of the inspector page's files (served from the package's src/, see {@link assetsFolder}). */
export function assetsDir(): string {
  return assetsFolder(import.meta.url);
}
