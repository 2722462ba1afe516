// The local pages' one web server (the inspector, the review): a page's files as they are, and its API, on
// 127.0.0.1 behind a token; every request's host, origin and token are judged (security.ts) before anything else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { pageFiles, TYPES } from './page-files.js';
import { newToken, refusal, TOKEN_HEADER } from './security.js';

export { assetsFolder } from './page-files.js';

/** Where the local pages listen: this machine only. */
export const PAGE_HOST = '127.0.0.1';

/** A request of a page's API, as the server read it. */
export interface ApiRequest {
  method: string;
  /** The path after `/api/`, e.g. `pixel`. */
  route: string;
  query: URLSearchParams;
  /** The JSON body of a POST. */
  body: Record<string, unknown>;
}

/** An answer: JSON, PNG bytes, or a file's bytes of a type (a film), sent in the byte ranges the browser asks for. */
export type ApiAnswer = { status: number; json: unknown } | { status: 200; png: Buffer } | { status: 200; body: Buffer; type: string };

/** What a page is: its command, its files and its API. */
export interface PageOptions {
  /** The command that serves it, named in refusals: `inspect`, `review`. */
  command: string;
  /** The folder of the page's files ({@link assetsFolder}). */
  assets: string;
  /** Answers a request of `/api/…`; it runs only once the request's token, origin and host are checked. */
  api: (req: ApiRequest) => Promise<ApiAnswer>;
  /** Scrubs secrets from the message of an unexpected error before the page sees it. */
  clean: (text: string) => string;
  /** The port; 0 picks a free one. */
  port: number;
}

/** A running page. */
export interface PageServer {
  /** The page's address with its token: what the command prints. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/** `application/json` exactly, with parameters (`; charset=utf-8`) or none: not `application/json-seq`. */
const JSON_TYPE = /^application\/json[ \t]*(;|$)/i;
/** The largest JSON body a page sends (a draft, a table). */
const MAX_BODY = 1024 * 1024;
/** Every answer: nothing framed, cached, sniffed or sent on as a referrer; the page loads its own files (and films) only. */
const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/**
 * Serves a page on 127.0.0.1. Every request needs the token of the printed URL (in the `token` query parameter,
 * or the page's header for its API); a request from another origin or for another host is refused. The page's
 * files are read once ({@link pageFiles}); `%TOKEN%` in its `index.html` becomes the token, so the files it
 * names carry it on.
 * @param o the page's command, files, API and port
 */
export async function startPageServer(o: PageOptions): Promise<PageServer> {
  const token = newToken();
  const assets = await pageFiles(o.command, o.assets);
  let bound = o.port;
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: o.clean(`unexpected error: ${(error as Error)?.message ?? String(error)}`) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${PAGE_HOST}`);
    const facts = {
      method: req.method ?? 'GET',
      host: req.headers.host,
      origin: req.headers.origin,
      fetchSite: one(req.headers['sec-fetch-site']),
      token: one(req.headers[TOKEN_HEADER]) ?? url.searchParams.get('token') ?? undefined,
    };
    const refused = refusal(facts, bound, token, o.command);
    if (refused) return send(res, refused.status, { error: refused.message });
    if (url.pathname.startsWith('/api/')) {
      const body = facts.method === 'POST' ? await readJson(req) : {};
      if ('error' in body && body.error instanceof UsageError) return send(res, 400, { error: body.error.message });
      const reply = await o.api({ method: facts.method, route: url.pathname.slice(5), query: url.searchParams, body: body.value ?? {} });
      if ('png' in reply) return sendBytes(res, 'image/png', reply.png);
      if ('body' in reply) return sendRange(res, reply.type, reply.body, one(req.headers.range));
      return send(res, reply.status, reply.json);
    }
    if (facts.method !== 'GET') return send(res, 405, { error: `${facts.method} ${url.pathname} is not served` });
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = assets.get(name);
    if (!file) return send(res, 404, { error: `no such page: ${url.pathname.slice(0, 80)}` });
    const body = name === 'index.html' ? Buffer.from(file.toString('utf8').replaceAll('%TOKEN%', token)) : file;
    return sendBytes(res, TYPES[path.extname(name)] ?? 'application/octet-stream', body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new UsageError(`port ${o.port} is in use`, { hint: 'another --port, or none for a free one' }) : error),
    );
    server.listen(o.port, PAGE_HOST, () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${PAGE_HOST}:${bound}/?token=${token}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<{ value?: Record<string, unknown>; error?: UsageError }> {
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return { error: new UsageError('the API takes JSON (content-type: application/json)') };
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

/**
 * A file's bytes, or the one range of them a `Range` header asks for (206): a video element asks for ranges, and
 * seeks only in a file whose server says it serves them. A range past the end is 416; several ranges, or a header
 * that is not one, get the whole file, as RFC 9110 allows.
 */
function sendRange(res: ServerResponse, type: string, body: Buffer, range: string | undefined): void {
  const m = range === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === '')) {
    res.writeHead(200, { ...HEADERS, 'content-type': type, 'content-length': body.length, 'accept-ranges': 'bytes' });
    return void res.end(body);
  }
  const size = body.length;
  // `bytes=-N` is the last N bytes; `bytes=N-` from N to the end.
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) {
    res.writeHead(416, { ...HEADERS, 'content-range': `bytes */${size}`, 'content-length': 0 });
    return void res.end();
  }
  res.writeHead(206, { ...HEADERS, 'content-type': type, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes' });
  res.end(body.subarray(start, end + 1));
}

function sendBytes(res: ServerResponse, type: string, body: Buffer): void {
  res.writeHead(200, { ...HEADERS, 'content-type': type, 'content-length': body.length });
  res.end(body);
}
