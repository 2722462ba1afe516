/**
 * A pass-through proxy in front of a simulator that learns every token: those handed out at login and those
 * clients send back. A run pointed at it leaves no token unknown to the secrets scan.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenSpy {
  /** The proxy's base URL. */
  readonly url: string;
  /** Every token seen so far. */
  readonly tokens: Set<string>;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1, port 0, in front of `upstream` (a base URL). */
export async function startTokenSpy(upstream: string): Promise<TokenSpy> {
  const tokens = new Set<string>();
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const sent = new URL(req.url ?? '/', upstream).searchParams.get('token');
    if (sent) tokens.add(sent);
    const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const issued = /"token"\s*:\s*"([A-Za-z0-9]+)"/.exec(body.toString('utf8'));
        if (issued) tokens.add(issued[1]!);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokens,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
