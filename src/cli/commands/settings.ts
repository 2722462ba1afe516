import { Phone } from '../../phone/index.js';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { describeSetting, SETTINGS_FIELDS } from '../../core/settings.js';
import { DEVICE_POSITIONAL, deviceArg } from '../args.js';
import { withClient, type Host } from '../context.js';
import { resolveDevice } from '../phones.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION } from '../timeout.js';
import type { Output } from '../output.js';

interface SettingsArgs extends GlobalOptions {
  timeout?: string;
  device: string;
}

/** `phonewright settings <device>`: the seven display settings of one phone. */
export function settingsCommand(output: Output, host: Host): CommandModule<GlobalOptions, SettingsArgs> {
  return defineCommand({
    command: 'settings <device>',
    describe: 'Read the display settings of one phone',
    positionals: { device: DEVICE_POSITIONAL },
    options: TIMEOUT_OPTION,
    examples: [
      ['$0 settings main', 'a table: display_mode 1 (HA1), …, display_resolution 1080*1920'],
      ['$0 settings device@1116106541 --json', 'prints {"display_mode":1,…,"display_hw_decode":1,…,"display_resolution":{"w":1080,"h":1920}}'],
    ],
    epilogue: '--json prints the seven fields normalized: enums as numbers, display_hw_decode as 0 or 1, display_resolution as {"w", "h"}, whichever wire form the server used.',
    handler: (args) => {
      const device = deviceArg(args.device);
      return withClient(args, output, host, async (ctx) => {
        const id = await resolveDevice(device, ctx);
        const settings = await new Phone(ctx.client, id).settings({ signal: ctx.signal });
        if (args.json) {
          output.json(Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, settings[f]])));
          return;
        }
        const width = Math.max(...SETTINGS_FIELDS.map((f) => f.length));
        output.line(id);
        for (const f of SETTINGS_FIELDS) output.line(`  ${f.padEnd(width)}  ${describeSetting(f, settings[f])}`);
      });
    },
  });
}
