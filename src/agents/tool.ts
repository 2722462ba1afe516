// What one tool of `phonewright mcp` is: its name, the description an agent reads, its input schema, and the work
// it does within one call's deadline. The server (server.ts) lists them, checks arguments and runs them.
import type { Deadline } from '../client/index.js';
import type { ArgSchema } from './args.js';
import type { Lab } from './lab.js';

/** A block of a tool's answer: text, or an image a model can look at (base64 PNG). */
export type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: 'image/png' };

/** What one call of a tool gets: the lab, and the call's deadline, which reaches the wire. */
export interface ToolCall {
  lab: Lab;
  deadline: Deadline;
}

/** One tool. `run` gets its arguments as checked against `input`. */
export interface Tool {
  name: string;
  description: string;
  input: ArgSchema;
  /** ms a call takes at most unless its `timeout` says otherwise. @default the lab's call timeout */
  timeoutMs?: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(args: any, call: ToolCall): Promise<Content[]>;
}

/** A text block holding one JSON document, as agents parse it. */
export function json(value: unknown): Content {
  return { type: 'text', text: JSON.stringify(value) };
}

/** An image block of PNG bytes. */
export function png(bytes: Buffer): Content {
  return { type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' };
}
