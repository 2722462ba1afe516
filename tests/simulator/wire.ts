/**
 * A request written byte by byte on a socket of its own, as a client that nobody here wrote would send it:
 * any request target (the absolute form too), exactly the headers given (no Content-Type unless given), the
 * body as it is.
 */
import net from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target as it stands on the request line: `/TotalControl/v1/login`, or `http://host:port/…`. */
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body in chunks without a Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** Ask to keep the connection open (no `Connection: close`): the answer then says whether the server closes it. */
  keepAlive?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  /** True when the server said it closes the connection after its answer (and did). */
  closed: boolean;
}

/** Sends one request on a new connection to 127.0.0.1:`port` and reads its answer. */
export function rawRequest(port: number, r: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // A connection kept open: once the whole answer is in, and the server did not say it closes, hang up.
      const answer = complete(Buffer.concat(chunks));
      if (answer && !answer.closed) socket.destroy();
    });
    // The server may answer and close before it has read a body it refuses: the answer is what counts.
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('close', () => {
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (e) {
        reject(e);
      }
    });
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const lines = [`${r.method} ${r.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...(r.keepAlive ? [] : ['Connection: close'])];
    for (const [name, value] of Object.entries(r.headers ?? {})) lines.push(`${name}: ${value}`);
    if (body && r.chunked) lines.push('Transfer-Encoding: chunked');
    else if (body) lines.push(`Content-Length: ${body.length}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (!body) return;
    if (!r.chunked) return void socket.write(body);
    for (let i = 0; i < body.length; i += 16 * 1024) {
      const piece = body.subarray(i, i + 16 * 1024);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
    }
    socket.write('0\r\n\r\n');
  });
}

/** The answer, once all of it is in. */
function complete(raw: Buffer): RawAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const answer = parse(raw);
  return answer.headers['content-length'] !== undefined && answer.body.length === Number(answer.headers['content-length']) ? answer : undefined;
}

function parse(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no answer head in ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? raw.length - end - 4);
  const body = raw.subarray(end + 4, end + 4 + length);
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, json, closed: (headers.connection ?? '').toLowerCase() === 'close' };
}
