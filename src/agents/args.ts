// The tools' arguments: each tool's input as a JSON Schema (what the SDK lists to agents), checked here with ajv
// before the tool runs, so a bad argument is one tool error naming it and nothing is sent to a phone.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { UsageError } from '../core/errors.js';

/** A JSON Schema node, with the description an agent reads. */
export type ArgSchema = { [keyword: string]: unknown };

/** The longest value a refusal quotes. */
const QUOTED = 40;

type Ajv = import('ajv').Ajv;
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<ArgSchema, ValidateFunction>();

/**
 * Checks a tool's arguments against its schema; throws a {@link UsageError} naming the argument,
 * `invalid argument x of tap: must be an integer ≥ 0`.
 * @param tool the tool's name, for the message
 * @param schema its input schema (an object's)
 * @param args what the agent sent
 */
export async function checkArgs(tool: string, schema: ArgSchema, args: unknown): Promise<void> {
  let validate = compiled.get(schema);
  if (!validate) {
    ajv ??= import('ajv').then(({ Ajv }) => new Ajv({ allErrors: false, strict: false, validateSchema: false, verbose: true }));
    validate = (await ajv).compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(args ?? {})) throw new UsageError(`${refusal(tool, validate.errors?.[0])}`, { hint: `see the input schema of ${tool} (tools/list)` });
}

/** An object of these arguments and no other; `required` lists those it must have. */
export function object(properties: Record<string, ArgSchema>, required: string[] = []): ArgSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A string of 1 to `max` characters. */
export function text(description: string, max = 500): ArgSchema {
  return { type: 'string', minLength: 1, maxLength: max, description };
}

/** A whole number from `min` to `max`. */
export function whole(description: string, min: number, max: number): ArgSchema {
  return { type: 'integer', minimum: min, maximum: max, description };
}

/** A phone: its id or name; the main device when left out. */
export const PHONE: ArgSchema = text('The phone: its id (device@1116106541) or name (galaxy-s9), as `phones` lists them. Default: the server\'s main device.', 80);
/** A call's own deadline. */
export const TIMEOUT: ArgSchema = whole('Longest time this call may take, in ms. Default: the expect timeout (5000) for reads and acts.', 1, 3_600_000);
/** A point's coordinate, in phone pixels. */
export const COORD = (axis: 'x' | 'y'): ArgSchema => whole(`${axis} in phone pixels (as \`screen\` reports them: the image's pixels divided by its scale)`, 0, 100_000);
/** A locator, as a spec's `device.getByText(…)` and the others. */
export const LOCATOR: ArgSchema = {
  type: 'object',
  description: 'What to look for, as a spec\'s locator: one of text (getByText), description (getByDescription, an icon\'s label), id (getById, com.example.app:id/login), query (getByQuery, the vendor engine\'s T:OK&&C:.Button), image (getByImage, a PNG path relative to the working folder). exact: the whole text, not a part of it.',
  properties: {
    text: text('Text on the screen (a part of a line unless exact)'),
    description: text('An element\'s content description'),
    id: text('A resource id, com.example.app:id/login or .login for the app in front', 200),
    query: text('A query of the vendor\'s UI-element engine', 200),
    image: text('A PNG cut from a phone\'s screen, relative to the working folder', 300),
    exact: { type: 'boolean', description: 'Match the whole text (default false: a part of it, case and spaces aside)' },
  },
  additionalProperties: false,
  minProperties: 1,
};

function refusal(tool: string, e: ErrorObject | undefined): string {
  if (!e) return `invalid arguments of ${tool}`;
  const at = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') return `missing argument ${join(at, String(e.params.missingProperty))} of ${tool}`;
  if (e.keyword === 'additionalProperties') return `unknown argument ${join(at, String(e.params.additionalProperty))} of ${tool}`;
  const value = e.data === undefined ? '' : ` (got ${JSON.stringify(e.data)?.slice(0, QUOTED)})`;
  return `invalid argument ${at || 'arguments'} of ${tool}: ${e.message ?? 'refused'}${value}`;
}

function join(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}
