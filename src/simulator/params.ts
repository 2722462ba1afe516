import type { IncomingMessage } from 'node:http';
import { parseQuery, type Query } from './query.js';

/** The arguments of an act are a few short fields: a body past this is a mistake, or an attack. */
export const MAX_ACT_BODY = 64 * 1024;

/** A POST's parameters, or why they cannot be read (`close`: the body was left unread, end the connection). */
export type ParamsRead = { params: Query } | { refusal: string; close: boolean } | undefined;

/**
 * A POST's parameters: the query's, then the body's. Public clients send them in any of three places, and
 * the token with them: the query (an empty body), a form body (`state=active&token=T`), or a JSON object
 * (`{"state": "active", "token": "T"}`), with or without a Content-Type. The body is told by its first
 * character, whatever the Content-Type says: `{` is JSON, anything else a form. Where the query and the body
 * both give a parameter, the query's wins. JSON numbers and booleans become their text, lists and objects
 * their JSON text (`coord` may come as a list), null counts as absent.
 * Resolves undefined when the client goes away before its body is in.
 * @param search the query, without the `?`
 */
export async function readParams(req: IncomingMessage, search: string): Promise<ParamsRead> {
  const query = parseQuery(search);
  const body = await readSmallBody(req, MAX_ACT_BODY);
  if (body === undefined) return undefined;
  if (body === 'too-big') return { refusal: `the body is larger than ${MAX_ACT_BODY} bytes: an act's arguments are a few short fields`, close: true };
  const fromBody = parseBody(body);
  if (typeof fromBody === 'string') return { refusal: fromBody, close: false };
  for (const name in query) fromBody[name] = query[name];
  return { params: fromBody };
}

/**
 * A body's parameters: a JSON object when it starts with `{` (after white space), else a form
 * (`application/x-www-form-urlencoded`). Returns what is wrong as text.
 */
export function parseBody(body: Buffer): Query | string {
  const text = body.toString('utf8').trim();
  if (!text.startsWith('{')) return parseQuery(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return `the body starts with "{" but is not JSON (${(e as Error).message}): send a JSON object, or a form such as x=1&y=2`;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'the body is not a JSON object: send {"name": value, …}';
  const out: Query = Object.create(null) as Query;
  for (const [name, value] of Object.entries(json)) {
    if (value === null || value === undefined) continue;
    out[name] = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return out;
}

/**
 * Reads a body of at most `limit` bytes. Past it (as declared, or as it arrives) reading stops and the rest
 * is left unread: the caller answers and closes the connection.
 */
function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-big' | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve('too-big');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer | 'too-big' | undefined) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        return done('too-big');
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, size));
    const onGone = () => done(undefined);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}
