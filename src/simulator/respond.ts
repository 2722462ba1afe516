import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Bodies the interface sends often, written once. */
export const BODY = {
  false: '{"status":false}',
  emptyList: '{"status":true,"value":[]}',
  deviceNotFound: '{"status":null,"value":"device not found"}',
  invalidToken: '{"status":null,"value":"invalid token"}',
} as const;

/**
 * Sends a JSON body that is already a string (the hot path builds its bodies as text).
 * @param status the HTTP status
 * @param body JSON text
 * @param close ask the client to close the connection (the request body was not read)
 * @default close false
 */
export function sendText(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * Sends a value as JSON.
 * @default status 200
 */
export function sendJson(res: ServerResponse, value: unknown, status = 200, close = false): void {
  sendText(res, status, JSON.stringify(value), close);
}

/** The interface's failure envelope as text, `{"status": null, "value": "<message>"}`. */
export function failure(message: string): string {
  return JSON.stringify({ status: null, value: message });
}

/** The interface's failure envelope: HTTP 200, `{"status": null, "value": "<message>"}`. */
export function sendFailure(res: ServerResponse, message: string, close = false): void {
  sendText(res, 200, failure(message), close);
}

/** Answers a JSON 500 for what went wrong inside the simulator (or ends a response already started). */
export function sendInternalError(res: ServerResponse, e: unknown): void {
  if (res.headersSent) return void res.destroy();
  sendText(res, 500, failure(`simulator error: ${(e as Error)?.message ?? String(e)}`), true);
}
