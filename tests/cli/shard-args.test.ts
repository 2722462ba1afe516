// `--shard i/n` as phonewright takes it out of Playwright's arguments: whole phones per shard. A malformed one,
// or a second one (which would split this shard's phones again and leave tests to no shard), is refused.
import { expect, test } from '../helpers/test.js';
import { takeShardArg } from '../../src/cli/shard.js';
import { isPhonewrightError } from '../../src/core/errors.js';

test('--shard i/n and --shard=i/n are taken out; the other arguments stay in order', () => {
  expect(takeShardArg(['--grep', 'x', '--shard', '2/3', '--retries', '1'])).toEqual({ shard: { index: 2, total: 3 }, rest: ['--grep', 'x', '--retries', '1'] });
  expect(takeShardArg(['--shard=1/1'])).toEqual({ shard: { index: 1, total: 1 }, rest: [] });
  expect(takeShardArg(['--grep', 'x'])).toEqual({ shard: undefined, rest: ['--grep', 'x'] });
});

for (const [what, args, message] of [
  ['past its total', ['--shard', '4/3'], '--shard 4/3: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3'],
  ['not i/n', ['--shard=half'], '--shard half: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3'],
  ['without a value', ['--shard'], '--shard : expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3'],
  ['given twice', ['--shard', '1/2', '--shard=2/2'], '--shard given twice: give one --shard i/n'],
] as const) {
  test(`--shard ${what} is refused with its line`, () => {
    let error: unknown;
    try {
      takeShardArg([...args]);
    } catch (e) {
      error = e;
    }
    expect(isPhonewrightError(error, 'PW_USAGE'), String(error)).toBe(true);
    expect((error as Error).message).toBe(message);
  });
}
