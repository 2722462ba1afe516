import { createRequire } from 'node:module';
import type { CommandModule } from 'yargs';
import { loadConfigFile } from '../../config/load.js';
import { resolveLeases } from '../../config/leases.js';
import { ENV, parseDeviceList } from '../../config/resolve.js';
import type { DeviceId } from '../../core/device-id.js';
import { DEFAULT_WAIT_MS } from '../../phone/phone-options.js';
import { matrixDevices } from '../../inspector/naming.js';
import { wholeNumber } from '../args.js';
import { withClient, type Host } from '../context.js';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface McpArgs extends GlobalOptions {
  timeout?: string;
  port?: string;
}

const require = createRequire(import.meta.url);

/** `phonewright mcp [--port N]`: a Model Context Protocol server that sees and drives the lab's phones and writes, runs and mends specs. */
export function mcpCommand(output: Output, host: Host): CommandModule<GlobalOptions, McpArgs> {
  return defineCommand<McpArgs>({
    command: 'mcp',
    describe: 'Serve the lab to coding agents (Model Context Protocol on stdio): see and drive phones, write, run and mend specs',
    options: {
      port: { type: 'string', describe: 'Serve Streamable HTTP on 127.0.0.1 at this port, behind a token, instead of stdio' },
      timeout: { type: 'string', describe: `The default deadline of a tool call, in ms [default ${DEFAULT_WAIT_MS}: the expect timeout]` },
    },
    examples: [
      ['claude mcp add phonewright -- npx phonewright mcp', 'give Claude Code the lab (docs/agents.md: VS Code, Cursor)'],
      ['$0 mcp --port 9500', 'Streamable HTTP; prints "MCP: http://127.0.0.1:9500/mcp?token=…"'],
    ],
    epilogue:
      'It reads the same configuration as every command (servers, phones, passwordEnv, leases) and prints nothing on stdout but the ' +
      'protocol; its log goes to stderr. Every act goes through the phone layer as a spec\'s does, and waits for a phone another run ' +
      'has leased. No tool answers with the server\'s password or token. Runs until its client disconnects, or Ctrl-C.',
    handler: (args) => {
      const timeoutMs = args.timeout === undefined ? DEFAULT_WAIT_MS : wholeNumber('--timeout', args.timeout, 1, 3_600_000, 'phonewright mcp --timeout 10000 (ms)');
      const port = args.port === undefined ? undefined : wholeNumber('--port', args.port, 0, 65_535, 'phonewright mcp --port 9500');
      const file = loadConfigFile(host.cwd, host.env);
      const leases = resolveLeases(host.env, file);
      // The client's own budget stays the CLI's; each tool call has its own deadline.
      return withClient({ ...args, timeout: undefined }, output, host, async (ctx) => {
        const { Lab } = await import('../../agents/lab.js');
        const { serve } = await import('../../agents/serve.js');
        const embedded = ctx.simulatorPhones !== undefined;
        const named = embedded ? [...ctx.simulatorPhones!] : namedPhones(ctx.connection.devices);
        let envList: ReturnType<typeof parseDeviceList>;
        try {
          envList = ctx.connection.name === 'env' || ctx.connection.name === 'simulator' ? parseDeviceList(host.env[ENV.devices]) : undefined;
        } catch {
          envList = undefined;
        }
        const lab = new Lab({
          client: ctx.client,
          named,
          embedded,
          server: { devices: matrixDevices(ctx.connection.devices, envList), name: ctx.connection.name, othersNames: new Set() },
          leases,
          cwd: host.cwd,
          timeoutMs,
          env: host.env,
          connectionArgs: { url: args.url, user: args.user, password: args.password, apiRoot: args.apiRoot, server: args.server },
          clean: (text) => output.clean(ctx.client.clean(text)),
          log: (line) => output.note(line),
        });
        const { version } = require('phonewright/package.json') as { version: string };
        try {
          // Over HTTP, stdout is not the protocol: the URL is printed there, with its token (the server's own, on purpose), as inspect does.
          await serve(lab, { version, port, signal: ctx.signal, announce: (url) => (args.json ? output.json({}, { url }) : output.line(`MCP: ${url}`, [url])) });
        } finally {
          await lab.close();
        }
      });
    },
  });
}

/** The phones the config file names on this server. */
function namedPhones(devices: unknown): { id: DeviceId | 'main'; name: string }[] {
  if (!Array.isArray(devices)) return [];
  return devices.flatMap((d: { id: DeviceId | 'main'; name?: string }) => (d.name === undefined ? [] : [{ id: d.id, name: d.name }]));
}
