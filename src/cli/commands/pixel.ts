import type { CommandModule } from 'yargs';
import { UsageError } from '../../core/errors.js';
import { resolveDevice, withClient } from '../context.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface PixelArgs extends GlobalOptions {
  device: string;
  x: string;
  y: string;
}

/** `phonewright pixel <device> <x> <y>`: one pixel's colour. */
export function pixelCommand(output: Output): CommandModule<GlobalOptions, PixelArgs> {
  return {
    command: 'pixel <device> <x> <y>',
    describe: 'Read the colour of one screen pixel',
    builder: (y) =>
      y
        .positional('device', { type: 'string', demandOption: true, describe: 'Device id (device@1116106541), or "main"' })
        .positional('x', { type: 'string', demandOption: true, describe: 'Column, from 0 at the left edge' })
        .positional('y', { type: 'string', demandOption: true, describe: 'Row, from 0 at the top edge' })
        .example('$0 pixel device@1116106541 100 100 --json', 'prints {"r":37,"g":66,"b":92,"rgb":"0x25425c"}') as never,
    handler: (args) =>
      withClient(args, output, async (ctx) => {
        const x = coordinate('x', args.x);
        const y = coordinate('y', args.y);
        const device = await resolveDevice(args.device, ctx);
        const p = await ctx.client.pixel(device, x, y, { signal: ctx.signal });
        if (args.json) output.json({ r: p.r, g: p.g, b: p.b, rgb: p.rgb });
        else output.line(`${device} (${x}, ${y}): ${p.rgb}  r=${p.r} g=${p.g} b=${p.b}`);
      }),
  };
}

/** Reads a coordinate argument strictly: digits only (yargs would turn "1e3" or "0x10" into numbers). */
export function coordinate(name: string, raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) {
    throw new UsageError(`invalid ${name} coordinate ${JSON.stringify(raw)}: expected a whole number ≥ 0`, { hint: 'pixel device@1116106541 100 100' });
  }
  return Number(raw);
}
