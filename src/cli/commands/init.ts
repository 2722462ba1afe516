import type { CommandModule } from 'yargs';
import { UsageError } from '../../core/errors.js';
import type { Host } from '../context.js';
import { defineCommand } from '../define.js';
import { checkAnswers, initFolder, type InitAnswers } from '../init-plan.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface InitArgs extends GlobalOptions {
  'password-env'?: string;
  yes: boolean;
  agents: boolean;
}

const EPILOGUE = `Writes, in the working folder: playwright.config.ts (the device matrix: one Playwright project per phone; the HTML, JSON and JUnit reports and phonewright's summary and history), phonewright.config.json (the server given, or none: the embedded simulator), specs/example.spec.ts (importing phonewright/fixtures), the .gitignore lines for node_modules/, reports/, test-results/ and .phonewright/, and .github/workflows/phonewright-nightly.yml. A file that is there is never replaced: init says which it left alone. A password is never written: --password-env names the variable that holds it.
--url, --user, --api-root and --server (its name; default lab) describe the server written into phonewright.config.json.
On a terminal, init asks for what the flags did not give (the server's URL, empty for the embedded simulator; its user; its password variable); --yes asks nothing. Then npx playwright test runs the matrix, as in any Playwright project (--list, --ui, the VS Code extension).
Exit codes: 0 done (files written, or all there already); 2 bad input (nothing is written).`;

/** `phonewright init`: sets up a team's own repository to run phonewright. */
export function initCommand(output: Output, host: Host): CommandModule<GlobalOptions, InitArgs> {
  return defineCommand({
    command: 'init',
    describe: 'Set up this folder: a Playwright config with the device matrix, phonewright.config.json, an example spec, CI',
    options: {
      'password-env': { type: 'string', describe: 'The environment variable that holds the server\'s password (never the password itself)' },
      agents: { type: 'boolean', default: false, describe: 'Also set up coding agents: .vscode/mcp.json (npx phonewright mcp) and a section of AGENTS.md on writing phonewright specs' },
      yes: { type: 'boolean', default: false, alias: 'y', describe: 'Ask nothing: the flags given, and the embedded simulator without --url' },
    },
    examples: [
      ['$0 init --yes', 'the embedded simulator\'s phones; then npx playwright test'],
      ['$0 init --url http://10.0.0.5:8090 --user sigma --password-env LAB_PASSWORD', 'a server of your own; then npx phonewright doctor'],
    ],
    epilogue: EPILOGUE,
    handler: async (args) => {
      if (args.password !== undefined) {
        throw new UsageError('init writes no password', { hint: 'name the environment variable that holds it: --password-env LAB_PASSWORD' });
      }
      const given: InitAnswers = { url: args.url, user: args.user, passwordEnv: args['password-env'], apiRoot: args.apiRoot, name: args.server };
      const answers = host.ask && !args.yes ? await askFor(given, host.ask) : given;
      const result = await initFolder(host.cwd, checkAnswers(answers), host.env, args.agents);
      if (args.json) {
        output.json({ written: result.written.map((w) => w.file), kept: result.kept.map((k) => k.file), next: result.next });
        return;
      }
      const width = Math.max(...[...result.written, ...result.kept].map((f) => f.file.length));
      for (const w of result.written) output.line(`wrote  ${w.file.padEnd(width)}  ${w.what}`);
      for (const k of result.kept) output.line(`kept   ${k.file.padEnd(width)}  ${k.why}`);
      output.line('');
      output.line('Next:');
      for (const command of result.next) output.line(`  ${command}`);
    },
  });
}

/** Asks for what the flags did not give: the server's URL (none: the embedded simulator), then its user and password variable. */
async function askFor(given: InitAnswers, ask: (question: string) => Promise<string>): Promise<InitAnswers> {
  const answers = { ...given };
  answers.url ??= await ask('Server URL, e.g. http://10.0.0.5:8090 (empty: the embedded simulator): ');
  if (!answers.url) return answers;
  answers.user ??= (await ask('User (empty: sigma): ')) || undefined;
  answers.passwordEnv ??= (await ask('Environment variable that holds the password (empty: PHONEWRIGHT_PASSWORD, when set): ')) || undefined;
  return answers;
}
