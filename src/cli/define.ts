import type { ArgumentsCamelCase, Argv, CommandModule, Options, PositionalOptions } from 'yargs';
import type { GlobalOptions } from './options.js';

/** A command as data: its usage, arguments, examples and the work; {@link defineCommand} makes the yargs module. */
export interface CommandSpec<A extends GlobalOptions> {
  /** Usage, e.g. `pixel <device> <x> <y>`. */
  command: string;
  describe: string;
  positionals?: Record<string, PositionalOptions>;
  options?: Record<string, Options>;
  /** Hand unknown options on (`test` and `nightly` give them to Playwright). */
  passThrough?: boolean;
  /** [command line, what it does], shown under "Examples:". */
  examples: [string, string][];
  /** Shown at the end of `--help`: what the flags cannot say. */
  epilogue?: string;
  handler: (args: ArgumentsCamelCase<A>) => void | Promise<void>;
}

/** The yargs module of a command described as data: every command's help has the same parts in the same order. */
export function defineCommand<A extends GlobalOptions>(spec: CommandSpec<A>): CommandModule<GlobalOptions, A> {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: (y) => {
      // Each call configures the one parser and returns it.
      if (spec.passThrough) y.parserConfiguration({ 'unknown-options-as-args': true });
      for (const [name, positional] of Object.entries(spec.positionals ?? {})) y.positional(name, positional);
      y.options(spec.options ?? {});
      for (const [line, what] of spec.examples) y.example(line, what);
      if (spec.epilogue) y.epilogue(spec.epilogue);
      // yargs types the arguments as the builder declares them; the spec's A says the same in one type.
      return y as unknown as Argv<A>;
    },
    handler: spec.handler,
  };
}
