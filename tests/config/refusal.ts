import { expect } from '../helpers/test.js';
import { parseConfigFile } from '../../src/config/schema.js';
import { isPhonewrightError } from '../../src/core/errors.js';

/** Where the configuration tests pretend their file lives. */
export const SOURCE = '/lab/phonewright.config.json';

/** Parses `json` as if read from {@link SOURCE}. */
export const parse = (json: unknown) => parseConfigFile(json, SOURCE, '/lab');

/** The one-line message a refused configuration gives; fails the test when it is accepted or refused otherwise. */
export function refusal(json: unknown): string {
  try {
    parse(json);
  } catch (error) {
    expect(isPhonewrightError(error, 'PW_CONFIG'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`accepted, but should have been refused: ${JSON.stringify(json)}`);
}
