import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { withClient, type Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import { TIMEOUT_OPTION } from '../timeout.js';
import type { Output } from '../output.js';

interface LoginArgs extends GlobalOptions {
  timeout?: string;
  // Named as declared: the handler also gets it camel-cased, as `showToken`.
  'show-token': boolean;
}

/** `phonewright login`: checks the credentials; the token is printed only when asked for. */
export function loginCommand(output: Output, host: Host): CommandModule<GlobalOptions, LoginArgs> {
  return defineCommand({
    command: 'login',
    describe: 'Log in to the server and check the credentials',
    options: {
      'show-token': { type: 'boolean', default: false, describe: 'Also print the token (the only command that ever prints it)' },
      ...TIMEOUT_OPTION,
    },
    examples: [
      ['$0 login --url http://10.0.0.5:8090 --user sigma', 'exit 0 when the server accepts the credentials, 3 when it refuses them'],
      ['$0 login --json --show-token', 'prints {"ok":true,"user":"sigma","token":"…"}, e.g. for curl'],
    ],
    epilogue: 'The password comes from --password, PHONEWRIGHT_PASSWORD or the passwordEnv variable a server of phonewright.config.json names; it is never printed.',
    handler: (args) =>
      withClient(args, output, host, async (ctx) => {
        const token = await ctx.client.login();
        const user = ctx.client.user;
        if (args.json) output.json({ ok: true, user }, args.showToken ? { token } : undefined);
        else {
          output.line(`logged in to ${ctx.client.url} as ${user}`);
          if (args.showToken) output.line(`token: ${token}`);
        }
      }),
  });
}
