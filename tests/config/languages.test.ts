// "languages" in phonewright.config.json: the languages of the text on the phones' screens. A code the OCR model
// does not read is refused when the file is read, before any run, in one line naming it and the codes it reads.
import { readFileSync } from 'node:fs';
import { LANGUAGE_CODES } from '../../src/core/languages.js';
import { expect, test } from '../helpers/test.js';
import { parse, refusal, SOURCE } from './refusal.js';

const READS = 'expected a language phonewright\'s OCR model reads: en, zh, fr, de, es, it, pt or nl';
const LIST = 'expected a non-empty array of language codes, e.g. ["en", "de"]';

const REFUSALS: [name: string, json: unknown, message: string][] = [
  ['a language the model does not read', { languages: ['en', 'jp'] }, `languages[1]: "jp": ${READS}`],
  ['a language written out', { languages: ['German'] }, `languages[0]: "German": ${READS}`],
  ['a code in capitals', { languages: ['EN'] }, `languages[0]: "EN": ${READS}`],
  ['a code that is a number', { languages: [1] }, `languages[0]: 1: ${READS}`],
  ['no language', { languages: [] }, `languages: ${LIST}`],
  ['one code, not a list', { languages: 'en' }, `languages: ${LIST}`],
];

for (const [name, json, message] of REFUSALS) {
  test(`refused in one line: ${name}`, () => {
    expect(refusal(json)).toBe(`${SOURCE}: ${message}`);
  });
}

test('the languages are read from the file, each once; without the key, none are named (the default: all)', () => {
  expect(parse({ languages: ['en', 'de', 'en'] }).languages).toEqual(['en', 'de']);
  expect(parse({ url: 'http://10.0.0.5:8090', languages: ['zh'] }).languages).toEqual(['zh']);
  expect(parse({}).languages).toBeUndefined();
});

test('the schema names the codes the OCR model reads, in the order a message lists them', () => {
  const schema = JSON.parse(readFileSync(new URL('../../config.schema.json', import.meta.url), 'utf8')) as { properties: { languages: { items: { enum: string[] } } } };
  expect(schema.properties.languages.items.enum).toEqual([...LANGUAGE_CODES]);
});
