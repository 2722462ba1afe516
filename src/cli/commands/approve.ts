import path from 'node:path';
import type { CommandModule } from 'yargs';
import { defineCommand } from '../define.js';
import { UsageError } from '../../core/errors.js';
import { findApprovals, movedInReport, readReport } from '../../report/approvals.js';
import { movedGoldenLine } from '../../report/moved-goldens.js';
import { RunFiles } from '../../report/run-files.js';
import type { Host } from '../context.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';

interface ApproveArgs extends GlobalOptions {
  project?: string[];
  grep?: string;
  'dry-run': boolean;
  report: string;
}

const EPILOGUE = `After a deliberate change to the app's screens: the last run's region checks failed where the screen changed. approve takes each failed toMatchRegion's last sample (the "-actual.png" of the report) as its golden, listing every golden it writes; review them with git diff before you commit. Nothing is run again.
A golden left under a phone's former project name (two servers came to name phones alike, so its project is now <server>-<phone>) is named in one warning line, with where the project looks for it now.
Exit codes: 0 written, or nothing to approve; 2 no last run, or a golden whose spec is gone from the project (nothing is written then).`;

/** `phonewright approve`: takes the last run's failed region samples as the goldens. */
export function approveCommand(output: Output, host: Host): CommandModule<GlobalOptions, ApproveArgs> {
  return defineCommand({
    command: 'approve',
    describe: 'Take the failed region checks of the last run as their goldens',
    options: {
      project: { type: 'string', array: true, describe: 'Only this phone\'s project (repeat for several)' },
      grep: { type: 'string', describe: 'Only tests whose "file › title" matches this regular expression' },
      'dry-run': { type: 'boolean', default: false, describe: 'List the goldens approve would write, write none' },
      report: { type: 'string', default: 'reports/results.json', describe: 'The last run\'s JSON report' },
    },
    examples: [
      ['$0 approve --dry-run', 'lists the goldens the last run would replace'],
      ['$0 approve --project galaxy-s9 --grep "status bar"', 'approves one phone\'s status-bar goldens'],
    ],
    epilogue: EPILOGUE,
    handler: async (args) => {
      let grep: RegExp | undefined;
      try {
        grep = args.grep === undefined ? undefined : new RegExp(args.grep);
      } catch (e) {
        throw new UsageError(`invalid --grep ${JSON.stringify(args.grep)}: ${(e as Error).message}`, { hint: 'a JavaScript regular expression, e.g. --grep "status bar"' });
      }
      const report = path.resolve(host.cwd, args.report);
      const approvals = findApprovals(report, { projects: args.project, grep });
      // Every golden is checked before any is written (a golden of a spec of the run, in its folder here), then all
      // are written at once, each atomically (src/report/run-files.ts, as phonewright review writes them).
      const files = new RunFiles(readReport(report), host.cwd);
      if (files.readOnly && approvals.length) throw new UsageError(`approve: nothing written: ${files.readOnly}`, { hint: 'run phonewright approve in the folder the specs ran in' });
      const writes = approvals.map((a) => ({ file: files.golden(a.golden), content: a.actual }));
      const shown = (file: string) => path.relative(host.cwd, file);
      // Goldens under a phone's former project name, found and told before any is written under the new one (on
      // stderr): once one is written there, the old one no longer counts as moved.
      const moved = movedInReport(report).filter((m) => !args.project?.length || args.project.includes(m.project));
      for (const m of moved) output.note(`approve: ${movedGoldenLine(m, host.cwd)}`);
      if (!args['dry-run']) await files.write(writes);
      if (args.json) {
        output.json({
          written: args['dry-run'] ? [] : approvals.map((a) => shown(a.golden)),
          approvals: approvals.map((a) => ({ project: a.project, test: a.test, golden: shown(a.golden) })),
          ...(moved.length ? { moved: moved.map((m) => ({ project: m.project, from: shown(m.from), to: shown(m.to) })) } : {}),
        });
      }
      if (!approvals.length) {
        if (!args.json) output.line(`approve: nothing to approve: no failed region check${args.project || grep ? ' matches' : ''} in ${shown(report)}`);
        return;
      }
      for (const a of approvals) {
        if (!args.json) output.line(`${args['dry-run'] ? 'would write' : 'wrote'} ${shown(a.golden)}  (${a.project} › ${a.test})`);
      }
      if (!args.json) output.line(`approve: ${approvals.length} golden(s) ${args['dry-run'] ? 'to write (--dry-run: none written)' : 'written'}`);
    },
  });
}
