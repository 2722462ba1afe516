// Locators as data: the engine query each becomes, the text a locator finds among the words read from a screen
// (shortest runs, spaces and case aside, a misread letter in six said as a distance), and never a text that is
// not there.
import { checkLocator, describeLocator, engineQuery, findText, textMatches, type ReadLine } from '../../src/core/locator.js';
import { expect, test } from '../helpers/test.js';

/** A line of words as OCR gives them: each word 10 px wide per letter, a space of 10 between. */
function line(y: number, ...words: string[]): ReadLine {
  let x = 0;
  return {
    words: words.map((text) => {
      const word = { text, x, y, width: text.length * 10, height: 20 };
      x += word.width + 10;
      return word;
    }),
  };
}

const SCREEN = [line(20, '12:30'), line(100, 'Welcome', 'back'), line(200, 'Email'), line(300, 'Password'), line(500, 'Signin'), line(600, 'Forgot', 'password?', 'Terms', 'of', 'service')];

const FINDS: [string, string | RegExp, boolean, string[], number[]][] = [
  ['a whole line', 'Welcome back', true, ['Welcome back'], [0]],
  ['a word of a line, as a substring', 'welcome', false, ['Welcome'], [0]],
  ['words run together by the OCR', 'Sign in', true, ['Signin'], [0]],
  ['a word across lines of the same word', 'password', false, ['Password', 'password?'], [0, 0]],
  ['exact: case counts', 'password', true, [], []],
  ['a RegExp', /^Forgot/, false, ['Forgot'], [0]],
  ['a misread letter in a long text: a hit with its distance', 'Welcome bach', false, ['Welcome back'], [1]],
  ['exact takes no misread letter', 'Welcome bach', true, [], []],
  ['a text that is not there', 'Sign out', false, [], []],
  ['a short word one letter off is not taken', 'Emall', false, [], []],
  ['the time', '12:30', true, ['12:30'], [0]],
];

for (const [name, want, exact, reads, distances] of FINDS) {
  test(`findText: ${name}`, () => {
    const hits = findText(SCREEN, want, exact);
    expect(hits.map((h) => h.read)).toEqual(reads);
    expect(hits.map((h) => h.distance)).toEqual(distances);
  });
}

test('findText: the box of the words found', () => {
  const [hit] = findText([line(40, 'Forgot', 'password?', 'Terms')], 'password? Terms', true);
  expect(hit?.box).toEqual({ x: 70, y: 40, width: 150, height: 20 });
});

test('the engine query of each locator, and how it is written back in messages', () => {
  const cases: [Parameters<typeof engineQuery>[0], string | undefined, string][] = [
    [{ by: 'text', text: 'Sign in', exact: false }, 'T:*Sign in*', "getByText('Sign in')"],
    [{ by: 'text', text: 'OK', exact: true }, 'T:OK', "getByText('OK', { exact: true })"],
    [{ by: 'text', text: /^Sign/, exact: false }, 'T:*', 'getByText(/^Sign/)'],
    [{ by: 'description', text: 'Help', exact: false }, 'D:*Help*', "getByDescription('Help')"],
    [{ by: 'id', id: '.login' }, 'R:.login', "getById('.login')"],
    [{ by: 'id', id: 'com.example.app:id/login' }, 'R:com.example.app:id/login', "getById('com.example.app:id/login')"],
    [{ by: 'query', query: 'T:OK&&C:.Button' }, 'T:OK&&C:.Button', "getByQuery('T:OK&&C:.Button')"],
  ];
  for (const [q, query, described] of cases) {
    expect(engineQuery(checkLocator(q)), described).toBe(query);
    expect(describeLocator(q)).toBe(described);
  }
});

test('an element\'s text matches as the locator asks: a substring ignoring case and spaces, exact, or a RegExp', () => {
  expect(textMatches({ by: 'text', text: 'sign in', exact: false }, 'Sign In now')).toBe(true);
  expect(textMatches({ by: 'text', text: 'Sign in', exact: true }, 'Sign in now')).toBe(false);
  expect(textMatches({ by: 'text', text: /in$/, exact: false }, 'Sign in')).toBe(true);
});

test('bad locators are refused before anything is read, saying what to write', () => {
  const refused: [Parameters<typeof checkLocator>[0], RegExp][] = [
    [{ by: 'text', text: '', exact: false }, /^invalid text "": expected 1 to 500 characters, or a RegExp$/],
    [{ by: 'id', id: 'login' }, /^invalid resource id "login": expected com\.example\.app:id\/login, or \.login/],
    [{ by: 'query', query: 'Sign in' }, /^invalid query "Sign in": expected terms such as T:OK&&C:\.Button/],
  ];
  for (const [q, message] of refused) expect(() => checkLocator(q)).toThrow(message);
});
