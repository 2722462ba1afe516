// Where the MCP server listens: stdio (the default, what an editor starts), or Streamable HTTP on 127.0.0.1
// behind a token, as the local pages are (src/web/security.ts): this machine, the printed URL, no one else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refusal, newToken, TOKEN_HEADER } from '../web/security.js';
import { PAGE_HOST } from '../web/server.js';
import type { Lab } from './lab.js';
import { makeServer } from './server.js';
import { TOOLS } from './tools.js';

/** How to serve. */
export interface ServeOptions {
  /** phonewright's version, the server's. */
  version: string;
  /** Streamable HTTP on this port of 127.0.0.1 (0: a free one); undefined: stdio. */
  port: number | undefined;
  /** Stops serving (Ctrl-C). */
  signal: AbortSignal;
  /** Told the URL to print (with its token), for HTTP. */
  announce: (url: string) => void;
}

/**
 * Serves the lab's tools until the client goes (stdin ends) or the signal stops it; over HTTP, until the signal.
 * Nothing but the protocol is written to stdout.
 */
export async function serve(lab: Lab, o: ServeOptions): Promise<void> {
  if (o.port === undefined) return serveStdio(lab, o);
  const http = await listenHttp(lab, o.version, o.port);
  try {
    o.announce(http.url);
    await stopped(o.signal);
  } finally {
    await http.close();
  }
}

async function serveStdio(lab: Lab, o: ServeOptions): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = makeServer(lab, TOOLS, o.version);
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    o.signal.addEventListener('abort', () => resolve(), { once: true });
    if (o.signal.aborted) resolve();
  });
  await server.connect(transport);
  lab.options.log(`phonewright mcp: serving ${TOOLS.length} tools on stdio`);
  try {
    await ended;
  } finally {
    await server.close();
  }
}

/**
 * The tools over Streamable HTTP at `http://127.0.0.1:PORT/mcp?token=…`, stateless: each request is answered by
 * a server of its own on the one lab (its phones and leases shared). Every request needs the token, from this
 * machine, with no other page's origin.
 * @returns the URL to give a client, and how to stop
 */
export async function listenHttp(lab: Lab, version: string, port: number): Promise<{ url: string; close: () => Promise<void> }> {
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const token = newToken();
  const http = createServer((req, res) => void answer(req, res));
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${PAGE_HOST}`);
    const header = req.headers[TOKEN_HEADER];
    const bearer = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const facts = { method: req.method ?? 'GET', host: req.headers.host, origin: req.headers.origin, fetchSite: req.headers['sec-fetch-site'] as string | undefined, token: url.searchParams.get('token') ?? (typeof header === 'string' ? header : bearer) };
    const refused = refusal(facts, (http.address() as AddressInfo).port, token, 'mcp');
    if (refused || url.pathname !== '/mcp') {
      res.writeHead(refused?.status ?? 404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: refused?.message ?? 'not found: the tools are at /mcp' }));
      return;
    }
    const server = makeServer(lab, TOOLS, version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      lab.options.log(`mcp: a request failed: ${lab.options.clean((error as Error).message)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
  await new Promise<void>((resolve, reject) => http.once('error', reject).listen(port, PAGE_HOST, resolve));
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://${PAGE_HOST}:${bound}/mcp?token=${token}`,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
