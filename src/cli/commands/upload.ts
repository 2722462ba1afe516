import path from 'node:path';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { parseUploadTarget } from '../../core/upload-target.js';
import { hostPath, withClient, type Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import { uploadProgress } from '../progress.js';

interface UploadArgs extends GlobalOptions {
  file: string;
  as: string;
}

/** `phonewright upload <file> --as <target>`: send one file to the server's storage. */
export function uploadCommand(output: Output, host: Host): CommandModule<GlobalOptions, UploadArgs> {
  return defineCommand({
    command: 'upload <file>',
    describe: 'Upload a file to the server (an app, a script, an image, contacts, or a folder)',
    positionals: {
      file: { type: 'string', demandOption: true, describe: 'The file to send (streamed from disk)' },
    },
    options: {
      as: { type: 'string', demandOption: true, describe: 'Where it goes: image, script, apk, tcbr/contacts, local/<folder> or local/<absolute path>/' },
    },
    examples: [
      ['$0 upload builds/app.apk --as apk --json', 'prints {"file_url":"http://10.0.0.5:8090/TotalControl/v1/storage/apk/1527558556026.apk"}'],
      ['$0 upload data.csv --as local/temp', 'prints the path on the server, e.g. C:/temp/1538104935363.csv'],
    ],
    epilogue: 'image, script, apk and tcbr/contacts answer with a URL (made absolute when the server gives a relative one); local/… answers with a path on the server machine. ' +
      'tcbr/contacts and local/… need server release 6.9.0 or later. A file of 8 MiB or more shows a progress bar on stderr when stderr is a terminal.',
    handler: (args) => {
      // The target is checked here and the file by the client, both before any network work.
      parseUploadTarget(args.as);
      return withClient(args, output, host, async (ctx) => {
        const bar = uploadProgress(output, path.basename(args.file));
        let result;
        try {
          result = await ctx.client.upload(hostPath(host, args.file), args.as, { signal: ctx.signal, onProgress: (sent, total) => bar.update(sent, total) });
        } finally {
          bar.done();
        }
        if (args.json) output.json({ file_url: result.fileUrl });
        else output.line(`stored ${args.file} as ${args.as}: ${result.fileUrl}`);
      });
    },
  });
}
