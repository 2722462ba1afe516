import type { CommandModule } from 'yargs';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { pixelCommand } from './pixel.js';

/** Every command, as a factory of its yargs module given where it writes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: ((output: Output) => CommandModule<GlobalOptions, any>)[] = [pixelCommand];
