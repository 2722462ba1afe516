import path from 'node:path';
import type { ConfigFile } from './schema.js';

/** What phonewright.config.json says of the embedded simulator, as its options: paths made absolute. */
export interface EmbeddedSimulatorSettings {
  scenario?: string;
  lab?: boolean;
  capabilities?: 'all' | 'seed';
  acts?: 'inputs' | 'scripts' | 'both';
  elements?: boolean;
  ocr?: boolean;
}

/**
 * The embedded simulator's settings of a config file (scenario, lab preset, capabilities, acts), for every place that
 * starts one: a run's global set-up and each CLI command with no server configured, so both serve the same lab.
 * @param file the config file, if any
 */
export function embeddedSimulatorSettings(file: ConfigFile | undefined): EmbeddedSimulatorSettings {
  if (!file) return {};
  const { scenario, lab, capabilities, acts, elements, ocr } = file.simulator;
  return {
    // A scenario path in the config file is relative to the file.
    ...(scenario ? { scenario: path.resolve(file.dir, scenario) } : {}),
    ...(lab !== undefined ? { lab } : {}),
    ...(capabilities ? { capabilities } : {}),
    ...(acts ? { acts } : {}),
    ...(elements === undefined ? {} : { elements }),
    ...(ocr === undefined ? {} : { ocr }),
  };
}
