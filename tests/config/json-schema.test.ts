// config.schema.json, the one definition of phonewright.config.json's structure: a valid draft-07 schema that
// describes every key, whose examples and the manual's files the loader accepts, and whose refusals the loader
// turns into one line naming the file, the key and what to write.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '../helpers/test.js';
import { Ajv } from 'ajv';
import { parse, refusal, SOURCE } from './refusal.js';
// @ts-expect-error: a plain script, without types
import { VALIDATOR_FILE, validatorSource } from '../../scripts/validator.mjs';

interface Node {
  $ref?: string;
  description?: string;
  examples?: unknown[];
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  definitions?: Record<string, Node>;
}

const ROOT = new URL('../../', import.meta.url);
const SCHEMA = JSON.parse(readFileSync(new URL('config.schema.json', ROOT), 'utf8')) as Node;
const resolve = (node: Node): Node => (node.$ref ? { ...SCHEMA.definitions![node.$ref.replace('#/definitions/', '')]!, ...node } : node);

/** Where each object of the schema that has properties sits in a file: a key and its value, placed there. */
const PLACES: Record<string, (key: string, value: unknown) => unknown> = {
  '#': (k, v) => ({ [k]: v }),
  '#/properties/push': (k, v) => ({ push: { [k]: v } }),
  '#/properties/simulator': (k, v) => ({ simulator: { [k]: v } }),
  '#/properties/leases': (k, v) => ({ leases: { [k]: v } }),
  '#/definitions/server': (k, v) => ({ servers: [{ name: 'lab', [k]: v }] }),
  '#/definitions/device': (k, v) => ({ devices: [{ id: 'main', [k]: v }] }),
};

/** Every node of the schema that lists properties, by its JSON pointer. */
function objects(node: Node, at = '#', out = new Map<string, Node>()): Map<string, Node> {
  if (node.properties) out.set(at, node);
  for (const [k, child] of Object.entries(node.properties ?? {})) objects(child, `${at}/properties/${k}`, out);
  for (const [k, child] of Object.entries(node.definitions ?? {})) objects(child, `${at}/definitions/${k}`, out);
  return out;
}

test('a valid draft-07 schema that ajv compiles in strict mode', () => {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  expect(ajv.validateSchema(SCHEMA), ajv.errorsText()).toBe(true);
  expect(() => ajv.compile(SCHEMA)).not.toThrow();
  expect(SCHEMA).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', title: 'phonewright.config.json', additionalProperties: false });
});

test('the loader\'s validator is the schema as it is now, compiled (npm run validator writes it)', () => {
  expect(readFileSync(VALIDATOR_FILE, 'utf8') === validatorSource(), 'src/config/validator.ts is older than config.schema.json: run npm run validator').toBe(true);
});

test('every key is described, with examples; every object refuses unknown keys or says what else it takes', () => {
  expect([...objects(SCHEMA).keys()].sort()).toEqual(Object.keys(PLACES).sort());
  for (const [at, node] of objects(SCHEMA)) {
    expect(node.additionalProperties, `${at}: additionalProperties`).toBeDefined();
    for (const [key, child] of Object.entries(node.properties!)) {
      expect(resolve(child).description, `${at}/${key}: description`).toBeTruthy();
      expect(resolve(child).examples?.length, `${at}/${key}: examples`).toBeGreaterThan(0);
    }
  }
});

test('every node that has a type says what to write instead, so no refusal falls back to ajv\'s own words', () => {
  const typed = (node: unknown, at: string): string[] => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
    const own = 'type' in node && !('errorMessage' in node) ? [at] : [];
    return [...own, ...Object.entries(node).filter(([k]) => k !== 'examples').flatMap(([k, v]) => typed(v, `${at}/${k}`))];
  };
  expect(typed(SCHEMA, '#')).toEqual([]);
});

test('the loader accepts every key of the schema, with each of its examples', () => {
  for (const [at, node] of objects(SCHEMA)) {
    for (const [key, child] of Object.entries(node.properties!)) {
      for (const example of resolve(child).examples!) {
        expect(() => parse(PLACES[at]!(key, example)), `${at}/${key} = ${JSON.stringify(example)}`).not.toThrow();
      }
    }
  }
  for (const example of SCHEMA.examples!) expect(() => parse(example)).not.toThrow();
  for (const example of SCHEMA.definitions!.server!.examples!) expect(() => parse({ servers: [example] })).not.toThrow();
  for (const example of SCHEMA.definitions!.device!.examples!) expect(() => parse({ devices: [example] })).not.toThrow();
});

