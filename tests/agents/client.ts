// The suite's MCP client: the SDK's own, driving `node bin/phonewright.js mcp` over stdio in a folder of its own,
// its stderr kept to assert on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PNG } from 'pngjs';
import { BIN } from '../helpers/spawn.js';

/** A running `phonewright mcp` and the client talking to it. */
export interface McpSession {
  client: Client;
  /** The working folder the server was started in. */
  dir: string;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Resolves once the server's stderr holds `text`: a call's log line is written after its answer. */
  stderrHolds(text: string): Promise<void>;
  /** Calls a tool; its answer as the SDK gives it. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Starts `phonewright mcp` on stdio with `env` (the embedded simulator unless it names a server), in a new folder.
 * @param args more arguments after `mcp`
 */
export async function startMcp(env: Record<string, string> = {}, args: string[] = [], dir = mkdtempSync(path.join(tmpdir(), 'pw-mcp-'))): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stderrHolds = (text: string) =>
    new Promise<void>((resolve) => {
      const look = () => {
        if (!stderr.includes(text)) return;
        transport.stderr?.off('data', look);
        resolve();
      };
      transport.stderr?.on('data', look);
      look();
    });
  const client = new Client({ name: 'phonewright-tests', version: '0' });
  await client.connect(transport);
  return {
    client,
    dir,
    stderr: () => stderr,
    stderrHolds,
    // A run of specs takes longer than the SDK's default minute on a busy machine: the server's own deadline ends a call.
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs }, undefined, { timeout: 900_000 })) as CallToolResult,
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The JSON document of an answer's first text block. */
export function answerJson<T = Record<string, unknown>>(result: CallToolResult): T {
  const block = result.content.find((c) => c.type === 'text');
  if (!block || block.type !== 'text') throw new Error(`no text in ${JSON.stringify(result).slice(0, 200)}`);
  return JSON.parse(block.text) as T;
}

/** The JSON document of an answer's last text block: what a screen is (size, scale, texts). */
export function screenInfo<T = Record<string, unknown>>(result: CallToolResult): T {
  const block = result.content.filter((c) => c.type === 'text').at(-1);
  if (!block || block.type !== 'text') throw new Error(`no text in ${JSON.stringify(result).slice(0, 200)}`);
  return JSON.parse(block.text) as T;
}

/** The one-line text of an answer (a tool error's message). */
export function answerText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** The answer's image, decoded: as a model would see it. */
export function answerImage(result: CallToolResult): PNG {
  const block = result.content.find((c) => c.type === 'image');
  if (!block || block.type !== 'image') throw new Error(`no image in ${answerText(result).slice(0, 200)}`);
  expectPng(block.mimeType);
  return PNG.sync.read(Buffer.from(block.data, 'base64'));
}

function expectPng(mime: string): void {
  if (mime !== 'image/png') throw new Error(`image of type ${mime}, not image/png`);
}
