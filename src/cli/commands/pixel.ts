import { Phone } from '../../phone/index.js';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { coordinate, DEVICE_POSITIONAL, deviceArg, POINT_POSITIONALS } from '../args.js';
import { withClient, type Host } from '../context.js';
import { resolveDevice, resolvePointOf } from '../phones.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION } from '../timeout.js';
import type { Output } from '../output.js';

interface PixelArgs extends GlobalOptions {
  timeout?: string;
  device: string;
  x: string;
  y: string;
}

/** `phonewright pixel <device> <x> <y>`: one pixel's colour. */
export function pixelCommand(output: Output, host: Host): CommandModule<GlobalOptions, PixelArgs> {
  return defineCommand({
    command: 'pixel <device> <x> <y>',
    describe: 'Read the colour of one screen pixel',
    positionals: { device: DEVICE_POSITIONAL, ...POINT_POSITIONALS },
    options: TIMEOUT_OPTION,
    examples: [
      ['$0 pixel device@1116106541 100 100 --json', 'prints {"r":37,"g":66,"b":92,"rgb":"0x25425c"}'],
      ['$0 pixel main 0 0', 'the top-left pixel of the server\'s main device'],
    ],
    epilogue: 'Prints the colour as the server gives it: 0x and six lowercase hex digits, and r, g, b from 0 to 255. A point off the screen fails with exit 2 and names the screen size.',
    handler: (args) => {
      // Everything the user typed is checked before any network work.
      const device = deviceArg(args.device);
      const x = coordinate('x', args.x);
      const y = coordinate('y', args.y);
      return withClient(args, output, host, async (ctx) => {
        const id = await resolveDevice(device, ctx);
        const at = await resolvePointOf(id, x, y, ctx, device);
        const p = await new Phone(ctx.client, id).pixel(at.x, at.y, { signal: ctx.signal });
        if (args.json) output.json({ r: p.r, g: p.g, b: p.b, rgb: p.rgb });
        else output.line(`${id} ${at.label}: ${p.rgb}  r=${p.r} g=${p.g} b=${p.b}`);
      });
    },
  });
}