test('the manual: the README\'s $schema path is the package\'s schema, and its config files pass the schema and the loader', () => {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { name: string };
  expect(readme).toContain(`"$schema": "./node_modules/${pkg.name}/config.schema.json"`);
  // The JSON blocks of the README and docs/ that are configuration files: those listing servers.
  const docs = readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md'));
  const manual = [readme, ...docs.map((f) => readFileSync(new URL(`docs/${f}`, ROOT), 'utf8'))].join('\n');
  const files = [...manual.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>).filter((j) => 'servers' in j);
  expect(files.length).toBeGreaterThanOrEqual(2);
  const ajv = new Ajv({ allowUnionTypes: true });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  const validate = ajv.compile(SCHEMA);
  for (const file of files) {
    expect(validate(file), ajv.errorsText(validate.errors)).toBe(true);
    expect(() => parse(file)).not.toThrow();
  }
});

const PW = 'a password is never written in the configuration file; try: name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"';
const NAME = 'expected a name of letters, digits, ".", "_" or "-"';
const GLOB = 'a glob relative to the config file\'s folder, e.g. "specs/lab-a/**" or "specs/*.tc.spec.ts"';

/** Refusals of the structure, as ajv finds them, and of what the schema cannot say; the whole line after the file. */
const REFUSALS: [name: string, json: unknown, message: string][] = [
  ['a string', '{"url": 1}', 'top level: expected a JSON object; try: see the README, "Configuration"'],
  ['null', null, 'top level: expected a JSON object; try: see the README, "Configuration"'],
  ['an unknown key in a pool phone', { servers: [{ name: 'a', devices: ['main', { id: 'device@1', colour: 'red' }] }] }, 'servers[0].devices[1]: unknown key "colour"; try: one of id, name, pool, testMatch, testIgnore'],
  ['a password in a phone entry', { devices: [{ id: 'main', password: 'x' }] }, `top level.devices[0].password: ${PW}`],
  ['a password beside servers', { servers: [{ name: 'a' }], password: 'x' }, `password: ${PW}`],
  ['a phone entry without an id', { servers: [{ name: 'a' }, { name: 'b', devices: [{ name: 'moto' }] }] }, 'servers[1].devices[0].id: expected a device id such as device@1116106541, or "main"'],
  ['a phone entry that is a number', { devices: [1116106541] }, 'top level.devices[0]: expected a device id or {"id", "name", "pool", "testMatch", "testIgnore"}'],
  ['a pool name with a space', { servers: [{ name: 'a', devices: [{ id: 'main', pool: 'pixel 7' }] }] }, 'servers[0].devices[0].pool: expected a pool name of letters, digits, ".", "_" or "-"'],
  ['a phone name that starts with a dot', { devices: [{ id: 'main', name: '.x' }] }, `top level.devices[0].name: ${NAME}`],
  ['a server that is a string', { servers: ['lab-a'] }, 'servers[0]: expected an object with name, url, user, passwordEnv, devices'],
  ['a server name of 65 characters', { servers: [{ name: 'a'.repeat(65) }] }, `servers[0].name: ${NAME}`],
  ['servers that is an object', { servers: { name: 'a' } }, 'servers: expected a non-empty array of servers'],
  ['an empty user', { servers: [{ name: 'a', user: '' }] }, 'servers[0].user: expected a user name without ":"'],
  ['an API root that is a number', { apiRoot: 1 }, 'top level.apiRoot: expected a path such as /TotalControl/v1'],
  ['push that is a list', { push: ['builds/app.apk'] }, 'push: expected an object of upload target → file path(s), e.g. {"apk": "builds/app.apk"}'],
  ['a local folder pushed a number', { push: { 'local/temp': 3 } }, 'push.local/temp: expected a file path or a non-empty array of file paths'],
  ['an empty path among files', { push: { script: ['a.js', ''] } }, 'push.script[1]: expected a file path'],
  ['an empty path', { push: { apk: '' } }, 'push.apk: expected a file path or a non-empty array of file paths'],
  ['a lab that is a string', { simulator: { lab: 'yes' } }, 'simulator.lab: expected true (the lab preset: reads take milliseconds, phone clocks are off) or false'],
  ['capabilities that are not a set', { simulator: { capabilities: 'none' } }, 'simulator.capabilities: expected "all" (every vendor route, the default) or "seed" (the interface\'s six operations only)'],
  ['acts that are not a way to act', { simulator: { acts: 'bridge' } }, 'simulator.acts: expected "inputs" (screen/inputs and screen/texts), "scripts" (the JS bridge) or "both" (the default)'],
  ['a simulator that is a path', { simulator: 'sim/lab.json' }, 'simulator: expected an object such as {"scenario": "sim/lab.json"}'],
  ['$schema that is no string', { $schema: true }, '$schema: expected the path or URL of config.schema.json'],
  ['shorthand and servers', { servers: [{ name: 'a' }], devices: ['main'] }, 'top level: "devices" and "servers" together; try: put every server in "servers", or describe one server at the top level'],
  ['a second server with a bad URL', { servers: [{ name: 'a' }, { name: 'b', url: 'http://b:1#x' }] }, 'servers[1].url: a server URL has no query or fragment'],
  ['a device id with a leading zero', { servers: [{ name: 'a', devices: ['device@01'] }] }, 'servers[0].devices[0].id: invalid device id "device@01": the number must be a signed 32-bit integer without leading zeros; try: an id as the server lists it, e.g. device@1116106541'],
  ['a name given twice', { devices: [{ id: 'device@1', name: 'moto' }, { id: 'device@2', name: 'moto' }] }, 'top level.devices: "moto" is listed twice'],
  // The spec files a server or a phone runs: globs relative to the file, checked before any run.
  ['testMatch that is a number', { servers: [{ name: 'a', testMatch: 3 }] }, 'servers[0].testMatch: expected a glob or a non-empty array of globs, relative to this file, e.g. "specs/lab-a/**"'],
  ['an empty testIgnore list', { servers: [{ name: 'a', testIgnore: [] }] }, 'servers[0].testIgnore: expected a glob or a non-empty array of globs, relative to this file, e.g. "specs/lab-a/**"'],
  ['an empty glob', { devices: [{ id: 'main', testMatch: ['specs/a', ''] }] }, 'top level.devices[0].testMatch[1]: expected a glob such as "specs/lab-a/**"'],
  ['an absolute glob', { servers: [{ name: 'a', testMatch: '/home/qa/specs/**' }] }, `servers[0].testMatch: "/home/qa/specs/**" is absolute: a glob is relative to the config file's folder; try: ${GLOB}`],
  ['a glob that leaves the folder', { servers: [{ name: 'a', testIgnore: ['specs/a', '../other/**'] }] }, `servers[0].testIgnore[1]: "../other/**" has an empty, "." or ".." folder: a glob names files inside the config file's folder; try: ${GLOB}`],
  ['a glob with an unclosed brace', { servers: [{ name: 'a', devices: [{ id: 'main', testMatch: 'specs/{a,b.spec.ts' }] }] }, `servers[0].devices[0].testMatch: "specs/{a,b.spec.ts" opens a "{" it does not close; try: ${GLOB}`],
  ['a glob with backslashes', { servers: [{ name: 'a', testMatch: 'specs\\tc' }] }, `servers[0].testMatch: "specs\\\\tc" has a "\\": folders are separated by "/" on every system; try: ${GLOB}`],
  ['a pool phone bound to specs', { servers: [{ name: 'a', devices: [{ id: 'main', pool: 'twins', testMatch: 'specs/a' }] }] }, 'servers[0].devices[0].testMatch: a phone of pool "twins" runs its pool\'s specs, whichever phone of the pool takes them; try: bind the server\'s phones (its testMatch or testIgnore), or take the phone out of the pool'],
  ['devices a word other than all', { servers: [{ name: 'a', devices: 'every' }] }, 'servers[0].devices: expected "all" or a non-empty array of device ids'],
];

for (const [name, json, message] of REFUSALS) {
  test(`refused in one line: ${name}`, () => {
    expect(refusal(json)).toBe(`${SOURCE}: ${message}`);
  });
}
