import type { CommandModule } from 'yargs';
import type { Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { actCommands } from './act.js';
import { approveCommand } from './approve.js';
import { devicesCommand } from './devices.js';
import { doctorCommand } from './doctor.js';
import { initCommand } from './init.js';
import { mcpCommand } from './mcp.js';
import { inspectCommand } from './inspect.js';
import { loginCommand } from './login.js';
import { mainDeviceCommand } from './main-device.js';
import { mergeCommand } from './merge.js';
import { nightlyCommand } from './nightly.js';
import { notificationsCommand } from './notifications.js';
import { pixelCommand } from './pixel.js';
import { reviewCommand } from './review.js';
import { screenshotCommand } from './screenshot.js';
import { settingsCommand } from './settings.js';
import { simCommand } from './sim.js';
import { testCommand } from './test.js';
import { uploadCommand } from './upload.js';

/** Every command, as a factory of its yargs module given where it writes and runs; `--help` lists them in this order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: ((output: Output, host: Host) => CommandModule<GlobalOptions, any>)[] = [
  loginCommand,
  mainDeviceCommand,
  devicesCommand,
  pixelCommand,
  screenshotCommand,
  ...actCommands,
  settingsCommand,
  notificationsCommand,
  uploadCommand,
  simCommand,
  testCommand,
  nightlyCommand,
  mergeCommand,
  approveCommand,
  doctorCommand,
  inspectCommand,
  initCommand,
  reviewCommand,
  mcpCommand,
];
