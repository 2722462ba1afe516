import { createRequire } from 'node:module';
import type { Argv } from 'yargs';
import { exitCodeFor, isPhonewrightError, UsageError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import { processHost, type Host } from './context.js';
import { GLOBAL_OPTIONS, type GlobalOptions } from './options.js';
import { processOutput, type Output } from './output.js';

const require = createRequire(import.meta.url);
// yargs's ESM build wraps help text at any character ("comman\nd"); its CommonJS build wraps at words.
const yargs = require('yargs/yargs') as typeof import('yargs/yargs');
// phonewright's own version, through the package's self-reference (its "exports" list package.json). Left to
// itself, yargs looks for a package.json upwards from the working folder when the entry is an ES module.
const { version: VERSION } = require('phonewright/package.json') as { version: string };

/**
 * Runs the CLI and returns the exit code: 0 success; 1 the service answered with a failure (or a check
 * failed); 2 bad usage or input; 3 authentication failed; 4 server unreachable or timed out.
 * Errors go to stderr as one line, `phonewright: <what went wrong and what to do>`, secrets redacted.
 * @param argv the arguments after `phonewright`
 * @param output where to write (tests pass their own)
 * @param host the environment, working folder, terminal width and stop signal (tests pass their own)
 * @default output processOutput()
 * @default host the process's own: process.env, process.cwd(), process.stdout.columns, SIGINT and SIGTERM
 */
export async function main(argv: string[], output: Output = processOutput(), host: Partial<Host> = {}): Promise<number> {
  const world: Host = { ...processHost(), ...host };
  // Secrets given on the command line or in the environment are scrubbed from everything printed.
  output.addSecrets(world.env.PHONEWRIGHT_PASSWORD, flagValue(argv, '--password'));
  try {
    // Given a callback, yargs hands over what `--help` and `--version` print instead of writing to the console.
    await buildParser(argv, output, world).parseAsync(argv, {}, (_error, _argv, text) => {
      if (text) output.line(text);
    });
    return 0;
  } catch (error) {
    const message = isPhonewrightError(error) ? error.message : `unexpected error: ${(error as Error)?.stack ?? String(error)}`;
    output.note(`phonewright: ${output.clean(message).replace(/\s*\n\s*/g, ' ')}`);
    return exitCodeFor(error);
  }
}

/**
 * The root parser: global options, one module per command, strict, with one failure handler.
 * @param argv the arguments after `phonewright`
 * @param output where the commands write
 * @param host where they run
 * @default host processHost()
 */
export function buildParser(argv: string[], output: Output, host: Host = processHost()): Argv<GlobalOptions> {
  const modules = COMMANDS.map((make) => make(output, host));
  const names = modules.map((m) => String(m.command).split(' ')[0]!);
  let parser = yargs(argv, host.cwd)
    .scriptName('phonewright')
    .usage(USAGE)
    .options(GLOBAL_OPTIONS)
    .group([...Object.keys(GLOBAL_OPTIONS), 'help', 'version'], 'Every command:')
    .env(false)
    .strict()
    .demandCommand(1, 'name a command')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    // `--help` and `--version` print and return; the exit code is main's to give.
    .exitProcess(false)
    .version(VERSION)
    .wrap(Math.min(110, host.columns || 100))
    .example('$0 pixel main 100 100', 'a pixel of the embedded simulator\'s main phone (no server needed)')
    .example('PHONEWRIGHT_URL=http://10.0.0.5:8090 PHONEWRIGHT_PASSWORD=… $0 doctor', 'check a real server step by step')
    .epilogue(EPILOGUE)
    .fail((message, error) => {
      // A handler's error comes through as `error`; yargs reports its own usage errors with a message.
      if (error) throw error;
      throw usageError(message ?? 'bad usage', argv, names);
    }) as unknown as Argv<GlobalOptions>;
  for (const module of modules) parser = parser.command(module);
  return parser;
}

const USAGE = `$0 <command> [options]

Playwright Test for phones on a device-control server. Every command works against the embedded
simulator when no server is configured; "$0 <command> --help" explains one command.`;

const EPILOGUE = `Configuration, highest precedence first: the flags above; the environment (PHONEWRIGHT_URL, PHONEWRIGHT_USER, PHONEWRIGHT_PASSWORD, PHONEWRIGHT_API_ROOT, PHONEWRIGHT_SERVER); phonewright.config.json in the working folder (or the file PHONEWRIGHT_CONFIG names), whose servers name the environment variable holding their password ("passwordEnv"). Nothing set: the embedded simulator.
--json prints one JSON document on stdout and nothing else there; messages and errors go to stderr. Passwords and tokens are never printed (only "login --show-token" prints the token).
Exit codes: 0 success; 1 the service answered with a failure, or a check failed; 2 bad usage or input; 3 authentication failed; 4 server unreachable or timed out.`;

/** Turns a yargs complaint into a usage error that says what to do: the command's help, or the command meant. */
function usageError(message: string, argv: string[], commands: string[]): UsageError {
  const first = argv.find((a) => !a.startsWith('-'));
  const meant = /^Did you mean (.+)\?$/.exec(message)?.[1];
  if (meant) return new UsageError(`unknown command "${first}"; did you mean "${meant}"?`, { hint: `phonewright ${meant} --help, or phonewright --help for every command` });
  if (first !== undefined && !commands.includes(first) && message.startsWith('Unknown argument')) {
    return new UsageError(`unknown command "${first}"`, { hint: `phonewright --help lists the commands: ${commands.join(', ')}` });
  }
  const help = first !== undefined && commands.includes(first) ? `phonewright ${first} --help` : 'phonewright --help';
  return new UsageError(message.replace(/^./, (c) => c.toLowerCase()), { hint: help });
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
