import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { checkRun, runPlaywright, watchReport, type RunArgs } from '../run-playwright.js';

interface TestArgs extends GlobalOptions {
  devices?: string;
  args?: (string | number)[];
}

/** `phonewright test [playwright args]`: the device matrix, once. */
export function testCommand(output: Output): CommandModule<GlobalOptions, TestArgs> {
  return defineCommand({
    command: 'test [args..]',
    describe: 'Run the specs as a device matrix (one Playwright project per phone); other arguments go to playwright test',
    passThrough: true,
    positionals: {
      args: { array: true, describe: 'Arguments for playwright test, e.g. --grep @smoke or --project galaxy-s9' },
    },
    options: {
      devices: { type: 'string', describe: 'Phones to run on: ids or names, comma-separated (main allowed) [env PHONEWRIGHT_DEVICES]' },
    },
    examples: [
      ['$0 test', 'every phone, every spec; HTML report in reports/html'],
      ['$0 test --devices device@1116106541 --grep settings', 'one phone, the specs whose title matches'],
      ['$0 test --server lab-a', 'the phones of one server of phonewright.config.json'],
      ['$0 test --shard 2/3 --list', 'phonewright\'s shards: whole phones each, balanced by the nightly history; which phones each runs'],
    ],
    handler: async (args) => {
      const run: RunArgs = { ...args, command: 'test', playwright: (args.args ?? []).map(String) };
      const report = watchReport();
      checkRun(await runPlaywright(run, output), 'the test run', report);
    },
  });
}
