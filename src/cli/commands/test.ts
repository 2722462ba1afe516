import type { CommandModule } from 'yargs';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { checkRun, runPlaywright, type RunArgs } from '../run-playwright.js';

interface TestArgs extends GlobalOptions {
  devices?: string;
  args?: (string | number)[];
}

/** `phonewright test [playwright args]`: the device matrix, once. */
export function testCommand(output: Output): CommandModule<GlobalOptions, TestArgs> {
  return {
    command: 'test [args..]',
    describe: 'Run the specs as a device matrix (one Playwright project per phone); other arguments go to playwright test',
    builder: (y) =>
      y
        .parserConfiguration({ 'unknown-options-as-args': true })
        .option('devices', { type: 'string', describe: 'Phones to run on: ids or names, comma-separated (main allowed) [env PHONEWRIGHT_DEVICES]' })
        .positional('args', { array: true, describe: 'Arguments for playwright test, e.g. --grep @smoke or --project galaxy-s9' })
        .example('$0 test', 'every phone, every spec; HTML report in reports/html')
        .example('$0 test --devices device@1116106541 --grep settings', 'one phone, the specs whose title matches')
        .example('$0 test --server lab-a', 'the phones of one server of phonewright.config.json'),
    handler: async (args) => {
      const run: RunArgs = { ...args, playwright: (args.args ?? []).map(String) };
      checkRun(await runPlaywright(run, output), 'the test run');
    },
  };
}
