// The languages text is read in: each a code and the letters it writes. The OCR engine reads Chinese and the
// Latin alphabet in one model; naming languages narrows the letters it may read to theirs (a Latin-only team's
// screens never read as a Chinese character), and a text asked in letters the model cannot read (German ß, Spanish
// ñ) is matched by the letters it reads instead. Pure: no I/O.
import { UsageError } from './errors.js';

/** A language text is read in, by its ISO 639-1 code. */
export type Language = (typeof LANGUAGE_CODES)[number];

/** Every language the engine reads, in the order a message lists them. */
export const LANGUAGE_CODES = ['en', 'zh', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const;

/** Read when none are named: all of them, so English, Chinese and the Latin languages need no configuration. */
export const DEFAULT_LANGUAGES: readonly Language[] = LANGUAGE_CODES;

/** The letters each language writes beyond A–Z (Chinese: its characters, tested by script). */
const LETTERS: Record<Language, string> = {
  en: '',
  zh: '',
  fr: 'àâæçéèêëîïôœùûüÿ',
  de: 'äöüß',
  es: 'áéíñóúü',
  it: 'àèéìíîòóù',
  pt: 'áâãàçéêíóôõú',
  nl: 'éèëïóöü',
};

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

/**
 * Checks languages a spec or the config names: codes of {@link LANGUAGE_CODES}, at least one, each once.
 * @param where what named them, for the message (`the use option ocrLanguages`, `phonewright.config.json`)
 */
export function checkLanguages(languages: unknown, where: string): Language[] {
  if (!Array.isArray(languages) || languages.length === 0) throw new UsageError(`invalid languages in ${where}: expected a list of language codes, e.g. ["en", "zh"]`, { hint: `phonewright reads ${LANGUAGE_CODES.join(', ')}` });
  for (const code of languages) {
    if (!(LANGUAGE_CODES as readonly unknown[]).includes(code)) {
      throw new UsageError(`invalid language ${JSON.stringify(code)} in ${where}: phonewright's OCR model reads ${LANGUAGE_CODES.join(', ')}`, { hint: 'name languages by these ISO 639-1 codes; a language in another script has no model installed' });
    }
  }
  return [...new Set(languages as Language[])];
}

/** A set of languages as one string, the same whatever their order: a key for what was read in them. */
export function languagesKey(languages: readonly Language[]): string {
  return [...languages].sort().join(',');
}

/**
 * Whether a character may be read when `languages` are the screen's: every digit, mark and symbol; A–Z and the
 * named languages' letters; Chinese characters when Chinese is named.
 */
export function readsCharacter(languages: readonly Language[], c: string): boolean {
  if (!LETTER.test(c)) return true;
  if (/^[A-Za-z]$/.test(c)) return true;
  if (HAN.test(c)) return languages.includes('zh');
  const lower = c.toLowerCase();
  return languages.some((l) => LETTERS[l].includes(lower));
}

/**
 * A text as the engine can read it: each letter its alphabet lacks written as the letters it would read instead
 * (its accent dropped, ß as ss, œ as oe), so a text asked with them is matched against what is read.
 * @param has whether the engine's alphabet holds a character
 */
export function asReadable(text: string, has: (c: string) => boolean): string {
  let out = '';
  for (const c of text) out += has(c) || !LETTER.test(c) ? c : plain(c);
  return out;
}

/** A letter without its accent, or spelt out (ß → ss): what an alphabet without it reads there. */
function plain(c: string): string {
  const spelt: Record<string, string> = { ß: 'ss', œ: 'oe', Œ: 'OE', æ: 'ae', Æ: 'AE' };
  return spelt[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '');
}
