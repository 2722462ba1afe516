import { Phone } from '../../phone/index.js';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { UsageError } from '../../core/errors.js';
import { checkRectOnScreen } from '../../core/screen.js';
import { DEVICE_POSITIONAL, deviceArg, rectArg } from '../args.js';
import { hostPath, withClient, type Host } from '../context.js';
import { phoneLabel, resolveDevice, screenOf } from '../phones.js';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION } from '../timeout.js';
import type { Output } from '../output.js';

interface ScreenshotArgs extends GlobalOptions {
  timeout?: string;
  device: string;
  rect?: string;
  out: string;
}

const EXAMPLE = 'phonewright screenshot device@1116106541 --rect 10,20,30,40 --out corner.png';

/** `phonewright screenshot <device> [--rect x,y,w,h] --out FILE`: a PNG of the screen, or of a part of it. */
export function screenshotCommand(output: Output, host: Host): CommandModule<GlobalOptions, ScreenshotArgs> {
  return defineCommand({
    command: 'screenshot <device>',
    describe: 'Save a PNG of a phone\'s screen, or of a rectangle of it',
    positionals: { device: DEVICE_POSITIONAL },
    options: {
      rect: { type: 'string', describe: 'The part of the screen: x,y,width,height in pixels (default: the whole screen)' },
      out: { type: 'string', demandOption: true, describe: 'The PNG file to write (its folder must exist)' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 screenshot main --out screen.png', 'the whole screen of the server\'s main device'],
      ['$0 screenshot device@1116106541 --rect 10,20,30,40 --out corner.png --json', 'prints {"file":"corner.png","width":30,"height":40}'],
    ],
    epilogue:
      'The screen capture is a route of the vendor\'s server beyond the device-control interface: a server without it fails with one line that says so, exit 1 ' +
      '(`phonewright pixel` reads one pixel on any server). The file holds exactly the pixels asked for; it is written only once the capture succeeded.',
    handler: async (args) => {
      // Everything the user typed is checked before any network work.
      const device = deviceArg(args.device);
      const rect = args.rect === undefined ? undefined : rectArg(args.rect, EXAMPLE);
      const out = hostPath(host, args.out);
      await checkFolder(out, args.out);
      return withClient(args, output, host, async (ctx) => {
        const id = await resolveDevice(device, ctx);
        const phone = new Phone(ctx.client, id);
        const call = { signal: ctx.signal };
        // A rectangle off the screen is refused before it is sent (exit 2), as a point of an act is.
        if (rect) checkRectOnScreen({ screen: await screenOf(id, ctx), toString: () => phoneLabel(device, id) }, rect);
        const area = rect ?? { x: 0, y: 0, ...(await phone.info(call)) };
        const png = await phone.screenshot({ ...call, rect: { x: area.x, y: area.y, width: area.width, height: area.height } });
        await writeFile(out, png);
        if (args.json) output.json({ file: args.out, width: area.width, height: area.height });
        else output.line(`${id}: ${area.width}×${area.height} at (${area.x}, ${area.y}) saved to ${args.out}`);
      });
    },
  });
}

/** The folder `--out` names must exist, and the file must not be a folder. */
async function checkFolder(file: string, typed: string): Promise<void> {
  const kind = await stat(file).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => undefined,
  );
  if (kind === 'folder') throw new UsageError(`--out ${JSON.stringify(typed)} is a folder: name the PNG file to write, e.g. ${path.join(typed, 'screen.png')}`);
  const folder = await stat(path.dirname(file)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new UsageError(`--out ${JSON.stringify(typed)}: the folder ${JSON.stringify(path.dirname(typed))} does not exist`, { hint: 'create it first, or write elsewhere' });
}
