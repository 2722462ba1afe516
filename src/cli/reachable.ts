import { connect } from 'node:net';
import { TimeoutError, UnreachableError } from '../core/errors.js';

/**
 * Opens and closes one TCP connection to a server: the cheapest proof that something listens there,
 * sending no credentials. Resolves with `host:port`.
 * @param url the server's base URL
 * @param timeoutMs how long to wait for the connection
 * @param signal ends the wait early
 * @param urlFrom where the URL came from, for the hint
 */
export function checkReachable(url: string, timeoutMs: number, signal?: AbortSignal, urlFrom = '--url or PHONEWRIGHT_URL'): Promise<string> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  // URL keeps the brackets of an IPv6 literal in hostname; a socket wants the bare address.
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const where = `${u.hostname}:${port}`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: timeoutMs, ...(signal ? { signal } : {}) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(where);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new TimeoutError(`${where} did not accept a connection within ${timeoutMs} ms`, { hint: 'check the URL, the network and any firewall between here and the server' }));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      reject(new UnreachableError(`cannot reach ${where} (${e.code ?? e.message})`, { hint: `is the server running and the URL right? check ${urlFrom}`, cause: e }));
    });
  });
}
