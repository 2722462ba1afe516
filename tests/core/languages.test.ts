// A text as the OCR engine can read it (asReadable): each letter its alphabet lacks written as the letters it reads
// there instead, everything else as written. The alphabet here is a small one of the tests' own: A–Z, a–z, é and
// ü, and two Chinese characters.
import { asReadable, checkLanguages, readsCharacter } from '../../src/core/languages.js';
import { UsageError } from '../../src/core/errors.js';
import { expect, test } from '../helpers/test.js';

const ALPHABET = new Set([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzéü设置']);
const has = (c: string) => ALPHABET.has(c);

const CASES: [asked: string, readable: string][] = [
  ['Schön', 'Schon'],
  ['Straße', 'Strasse'],
  ['Mañana', 'Manana'],
  ['São Paulo', 'Sao Paulo'],
  ['ÊTRE', 'ETRE'],
  ['cœur', 'coeur'],
  ['Œuvre', 'OEuvre'],
  ['Æsir', 'AEsir'],
  ['encyclopædia', 'encyclopaedia'],
  // Letters the alphabet holds stay: é and ü are read as themselves.
  ['Café', 'Café'],
  ['Übersicht über', 'Ubersicht über'],
  // Not letters: digits, spaces, marks and symbols are as written, held or not.
  ['12:30 · 5 €', '12:30 · 5 €'],
  ['Sign in', 'Sign in'],
  // A Chinese character the alphabet lacks has no letters to stand for it: as written.
  ['快速设置', '快速设置'],
  ['', ''],
];

for (const [asked, readable] of CASES) {
  test(`asReadable: ${JSON.stringify(asked)} is asked as ${JSON.stringify(readable)}`, () => {
    expect(asReadable(asked, has)).toBe(readable);
  });
}

test('readsCharacter: A–Z and every non-letter always; a language\'s own letters and Chinese characters only with it', () => {
  expect(readsCharacter(['en'], 'Q')).toBe(true);
  expect(readsCharacter(['en'], '7')).toBe(true);
  expect(readsCharacter(['en'], '€')).toBe(true);
  expect(readsCharacter(['en'], 'é')).toBe(false);
  expect(readsCharacter(['fr'], 'é')).toBe(true);
  expect(readsCharacter(['fr'], 'É')).toBe(true);
  expect(readsCharacter(['de'], 'ß')).toBe(true);
  expect(readsCharacter(['de'], 'ñ')).toBe(false);
  expect(readsCharacter(['en', 'fr'], '设')).toBe(false);
  expect(readsCharacter(['zh'], '设')).toBe(true);
});

test('checkLanguages: the codes each once; anything else a usage error naming it, what named it and the codes', () => {
  expect(checkLanguages(['en', 'de', 'en'], 'the test')).toEqual(['en', 'de']);
  const refused = (value: unknown) => {
    try {
      checkLanguages(value, 'the test');
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(value)}`);
  };
  expect(refused(['en', 'jp'])).toBe('invalid language "jp" in the test: phonewright\'s OCR model reads en, zh, fr, de, es, it, pt, nl; try: name languages by these ISO 639-1 codes; a language in another script has no model installed');
  expect(refused([])).toBe('invalid languages in the test: expected a list of language codes, e.g. ["en", "zh"]; try: phonewright reads en, zh, fr, de, es, it, pt, nl');
  expect(refused('en')).toMatch(/^invalid languages in the test: expected a list/);
});
