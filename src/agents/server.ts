// The MCP server: the SDK's low-level Server with phonewright's tools. Each call is checked against its tool's
// schema, runs within its deadline (its `timeout`, else the tool's own), and answers one tool error, its text
// scrubbed of the server's password and token, whatever went wrong: the server itself never falls over.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Deadline } from '../client/index.js';
import { isPhonewrightError, TimeoutError } from '../core/errors.js';
import { checkArgs } from './args.js';
import type { Lab } from './lab.js';
import type { Tool } from './tool.js';

/** How long after its deadline a call is cut whatever its work does: the work's own error comes first. */
const CUT_GRACE_MS = 500;

/** What an agent is told about the server when it connects. */
const INSTRUCTIONS =
  'phonewright drives the phones of a device-control lab and writes Playwright specs for them. Call phones first; ' +
  'look with screen (coordinates are phone pixels: picture pixels / scale) and find; act with tap, swipe, type, press, ' +
  'launch, close; draft lines with check_line, write them with write_spec, run them with run_specs on named phones, ' +
  'and accept a changed golden with accept. Prefer locators (text, description, id) to coordinates.';

/**
 * An MCP server offering `tools` on `lab`. Connect it to a transport (stdio, or Streamable HTTP) to serve.
 * @param version phonewright's version, as the server's
 */
export function makeServer(lab: Lab, tools: readonly Tool[], version: string): Server {
  const server = new Server({ name: 'phonewright', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) return failure(`unknown tool ${JSON.stringify(request.params.name)}; try: one of ${[...byName.keys()].join(', ')}`);
    return callTool(lab, tool, request.params.arguments ?? {}, extra.signal);
  });
  return server;
}

/**
 * Runs one call of a tool: its arguments checked, then its work within its deadline; any failure is the call's
 * tool error (one line, secrets scrubbed), and a line on stderr.
 * @param signal the client's cancellation of the call
 */
export async function callTool(lab: Lab, tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  const started = performance.now();
  const ms = typeof args.timeout === 'number' ? args.timeout : (tool.timeoutMs ?? lab.options.timeoutMs);
  let deadline: Deadline | undefined;
  let line: string;
  try {
    await checkArgs(tool.name, tool.input, args);
    deadline = Deadline.in(ms, signal);
    // The work ends at the deadline with its own error (the server unreachable, the phone that did not answer); the
    // call, a moment later whatever the work does. A client's cancellation aborts the deadline's signal, and the SDK
    // sends no answer to a cancelled call: the cut is only for work that outlives its deadline.
    const content = await cutAfter(tool.run(args, { lab, deadline }), ms + CUT_GRACE_MS, `${tool.name}: the call's timeout (${ms} ms)`);
    line = `mcp: ${tool.name}${phoneOf(args)} answered in ${Math.round(performance.now() - started)} ms`;
    return { content: content.map((c) => (c.type === 'text' ? { ...c, text: lab.options.clean(c.text) } : c)) };
  } catch (error) {
    const message = isPhonewrightError(error) ? error.message : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    const text = lab.options.clean(message.replace(/\s*\n\s*/g, ' '));
    line = `mcp: ${tool.name}${phoneOf(args)} failed in ${Math.round(performance.now() - started)} ms: ${text}`;
    return failure(text);
  } finally {
    deadline?.dispose();
    // Written once the answer is on its way (the SDK sends it in the microtasks after this returns): the log line, its
    // scrubbing and its write to stderr are the agent's record, not part of its wait.
    setImmediate(() => {
      try {
        lab.options.log(line);
      } catch {
        // A line stderr no longer takes (the client gone) is lost: it must not take the server down.
      }
    });
  }
}

/**
 * The work's outcome, or a timeout error once `ms` have passed whatever the work does (it goes on, its failure
 * then nobody's). One timer: no signal to listen to, which a call already has in its deadline.
 */
function cutAfter<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what}: no answer before the deadline`, { reason: 'deadline' })), ms);
  });
  work.catch(() => {});
  return Promise.race([work, cut]).finally(() => clearTimeout(timer));
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text: `phonewright: ${text}` }], isError: true };
}

function phoneOf(args: Record<string, unknown>): string {
  return typeof args.phone === 'string' ? ` on ${args.phone.slice(0, 80)}` : '';
}
