import { statSync } from 'node:fs';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { UsageError } from '../../core/errors.js';
import { wholeNumber } from '../args.js';
import { stopSignal, type Host } from '../context.js';
import { defineCommand } from '../define.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface ReviewArgs extends GlobalOptions {
  report: string;
  root?: string;
  port?: string;
  static?: string;
}

const EPILOGUE = `The page lists every failed region, image and pixel check of the run (reports/results.json, as the last run, a nightly or phonewright merge left it), grouped by test and phone, with the phone's screen at the failure and, where the test was filmed (phoneVideo), its film beside it from 3 s before the failing step, the steps listed to seek by. Each failure shows side by side, as a slider, blinking, or as a ΔE00 heat map, zoomed with crisp pixels; j and k move through the queue, a accepts, r rejects.
Accept writes a region's sample as its golden where the run looks (as phonewright approve does), or a pixel check's colour into its spec line where the line writes it; it never writes a file twice, nor a golden newer than the run (a stale run: run the specs again). It writes only under the root (--root, default the working folder), never where the report says the run was: a run made in another folder of this machine, or whose tests lie outside the root, is reviewed read-only (the page shows it, Accept is off and says why); a CI report's paths are taken relative to its rootDir, from the root. Reject keeps the failure as reviewed in review.json beside the report: a later run that fails the same way shows it rejected. The page lists the files written and what git says of them. It listens on 127.0.0.1 only, and every request needs the token of the printed URL. Runs until Ctrl-C.
--static DIR writes the same page as files without the decisions, to publish beside the HTML report (reports/html/review, where nightly.md and the trend page link to it).
Exit codes: 0 served until stopped, or written; 2 no run to review, a file that is not a report, a port in use.`;

/** `phonewright review [--report DIR] [--root DIR] [--port N] [--static DIR]`: the run's visual failures, to accept or reject. */
export function reviewCommand(output: Output, host: Host): CommandModule<GlobalOptions, ReviewArgs> {
  return defineCommand<ReviewArgs>({
    command: 'review',
    describe: 'Review the visual failures of a run in the browser: accept a change as the golden, or reject it',
    options: {
      report: { type: 'string', default: 'reports', describe: 'The folder of the run\'s reports: results.json, html/ (the last run, a nightly\'s, a merged one)' },
      root: { type: 'string', describe: 'The project\'s folder, where Accept writes goldens and specs; never one the report names [default: the working folder]' },
      port: { type: 'string', describe: 'The port to serve the page on, on 127.0.0.1 [default: a free one]' },
      static: { type: 'string', describe: 'Write the page as files into this folder instead, without the decisions (for CI)' },
    },
    examples: [
      ['$0 review', 'the last run; prints "Review: http://127.0.0.1:PORT/?token=…": open it in a browser'],
      ['$0 review --report nightly-reports --port 9401', 'a downloaded nightly\'s reports, on a port of your choice'],
      ['$0 review --root ../app --report ../app/reports', 'the run of another folder, written there'],
      ['$0 review --static reports/html/review', 'the page for CI, inside the HTML report it is published with'],
    ],
    epilogue: EPILOGUE,
    handler: async (args) => {
      const port = args.port === undefined ? 0 : wholeNumber('--port', args.port, 0, 65_535, 'phonewright review --port 9401');
      const reports = path.resolve(host.cwd, args.report);
      const root = rootOf(host.cwd, args.root);
      const shown = (file: string) => path.relative(host.cwd, file) || '.';
      const [{ readVisualRun }, { Review }, { Decisions, DECISIONS_FILE }] = await Promise.all([
        import('../../report/visual-failures.js'),
        import('../../web/review/review.js'),
        import('../../web/review/decisions.js'),
      ]);
      const run = readVisualRun(path.join(reports, 'results.json'), root);
      const decisions = Decisions.load(path.join(reports, DECISIONS_FILE));
      if (run.madeElsewhere) output.note(`review: the run was made in ${run.madeElsewhere}; its specs and goldens are taken from ${shown(run.files.root)}`);
      if (run.files.readOnly && args.static === undefined) output.note(`review: read-only, Accept writes nothing: ${run.files.readOnly}`);
      if (args.static !== undefined) {
        const { writeStaticReview } = await import('../../web/review/static.js');
        const written = await writeStaticReview(new Review(run, decisions, host.cwd), path.resolve(host.cwd, args.static), path.join(reports, 'html'));
        if (args.json) output.json({ page: shown(written.index), failures: written.failures });
        else output.line(`wrote ${shown(written.index)} (${written.failures} visual failure${written.failures === 1 ? '' : 's'})`);
        return;
      }
      const { startReview } = await import('../../web/review/server.js');
      const server = await startReview(new Review(run, decisions, host.cwd), port, output.clean);
      const watch = stopSignal(host.signal);
      try {
        // The page's own token is printed on purpose, where a server's would be masked.
        if (args.json) output.json({}, { url: server.url });
        else output.line(`Review: ${server.url}`, [server.url]);
        const n = run.failures.length;
        output.note(`reviewing ${n} visual failure${n === 1 ? '' : 's'} of ${shown(run.file)}, decisions in ${shown(decisions.file)}; Ctrl-C to stop`);
        await new Promise<void>((resolve) => (watch.signal.aborted ? resolve() : watch.signal.addEventListener('abort', () => resolve(), { once: true })));
      } finally {
        watch.dispose();
        await server.close();
      }
    },
  });
}

/** The folder Accept writes in: `--root`, or the working folder; one that is not a folder is refused before anything is read. */
function rootOf(cwd: string, typed: string | undefined): string {
  if (typed === undefined) return cwd;
  const root = path.resolve(cwd, typed);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${JSON.stringify(typed)} is not a folder`, { hint: 'give the folder of the project whose run this is' });
  return root;
}
