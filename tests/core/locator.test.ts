// Locators as data: the engine query each becomes, and how a text is found among the lines read from a screen, as
// Playwright's getByText finds it among elements: a substring (case and spaces aside) boxed by its own characters,
// the whole line when exact, a misread letter in six only where nothing reads exactly and never a digit, and never
// a text that is not there.
import { findText, type ReadLine } from '../../src/core/find-text.js';
import { checkLocator, describeLocator, engineQuery, textMatches } from '../../src/core/locator.js';
import { expect, test } from '../helpers/test.js';

/** A line of words as OCR gives them: each word 10 px wide per character, a space of 10 between. */
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

/** A screen of lines, one word per space of each text, 100 px apart. */
const screen = (...texts: string[]) => texts.map((t, i) => line(i * 100, ...t.split(' ')));

const SIGN_IN = [line(20, '12:30'), line(100, 'Welcome', 'back'), line(200, 'Email'), line(300, 'Password'), line(500, 'Signin'), line(600, 'Forgot', 'password?', 'Terms', 'of', 'service')];
/** A Chinese settings line as PaddleOCR gives it: a run of characters is one word. */
const CHINESE = [line(0, '快速设置'), line(100, '在', 'Android', '4.4', '及以下系统无效')];

/** name, the lines read, the text asked, exact, then each hit as read and its distance, top to bottom. */
const FINDS: [string, ReadLine[], string | RegExp, boolean, [string, number][]][] = [
  ['a whole line', SIGN_IN, 'Welcome back', true, [['Welcome back', 0]]],
  ['a word of a line, as a substring', SIGN_IN, 'welcome', false, [['Welcome', 0]]],
  ['words run together by the OCR', SIGN_IN, 'Sign in', true, [['Signin', 0]]],
  ['every line it is in, its own characters only', SIGN_IN, 'password', false, [['Password', 0], ['password', 0]]],
  ['part of a word and of the next', SIGN_IN, 'got pass', false, [['got pass', 0]]],
  ['exact: case counts', SIGN_IN, 'password', true, []],
  ['exact: the whole line, never a word of a longer one', screen('out: base 16, standard'), 'standard', true, []],
  ['exact: the line that is the text, not the longer one', screen('out: base 16, standard', 'standard'), 'standard', true, [['standard', 0]]],
  ['a substring is in the longer line too', screen('out: base 16, standard', 'standard'), 'standard', false, [['standard', 0], ['standard', 0]]],
  ['a RegExp', SIGN_IN, /^Forgot/, false, [['Forgot', 0]]],
  ['a capital I and a small l are one stroke in a phone font', screen('AII', 'Iist'), 'All', true, [['AII', 0]]],
  ['one stroke, as a substring too, and nothing else', screen('Show AII', 'Ali'), 'all', false, [['AII', 0]]],
  ['a RegExp is tested on the whole line', screen('out: base 16, standard'), /^standard$/, false, []],
  ['a RegExp across words', SIGN_IN, /password\? T/, false, [['password? T', 0]]],
  ['Chinese: part of a run of characters', CHINESE, '设置', false, [['设置', 0]]],
  ['Chinese: exact is the whole run', CHINESE, '设置', true, []],
  ['Chinese: the whole line, exact', CHINESE, '快速设置', true, [['快速设置', 0]]],
  ['Chinese among Latin, without spaces', CHINESE, 'Android 4.4及以下', false, [['Android 4.4 及以下', 0]]],
  ['a misread letter in a long text: a hit with its distance', SIGN_IN, 'Welcome bach', false, [['Welcome back', 1]]],
  ['a misread letter inside a longer line: its own characters', screen('Tap Welcome bsck to go on'), 'Welcome back', false, [['Welcome bsck', 1]]],
  ['a misread first letter', screen('Velcome back'), 'Welcome back', false, [['Velcome back', 1]]],
  ['a letter dropped inside', screen('Tap Sig in now'), 'Sign in', false, [['Sig in', 1]]],
  ['a last letter dropped where the line ends', screen('Open Setting'), 'Settings', false, [['Setting', 1]]],
  ['a last letter dropped where the line goes on is not taken', screen('Setting 2'), 'Settings', false, []],
  ['a misread never ends inside a word on another letter', screen('Setting Wi-Fi'), 'Settings', false, []],
  ['Chinese: a misread character inside a run', [line(0, '在', 'Android', '4.4', '及以下系統无效')], '以下系统无效', false, [['以下系統无效', 1]]],
  ['exact takes no misread letter', SIGN_IN, 'Welcome bach', true, []],
  ['a text read exactly anywhere wins over one read a letter off', screen('bijective B', 'bijective A'), 'bijective A', false, [['bijective A', 0]]],
  ['only the nearest misreads', screen('Welcome bock, Adu', 'Welcome bock, Ada'), 'Welcome back, Ada', false, [['Welcome bock, Ada', 1]]],
  ['two places read equally near: both, for the caller to refuse', screen('bijective B', 'bijective C'), 'bijective A', false, [['bijective B', 1], ['bijective C', 1]]],
  ['a digit is never misread', screen('bijective 1'), 'bijective A', false, []],
  ['a digit is never changed', screen('Updated at 09:06'), 'Updated at 09:08', false, []],
  ['a digit is never added', screen('Balance 1200 EUR'), 'Balance 120 EUR', false, []],
  ['a digit is never dropped', screen('Balance 12 EUR'), 'Balance 120 EUR', false, []],
  ['a text that is not there', SIGN_IN, 'Sign out', false, []],
  ['a short word one letter off is not taken', SIGN_IN, 'Emall', false, []],
  ['the time', SIGN_IN, '12:30', true, [['12:30', 0]]],
];

for (const [name, lines, want, exact, hits] of FINDS) {
  test(`findText: ${name}`, () => {
    expect(findText(lines, want, exact).map((h) => [h.read, h.distance])).toEqual(hits);
  });
}

/** name, the lines read, the text asked, exact, the box of its one hit. */
const BOXES: [string, ReadLine[], string, boolean, { x: number; y: number; width: number; height: number }][] = [
  ['a whole line', [line(40, 'Forgot', 'password?', 'Terms')], 'Forgot password? Terms', true, { x: 0, y: 40, width: 220, height: 20 }],
  ['words of a line', [line(40, 'Forgot', 'password?', 'Terms')], 'password? Terms', false, { x: 70, y: 40, width: 150, height: 20 }],
  ['part of a word and of the next', [line(40, 'Forgot', 'password?')], 'got pass', false, { x: 30, y: 40, width: 80, height: 20 }],
  ['part of a Chinese run', CHINESE, '设置', false, { x: 20, y: 0, width: 20, height: 20 }],
  ['a word with a space inside, as one token', [line(0, 'Sign in')], 'in', false, { x: 50, y: 0, width: 20, height: 20 }],
  ['a misread', screen('Tap Welcome bsck to go on'), 'Welcome back', false, { x: 40, y: 0, width: 120, height: 20 }],
];

for (const [name, lines, want, exact, box] of BOXES) {
  test(`findText: the box of ${name}`, () => {
    const hits = findText(lines, want, exact);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.box).toEqual(box);
  });
}

test('findText: a hit says the whole line it is on, and leaves the RegExp asked alone', () => {
  const re = /pass/g;
  re.lastIndex = 3;
  const hits = findText(SIGN_IN, re);
  expect(hits.map((h) => h.line)).toEqual(['Forgot password? Terms of service']);
  expect(re.lastIndex).toBe(3);
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
