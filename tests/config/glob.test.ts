// The globs of `testMatch` and `testIgnore` in phonewright.config.json, as the regular expressions a phone's
// project is given: matched against absolute paths of the platform, relative to the file's folder.
import { globsRegExp, outsideGlobs } from '../../src/config/glob.js';
import { expect, test } from '../helpers/test.js';

const DIR = '/home/qa/app';

/** glob, a file relative to DIR, whether the glob names it. */
const MATCHES: [glob: string, file: string, matches: boolean][] = [
  ['specs/tc', 'specs/tc/home.spec.ts', true],
  ['specs/tc', 'specs/tc/deep/home.spec.ts', true],
  ['specs/tc', 'specs/tcx/home.spec.ts', false],
  ['specs/tc/', 'specs/tc/home.spec.ts', true],
  ['specs/*.spec.ts', 'specs/home.spec.ts', true],
  ['specs/*.spec.ts', 'specs/tc/home.spec.ts', false],
  ['specs/**/home.spec.ts', 'specs/home.spec.ts', true],
  ['specs/**/home.spec.ts', 'specs/a/b/home.spec.ts', true],
  ['**/*.tc.spec.ts', 'specs/a/login.tc.spec.ts', true],
  ['**/*.tc.spec.ts', 'specs/a/login.spec.ts', false],
  ['specs/**', 'specs/home.spec.ts', true],
  ['specs/**', 'specsx/home.spec.ts', false],
  ['specs/{tc,lab}/*.spec.ts', 'specs/lab/home.spec.ts', true],
  ['specs/{tc,lab}/*.spec.ts', 'specs/lab2/home.spec.ts', false],
  ['specs/home?.spec.ts', 'specs/home2.spec.ts', true],
  ['specs/home?.spec.ts', 'specs/home/.spec.ts', false],
  ['specs/[ab]*.spec.ts', 'specs/a1.spec.ts', true],
  ['specs/[!ab]*.spec.ts', 'specs/a1.spec.ts', false],
  ['specs/[!ab]*.spec.ts', 'specs/c1.spec.ts', true],
  // `.` and `+` are themselves, not a regular expression's.
  ['specs/a+b.spec.ts', 'specs/aab.spec.ts', false],
  ['specs/a+b.spec.ts', 'specs/a+b.spec.ts', true],
  ['specs/home.spec.ts', 'specs/homeXspec.ts', false],
  // Relative to the file's folder, not anywhere in the path (Playwright's own string globs are `**/`-prefixed).
  ['specs/tc', 'other/specs/tc/home.spec.ts', false],
];

for (const [glob, file, matches] of MATCHES) {
  test(`glob ${glob} ${matches ? 'names' : 'does not name'} ${file}`, () => {
    expect(globsRegExp(DIR, [glob]).test(`${DIR}/${file}`)).toBe(matches);
    expect(outsideGlobs(DIR, [glob]).test(`${DIR}/${file}`)).toBe(!matches);
  });
}

test('several globs: any of them; a Windows path of the same folder matches too', () => {
  const re = globsRegExp('C:\\qa\\app', ['specs/tc', 'specs/*.lab.spec.ts']);
  expect(['specs\\tc\\a.spec.ts', 'specs\\b.lab.spec.ts', 'specs\\c.spec.ts'].map((f) => re.test(`C:\\qa\\app\\${f}`))).toEqual([true, true, false]);
});
