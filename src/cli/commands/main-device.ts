import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { withClient, type Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION, type TimeoutArgs } from '../timeout.js';
import type { Output } from '../output.js';

/** `phonewright main-device`: the id of the server's current main device. */
export function mainDeviceCommand(output: Output, host: Host): CommandModule<GlobalOptions, TimeoutArgs> {
  return defineCommand<TimeoutArgs>({
    command: 'main-device',
    describe: 'Print the id of the server\'s main device',
    options: TIMEOUT_OPTION,
    examples: [
      ['$0 main-device', 'prints device@1116106541'],
      ['$0 main-device --json', 'prints {"id":"device@1116106541"}'],
    ],
    epilogue: 'Other commands take "main" wherever a device id goes, and ask the server the same question.',
    handler: (args) =>
      withClient(args, output, host, async (ctx) => {
        const id = await ctx.client.mainDevice({ signal: ctx.signal });
        if (args.json) output.json({ id });
        else output.line(id);
      }),
  });
}
