// What a local page's API takes: each route's body and query as a JSON Schema, checked before the route runs.
// ajv is loaded and a route's schema compiled the first time that route is asked for, once per process: the
// pages start without it (scripts/validator.mjs compiles the config's schema ahead of time instead, as every
// runner and worker reads a config file; a page is one process a person starts).
import type { ErrorObject, ValidateFunction } from 'ajv';
import { UsageError } from '../core/errors.js';
import type { ApiRequest } from './server.js';

/** A node of a route's schema: JSON Schema, and the words a refusal says of the field (`a string like "f3"`). */
export interface BodySchema {
  [keyword: string]: unknown;
  /** What the field must be, after `must be`: `a whole number from 0 to 100000`. */
  errorMessage?: string;
}

/** What one route of a page takes: its body (a POST) or its query (a GET), each a schema of an object. */
export interface RouteSchema {
  body?: BodySchema;
  query?: BodySchema;
}

/** The longest received value a refusal quotes. */
const QUOTED = 40;

type Ajv = import('ajv').Ajv;
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<BodySchema, ValidateFunction>();

/**
 * Checks a request of a page's API against its route's schema: the body of a POST, the query of a GET (the
 * token left out; a parameter given twice is refused). A route without a schema takes nothing: no body field,
 * no query parameter. Throws a {@link UsageError} naming the field, `invalid body: rows[2].name must be …`.
 * @param schemas the page's routes, keyed `POST tap`
 * @param req the request
 */
export async function checkRequest(schemas: Readonly<Record<string, RouteSchema>>, req: ApiRequest): Promise<void> {
  const route: RouteSchema = schemas[`${req.method} ${req.route}`] ?? {};
  if (req.method === 'POST') await check('body', route.body ?? EMPTY, req.body);
  await check('query', route.query ?? EMPTY, queryObject(req.query));
}

/** A string: at most `max` characters, matching `pattern` where one is given. */
export function text(max: number, says: string, pattern?: string): BodySchema {
  return { type: 'string', minLength: 1, maxLength: max, ...(pattern ? { pattern } : {}), errorMessage: says };
}

/** A whole number from `min` to `max`. */
export function whole(min: number, max: number): BodySchema {
  return { type: 'integer', minimum: min, maximum: max, errorMessage: `a whole number from ${min} to ${max}` };
}

/** A whole number in a query: digits, from 0 to `max` (its value is checked again where it is read). */
export function wholeText(max: number): BodySchema {
  return text(String(max).length, `a whole number from 0 to ${max}`, '^(0|[1-9][0-9]*)$');
}

/** An object of these fields, no other; `required` lists those it must have. */
export function fields(properties: Record<string, BodySchema>, required: string[], says: string): BodySchema {
  return { type: 'object', properties, required, additionalProperties: false, errorMessage: says };
}

/** A list of `min` to `max` items. */
export function list(items: BodySchema, min: number, max: number, says: string): BodySchema {
  return { type: 'array', items, minItems: min, maxItems: max, errorMessage: says };
}

const EMPTY = fields({}, [], 'empty');

async function check(part: 'body' | 'query', schema: BodySchema, value: unknown): Promise<void> {
  const validate = compiled.get(schema) ?? (await compile(schema));
  if (!validate(value)) throw new UsageError(`invalid ${part}: ${refusalOf(validate.errors?.[0], part)}`);
}

async function compile(schema: BodySchema): Promise<ValidateFunction> {
  ajv ??= import('ajv').then(({ Ajv }) => {
    // verbose: each error carries its schema node, whose errorMessage says what the field must be; so ajv's own
    // messages are not made. No meta-schema (the schemas are ours) and no optimizing pass: a route's schema then
    // compiles in ~6 ms of CPU instead of ~13 (loading ajv is ~90 ms, once).
    const made = new Ajv({ verbose: true, messages: false, meta: false, validateSchema: false, code: { optimize: false } });
    made.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    return made;
  });
  const validate = (await ajv).compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** The query as an object; the token is the server's, already checked. */
function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    if (key === 'token') continue;
    const values = query.getAll(key);
    if (values.length > 1) throw new UsageError(`invalid query: ${short(key)} is given ${values.length} times: give it once`);
    out[key] = values[0]!;
  }
  return out;
}

/** ajv's first error as the line after `invalid body: `, the field named as `rows[2].name`. */
function refusalOf(error: ErrorObject | undefined, part: 'body' | 'query'): string {
  if (!error) return 'not what this route takes';
  const noun = part === 'body' ? 'field' : 'parameter';
  const node = (error.parentSchema ?? {}) as BodySchema & { properties?: Record<string, BodySchema> };
  const where = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at, p) => (/^\d+$/.test(p) ? `${at}[${p}]` : at ? `${at}.${p}` : p), '');
  const inside = (key: string) => (where ? `${where}.${key}` : key);
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    const known = Object.keys(node.properties ?? {});
    return `${short(inside(key))} is not a ${noun} ${where ? `of ${where}` : 'this route takes'}: ${known.length ? `expected ${known.join(', ')}` : 'it takes none'}`;
  }
  if (error.keyword === 'required') {
    const key = String(error.params.missingProperty);
    return `${inside(key)} is missing: expected ${node.properties?.[key]?.errorMessage ?? 'it'}`;
  }
  return `${where || `the ${part}`} must be ${node.errorMessage ?? `valid (${error.keyword})`}, not ${short(JSON.stringify(error.data) ?? 'nothing')}`;
}

function short(text: string): string {
  return text.length > QUOTED ? `${text.slice(0, QUOTED - 1)}…` : text;
}
