import yargs, { type Argv } from 'yargs';
import { exitCodeFor, isPhonewrightError, UsageError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import { GLOBAL_OPTIONS, type GlobalOptions } from './options.js';
import { processOutput, type Output } from './output.js';

/**
 * Runs the CLI and returns the exit code: 0 success; 1 the service answered with a failure (or a check
 * failed); 2 bad usage or input; 3 authentication failed; 4 server unreachable or timed out.
 * Errors go to stderr as one line, `phonewright: <what went wrong and what to do>`, secrets redacted.
 * @param argv the arguments after `phonewright`
 * @param output where to write (tests pass their own)
 */
export async function main(argv: string[], output: Output = processOutput()): Promise<number> {
  // Secrets given on the command line or in the environment are scrubbed from everything printed.
  output.addSecrets(process.env.PHONEWRIGHT_PASSWORD, flagValue(argv, '--password'));
  try {
    await buildParser(argv, output).parseAsync();
    return 0;
  } catch (error) {
    const message = isPhonewrightError(error) ? error.message : `unexpected error: ${(error as Error)?.stack ?? String(error)}`;
    output.note(`phonewright: ${output.clean(message).replace(/\s*\n\s*/g, ' ')}`);
    return exitCodeFor(error);
  }
}

/** The root parser: global options, one module per command, strict, with one failure handler. */
export function buildParser(argv: string[], output: Output): Argv<GlobalOptions> {
  let parser = yargs(argv)
    .scriptName('phonewright')
    .usage('$0 <command> [options]\n\nPlaywright Test for phones on a device-control server. Every command works against the embedded simulator when no server is configured.')
    .options(GLOBAL_OPTIONS)
    .env(false)
    .strict()
    .demandCommand(1, 'name a command (phonewright --help lists them)')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue('Exit codes: 0 success; 1 the service answered with a failure or a check failed; 2 bad usage or input; 3 authentication failed; 4 server unreachable or timed out.\nConfiguration: flag, then environment (PHONEWRIGHT_URL, PHONEWRIGHT_USER, PHONEWRIGHT_PASSWORD, PHONEWRIGHT_API_ROOT, PHONEWRIGHT_DEVICES), then phonewright.config.json.')
    .fail((message, error) => {
      // yargs reports its own usage errors with a message; a handler's error comes through as `error`.
      throw error ?? new UsageError(`${message}`, { hint: 'phonewright --help' });
    }) as unknown as Argv<GlobalOptions>;
  for (const make of COMMANDS) parser = parser.command(make(output));
  return parser;
}

/** The value of `--flag value` or `--flag=value` in raw arguments, to redact it before parsing. */
function flagValue(argv: string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === flag) return argv[i + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}
