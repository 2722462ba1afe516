// phonewright.config.json validation: what is accepted and normalized, and every refusal naming the file,
// the key and what to write instead.
import { expect, test } from '../helpers/test.js';
import { parse, refusal, SOURCE } from './refusal.js';


test('a full file: servers with devices (ids, "main", named and pooled), push and simulator', () => {
  const config = parse({
    $schema: './schema.json',
    servers: [
      { name: 'lab-a', url: 'http://10.0.0.5:8090/', user: 'qa', passwordEnv: 'LAB_A_PASSWORD', apiRoot: '/Service/v1/', devices: ['main', { id: 'device@-230441652', name: 'moto', pool: 'small' }] },
      { name: 'lab-b', url: 'https://lab-b.example:8443' },
    ],
    push: { apk: 'builds/app.apk', script: ['a.js', 'b.js'], contacts: 'c.tcbr', 'local/temp': 'x.csv' },
    simulator: { scenario: 'sim/lab.json' },
  });
  expect(config).toEqual({
    servers: [
      { name: 'lab-a', url: 'http://10.0.0.5:8090', user: 'qa', passwordEnv: 'LAB_A_PASSWORD', apiRoot: '/Service/v1', devices: [{ id: 'main' }, { id: 'device@-230441652', name: 'moto', pool: 'small' }] },
      { name: 'lab-b', url: 'https://lab-b.example:8443' },
    ],
    push: { apk: 'builds/app.apk', script: ['a.js', 'b.js'], contacts: 'c.tcbr', 'local/temp': 'x.csv' },
    simulator: { scenario: 'sim/lab.json' },
    dir: '/lab',
    source: SOURCE,
  });
});

test('one server at the top level is the server named "default"; an empty file lists none', () => {
  expect(parse({ url: 'http://10.0.0.5:8090', devices: ['device@1116106541'] }).servers).toEqual([
    { name: 'default', url: 'http://10.0.0.5:8090', devices: [{ id: 'device@1116106541' }] },
  ]);
  expect(parse({})).toMatchObject({ servers: [], push: {}, simulator: {} });
});

const REFUSALS: { name: string; json: unknown; says: RegExp }[] = [
  { name: 'not an object', json: [], says: /top level: expected a JSON object/ },
  { name: 'an unknown top-level key', json: { url: 'http://a:1', retries: 3 }, says: /top level: unknown key "retries"; try: one of servers, push/ },
  { name: 'an unknown server key', json: { servers: [{ name: 'a', host: 'x' }] }, says: /servers\[0\]: unknown key "host"/ },
  { name: 'an unknown device key', json: { devices: [{ id: 'main', model: 's9' }] }, says: /top level\.devices\[0\]: unknown key "model"/ },
  { name: 'an unknown simulator key', json: { simulator: { port: 1 } }, says: /simulator: unknown key "port"/ },
  { name: 'a password in a server', json: { servers: [{ name: 'a', password: 'x' }] }, says: /servers\[0\]\.password: a password is never written in the configuration file; try: name the environment variable/ },
  { name: 'a password at the top level', json: { url: 'http://a:1', password: 'x' }, says: /: password: a password is never written in the configuration file; try: name the environment variable/ },
  { name: 'a URL that is not one', json: { url: 'not a url' }, says: /top level\.url: "not a url" is not a URL; try: http:\/\/<server ip>:8090/ },
  { name: 'a URL of another scheme', json: { url: 'ftp://a:21' }, says: /url: ftp: is not http: or https:/ },
  { name: 'credentials in the URL', json: { url: 'http://qa:pw@a:1' }, says: /url: credentials do not belong in the URL/ },
  { name: 'a URL with a query', json: { url: 'http://a:1/?token=x' }, says: /url: a server URL has no query or fragment/ },
  { name: 'a URL that is a number', json: { url: 8090 }, says: /url: expected a URL/ },
  { name: 'a bad device id', json: { devices: ['device@abc'] }, says: /devices\[0\]\.id: invalid device id "device@abc"/ },
  { name: 'a device id beyond 32 bits', json: { devices: [{ id: 'device@4294967296' }] }, says: /signed 32-bit integer/ },
  { name: 'an empty device list', json: { devices: [] }, says: /devices: expected "all" or a non-empty array/ },
  { name: 'a device listed twice', json: { devices: ['device@1', 'device@1'] }, says: /devices: "device@1" is listed twice/ },
  { name: 'two servers of one name', json: { servers: [{ name: 'lab' }, { name: 'lab' }] }, says: /servers: the name "lab" is used twice/ },
  { name: 'a server without a name', json: { servers: [{ url: 'http://a:1' }] }, says: /servers\[0\]\.name: expected a name/ },
  { name: 'an empty server list', json: { servers: [] }, says: /servers: expected a non-empty array/ },
  { name: 'top-level server keys beside servers', json: { url: 'http://a:1', servers: [{ name: 'a' }] }, says: /"url" and "servers" together/ },
  { name: 'passwordEnv that is no variable name', json: { passwordEnv: 'LAB PASSWORD' }, says: /passwordEnv: expected the name of an environment variable/ },
  { name: 'a user with a colon', json: { user: 'qa:lead' }, says: /user: expected a user name without ":"/ },
  { name: 'a bad API root', json: { apiRoot: 'TotalControl v1' }, says: /apiRoot: invalid API root/ },
  { name: 'a push target that does not exist', json: { push: { video: 'a.mp4' } }, says: /push\.video: invalid upload target "video"/ },
  { name: 'a push without files', json: { push: { apk: [] } }, says: /push\.apk: expected a file path or a non-empty array/ },
  { name: 'a scenario that is no path', json: { simulator: { scenario: 3 } }, says: /simulator\.scenario: expected a file path/ },
];

for (const { name, json, says } of REFUSALS) {
  test(`refused: ${name}`, () => {
    const message = refusal(json);
    expect(message).toMatch(/^\/lab\/phonewright\.config\.json: /);
    expect(message).toMatch(says);
  });
}
