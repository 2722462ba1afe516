// The draft as a spec file: the lines the page made, in order, as the body of one test. Pure.
import { UsageError } from '../core/errors.js';
import { literal } from './table.js';

/** Most lines a draft may hold: far more than a test reads well with. */
const MAX_LINES = 1_000;
const MAX_LINE = 2_000;

/** What a spec file is made of. */
export interface SpecDraft {
  /** The test's title. */
  title: string;
  /** The test's body, one statement a line, in order. */
  lines: readonly string[];
  /** What the spec imports `test` and `expect` from: `phonewright/fixtures`, or a path to the project's fixtures. */
  fixtures: string;
}

/**
 * A complete spec file: `test` and `expect` imported from the fixtures, one test holding the lines.
 * @param draft the title, the lines and where the fixtures are imported from
 */
export function specSource(draft: SpecDraft): string {
  const title = checkTitle(draft.title);
  const lines = checkLines(draft.lines);
  return [
    `import { test, expect } from '${draft.fixtures}';`,
    '',
    '// Drafted with phonewright inspect: the lines in the order they were made.',
    `test(${literal(title)}, async ({ device }) => {`,
    ...lines.map((l) => `  ${l.trim()}`),
    '});',
    '',
  ].join('\n');
}

function checkTitle(title: unknown): string {
  const text = typeof title === 'string' ? title.trim() : '';
  if (!text || text.length > 200) throw new UsageError('the test needs a title of 1 to 200 characters', { hint: 'e.g. home screen shows the dock' });
  return text;
}

function checkLines(lines: unknown): string[] {
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'string' || /[\r\n\u2028\u2029]/.test(l) || l.length > MAX_LINE)) {
    throw new UsageError('the draft must be a list of lines of code, one statement a line');
  }
  if (lines.length === 0) throw new UsageError('the draft is empty', { hint: 'click a point or drag a region on the phone first' });
  if (lines.length > MAX_LINES) throw new UsageError(`the draft holds ${lines.length} lines, more than ${MAX_LINES}`, { hint: 'split it into several tests' });
  return lines as string[];
}
