import type { CommandModule } from 'yargs';
import type { DeviceInfo } from '../../client/index.js';
import { defineCommand } from '../define.js';
import { withClient, type Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION, type TimeoutArgs } from '../timeout.js';
import type { Output } from '../output.js';

/** `phonewright devices`: the server's phones, with their model, maker, screen size and Android release. */
export function devicesCommand(output: Output, host: Host): CommandModule<GlobalOptions, TimeoutArgs> {
  return defineCommand<TimeoutArgs>({
    command: 'devices',
    describe: 'List the server\'s phones with their model, screen size and Android release',
    options: TIMEOUT_OPTION,
    examples: [
      ['$0 devices', 'a table: id, name, model, manufacturer, size, Android'],
      ['$0 devices --json', 'prints [{"id":"device@1116106541","name":"…","model":"SM-G960F","manufacturer":"samsung","width":1080,"height":1920,"android":"10"}]'],
    ],
    epilogue:
      'The device list and the device properties are routes of the vendor\'s server beyond the device-control interface: a server without them fails with one line that says so, exit 1. ' +
      '"name" is the name the server gives a phone; the device matrix names its projects after phonewright.config.json.',
    handler: (args) =>
      withClient(args, output, host, async (ctx) => {
        const ids = await ctx.client.devices({ signal: ctx.signal });
        const phones = await Promise.all(ids.map((id) => ctx.client.deviceInfo(id, { signal: ctx.signal })));
        if (args.json) output.json(phones);
        else if (!phones.length) output.line(`no phones on ${ctx.client.url}`);
        else for (const line of table(phones)) output.line(line);
      }),
  });
}

/** Columns padded to their widest cell. */
function table(phones: DeviceInfo[]): string[] {
  const rows = [['id', 'name', 'model', 'manufacturer', 'size', 'android'], ...phones.map((p) => [p.id, p.name, p.model, p.manufacturer, `${p.width}×${p.height}`, p.android])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}
