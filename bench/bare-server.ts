// A child process running a bare node:http JSON server: the yardstick of the simulator's throughput.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveChild } from './proc.js';

/** The vendor's pixel answer, as the simulator gives it for the main phone's (100, 100). */
const PIXEL = { status: true, value: { r: 37, g: 66, b: 92, rgb: '0x25425c' } };

await serveChild<object, { url: string }>(async () => {
  // What any JSON endpoint does, and nothing more: serialize, set type and length, answer, keep the connection.
  const server = createServer({ keepAlive: true }, (_req, res) => {
    const body = JSON.stringify(PIXEL);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ready: { url: `http://127.0.0.1:${port}` },
    commands: {},
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
});
