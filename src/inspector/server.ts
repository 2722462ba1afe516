// The inspector's web server: the page's files as they are, and its API, on 127.0.0.1 behind a token.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.js';
import { answer, type ApiAnswer, type InspectorContext } from './routes.js';
import { ScreenCapturer } from './reads.js';
import { newToken, refusal, TOKEN_HEADER } from './security.js';

/** Where the inspector listens: this machine only. */
export const INSPECTOR_HOST = '127.0.0.1';
/** The largest JSON body the page sends (a draft, a table). */
const MAX_BODY = 1024 * 1024;
/** Every answer: nothing framed, cached, sniffed or sent on as a referrer; the page loads its own files only. */
const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml' };

/** A running inspector. */
export interface Inspector {
  /** The page's address with its token: what the command prints. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/**
 * Starts the inspector's server on 127.0.0.1. Every request needs the token of the printed URL (in the
 * `token` query parameter, or the page's header for its API); a request from another origin or host is refused.
 * @param ctx the client, phones and folders the API works with
 * @param port the port; 0 picks a free one
 */
export async function startInspector(ctx: InspectorContext, port: number): Promise<Inspector> {
  const token = newToken();
  const assets = await loadAssets(assetsDir());
  const capturer = new ScreenCapturer(ctx.client);
  let bound = port;
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: ctx.clean(`unexpected error: ${(error as Error)?.message ?? String(error)}`) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${INSPECTOR_HOST}`);
    const header = req.headers[TOKEN_HEADER];
    const facts = {
      method: req.method ?? 'GET',
      host: req.headers.host,
      origin: req.headers.origin,
      fetchSite: one(req.headers['sec-fetch-site']),
      token: one(header) ?? url.searchParams.get('token') ?? undefined,
    };
    const refused = refusal(facts, bound, token);
    if (refused) return send(res, refused.status, { error: refused.message });
    if (url.pathname.startsWith('/api/')) {
      const body = facts.method === 'POST' ? await readJson(req) : {};
      if ('error' in body && body.error instanceof UsageError) return send(res, 400, { error: body.error.message });
      const reply = await answer(ctx, { method: facts.method, route: url.pathname.slice(5), query: url.searchParams, body: body.value ?? {} }, capturer);
      return reply.status === 200 && 'png' in reply ? sendBytes(res, 'image/png', reply.png) : send(res, reply.status, (reply as Extract<ApiAnswer, { json: unknown }>).json);
    }
    if (facts.method !== 'GET') return send(res, 405, { error: `${facts.method} ${url.pathname} is not served` });
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = assets.get(name);
    if (!file) return send(res, 404, { error: `no such page: ${url.pathname.slice(0, 80)}` });
    // The page's own files carry the token on: the HTML names them with it.
    const body = name === 'index.html' ? Buffer.from(file.toString('utf8').replaceAll('%TOKEN%', token)) : file;
    return sendBytes(res, TYPES[path.extname(name)] ?? 'application/octet-stream', body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new UsageError(`port ${port} is in use`, { hint: 'another --port, or none for a free one' }) : error),
    );
    server.listen(port, INSPECTOR_HOST, () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${INSPECTOR_HOST}:${bound}/?token=${token}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The folder of the page's files. They are served as they are, from the package's source folder: src/ ships
 * with the package, and the build (tsc) copies no file that is not TypeScript into dist/.
 */
export function assetsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'assets');
  // Run from dist/src/inspector/: the same folder under the package's src/.
  return existsSync(beside) ? beside : path.resolve(here, '..', '..', '..', 'src', 'inspector', 'assets');
}

/** The page's files, read once: a request names one of them or gets 404 (no path ever reaches the disk). */
async function loadAssets(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).filter((n) => TYPES[path.extname(n)]);
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(dir, n))] as const)));
}

async function readJson(req: IncomingMessage): Promise<{ value?: Record<string, unknown>; error?: UsageError }> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { error: new UsageError('the API takes JSON (content-type: application/json)') };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return { error: new UsageError(`the request is larger than ${MAX_BODY} bytes`) };
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return { value: value as Record<string, unknown> };
  } catch {
    // Answered below.
  }
  return { error: new UsageError('the request is not a JSON object') };
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function send(res: ServerResponse, status: number, json: unknown): void {
  const body = Buffer.from(JSON.stringify(json));
  res.writeHead(status, { ...HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

function sendBytes(res: ServerResponse, type: string, body: Buffer): void {
  res.writeHead(200, { ...HEADERS, 'content-type': type, 'content-length': body.length });
  res.end(body);
}
