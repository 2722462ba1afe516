// Bad configuration: phonewright.config.json, the variables that name or hold its secrets, PHONEWRIGHT_*.
// Each is refused with one line naming the file, the key and what to write, exit 2, before any request; the
// password never appears in the message. `test` checks them before Playwright starts: no report is written.
import { cli, expect, expectRefused, listing, test, writeFiles } from '../helpers/bad-input.js';

interface Case {
  name: string;
  /** The file's text; `{url}` stands for the fake server's URL. */
  config?: string;
  env?: Record<string, string>;
  /** The command; `main-device` unless given. */
  args?: string[];
  /** The line after `phonewright: `, `{file}` standing for the config file's path; or a regex for the line. */
  error: string | RegExp;
  asOtherUser?: boolean;
}

const BUILT_IN_PHONES = 'galaxy-s9 (device@1116106541), pixel-7 (device@1174886816), galaxy-tab-s7 (device@24681357), moto-g5 (device@-230441652), or main';
const NOT_IN_SCENARIO = (who: string, phones: string) => `${who} names ${phones}, which the simulator's scenario (the built-in scenario) does not have; try: one of ${BUILT_IN_PHONES}`;
const TOP_KEYS = 'one of servers, push, reportUrl, unreachablePhones, leases, simulator, languages, phoneVideo, url, user, passwordEnv, apiRoot, devices';
const ID_SHAPE = 'expected device@<integer>; try: an id such as device@1116106541, or "main" where the main device is meant (phonewright main-device prints it)';

const CASES: Case[] = [
  {
    name: 'truncated JSON',
    config: '{"url": "{url}",\n  ',
    error: '{file} is not valid JSON at line 2, column 3: the file ends inside an object; try: fix the syntax; the README shows an example',
  },
  { name: 'not an object', config: '["{url}"]', error: '{file}: top level: expected a JSON object; try: see the README, "Configuration"' },
  { name: 'unknown top-level key', config: '{"url": "{url}", "timeout": 5}', error: `{file}: top level: unknown key "timeout"; try: ${TOP_KEYS}` },
  { name: 'unknown server key', config: '{"servers": [{"name": "lab", "url": "{url}", "colour": "red"}]}', error: '{file}: servers[0]: unknown key "colour"; try: one of name, url, user, passwordEnv, apiRoot, devices, testMatch, testIgnore' },
  { name: 'unknown device key', config: '{"url": "{url}", "devices": [{"id": "main", "model": "s9"}]}', error: '{file}: top level.devices[0]: unknown key "model"; try: one of id, name, pool, testMatch, testIgnore' },
  { name: 'unknown simulator key', config: '{"simulator": {"scenario": "lab.json", "faults": {}}}', error: '{file}: simulator: unknown key "faults"; try: one of scenario, lab, capabilities, acts, elements, ocr' },
  { name: 'a password written in the file', config: '{"url": "{url}", "password": "Cfg-Pw-30q"}', error: '{file}: password: a password is never written in the configuration file; try: name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"' },
  { name: 'a password in a server entry', config: '{"servers": [{"name": "lab", "url": "{url}", "password": "Cfg-Pw-30q"}]}', error: '{file}: servers[0].password: a password is never written in the configuration file; try: name the environment variable that holds it: "passwordEnv": "LAB_PASSWORD"' },
  { name: 'the password variable is not set', config: '{"servers": [{"name": "lab", "url": "{url}", "passwordEnv": "LAB_PW"}]}', error: 'server "lab": the environment variable LAB_PW (its passwordEnv) is not set; try: export LAB_PW=… before running, or pass --password' },
  { name: 'the password variable is empty', config: '{"url": "{url}", "passwordEnv": "LAB_PW"}', env: { LAB_PW: '' }, error: 'server "default": the environment variable LAB_PW (its passwordEnv) is not set; try: export LAB_PW=… before running, or pass --password' },
  { name: 'a password variable name that is not one', config: '{"url": "{url}", "passwordEnv": "1LAB"}', error: '{file}: top level.passwordEnv: expected the name of an environment variable, e.g. "LAB_A_PASSWORD"' },
  { name: 'no servers in the list', config: '{"servers": []}', error: '{file}: servers: expected a non-empty array of servers' },
  { name: 'two servers of one name', config: '{"servers": [{"name": "a", "url": "{url}"}, {"name": "a", "url": "{url}"}]}', error: '{file}: servers: the name "a" is used twice; try: give every server its own name' },
  { name: 'two servers and none chosen', config: '{"servers": [{"name": "a", "url": "{url}"}, {"name": "b", "url": "{url}"}]}', error: '{file} lists 2 servers (a, b); try: choose one with --server NAME (or PHONEWRIGHT_SERVER), or give --url' },
  { name: 'a server name with a space', config: '{"servers": [{"name": "lab a", "url": "{url}"}]}', error: '{file}: servers[0].name: expected a name of letters, digits, ".", "_" or "-"' },
  { name: 'a URL without a scheme', config: '{"url": "10.0.0.5:8090"}', error: '{file}: top level.url: "10.0.0.5:8090" is not a URL; try: http://<server ip>:8090' },
  { name: 'a URL of another scheme', config: '{"url": "ftp://10.0.0.5"}', error: '{file}: top level.url: ftp: is not http: or https:' },
  { name: 'a URL with a query', config: '{"url": "{url}?x=1"}', error: '{file}: top level.url: a server URL has no query or fragment' },
  { name: 'a report URL that is not one', config: '{"url": "{url}", "reportUrl": "reports/html"}', error: '{file}: reportUrl: expected the http(s) URL the HTML report is published at, e.g. "https://ci.example.com/nightly/report"' },
  { name: 'a device id that is not one', config: '{"url": "{url}", "devices": ["device@x"]}', error: `{file}: top level.devices[0].id: invalid device id "device@x": ${ID_SHAPE}` },
  { name: 'a phone listed twice', config: '{"url": "{url}", "devices": ["device@1", "device@1"]}', error: '{file}: top level.devices: "device@1" is listed twice' },
  { name: 'an API root that is not a path', config: '{"url": "{url}", "apiRoot": "no root"}', error: '{file}: top level.apiRoot: invalid API root "no root": expected a path such as /TotalControl/v1' },
  { name: 'a push target that is not one', config: '{"url": "{url}", "push": {"apps": "a.apk"}}', error: '{file}: push.apps: invalid upload target "apps": unknown target; try: image, script, apk, tcbr/contacts, local/<folder> or local/<absolute path>/' },
  { name: 'a push of no files', config: '{"url": "{url}", "push": {"apk": []}}', error: '{file}: push.apk: expected a file path or a non-empty array of file paths' },
  { name: 'a scenario that is not a path', config: '{"simulator": {"scenario": 5}}', error: '{file}: simulator.scenario: expected a file path' },
  { name: 'PHONEWRIGHT_CONFIG naming a missing file', env: { PHONEWRIGHT_CONFIG: 'lab.json' }, error: '{dir}/lab.json does not exist; try: check PHONEWRIGHT_CONFIG' },
  { name: 'a config file no one may read', config: '{"url": "{url}"}', asOtherUser: true, error: '{file} cannot be read (permission denied)' },
  { name: 'PHONEWRIGHT_URL with a password in it', env: { PHONEWRIGHT_URL: 'http://qa:Cfg-Pw-30q@10.0.0.5' }, error: 'PHONEWRIGHT_URL: credentials do not belong in the URL; try: use --user and --password' },
  { name: 'test: PHONEWRIGHT_DEVICES with a bad id', args: ['test'], env: { PHONEWRIGHT_DEVICES: 'main,device@x' }, error: `PHONEWRIGHT_DEVICES: invalid device id "device@x": ${ID_SHAPE}` },
  // A phone the embedded simulator lacks: named by the setting that named it, before Playwright starts (no report).
  { name: 'test: --devices names a phone the simulator lacks', args: ['test', '--devices', 'galaxy-s10'], error: NOT_IN_SCENARIO('--devices', 'galaxy-s10') },
  { name: 'nightly: --devices names a phone the simulator lacks', args: ['nightly', '--devices', 'moto-g5,device@5'], error: NOT_IN_SCENARIO('--devices', 'device@5') },
  { name: 'test: PHONEWRIGHT_DEVICES names a phone the simulator lacks', args: ['test'], env: { PHONEWRIGHT_DEVICES: 'galaxy-s9,galaxy-s10' }, error: NOT_IN_SCENARIO('PHONEWRIGHT_DEVICES', 'galaxy-s10') },
  { name: 'test: --devices names a phone no configured server lists', args: ['test', '--devices', 'galaxy-s10'], config: '{"url": "{url}", "devices": [{"id": "device@1", "name": "moto-g5"}]}', error: '--devices names galaxy-s10, which no selected server in {file} lists; try: one of moto-g5' },
  { name: 'test: --devices with all and more', args: ['test', '--devices', 'all,moto-g5'], config: '{"url": "{url}"}', error: '--devices: "all" takes every phone of the server and goes alone, not with moto-g5; try: --devices all, or list the phones: --devices main,device@1116106541' },
  { name: 'test: the config file names a phone the simulator lacks', args: ['test'], config: '{"devices": ["device@5"]}', error: NOT_IN_SCENARIO('{file}', 'device@5') },
  { name: 'test: a language the OCR model does not read', args: ['test'], config: '{"url": "{url}", "languages": ["en", "ja"]}', error: '{file}: languages[1]: "ja": expected a language phonewright\'s OCR model reads: en, zh, fr, de, es, it, pt or nl' },
  { name: 'test: an unknown key', args: ['test'], config: '{"url": "{url}", "retries": 2}', error: `{file}: top level: unknown key "retries"; try: ${TOP_KEYS}` },
  { name: 'nightly: the password variable is not set', args: ['nightly'], config: '{"url": "{url}", "passwordEnv": "LAB_PW"}', error: 'server "default": the environment variable LAB_PW (its passwordEnv) is not set; try: export LAB_PW=… before running, or pass --password' },
];

for (const c of CASES) {
  test(c.name, async ({ server, dir }) => {
    const file = `${dir}/phonewright.config.json`;
    if (c.config !== undefined) {
      const text = c.config.replaceAll('{url}', server.url);
      await writeFiles(dir, { 'phonewright.config.json': c.asOtherUser ? { content: text, mode: 0o000 } : text });
    }
    const before = await listing(dir);
    const result = await cli(c.args ?? ['main-device'], { cwd: dir, env: c.env, asOtherUser: c.asOtherUser });
    expectRefused(result, typeof c.error === 'string' ? c.error.replaceAll('{file}', file).replaceAll('{dir}', dir) : c.error, 2);
    expect(server.requests.map((r) => `${r.method} ${r.path}`), 'requests that reached the server').toEqual([]);
    // Nothing written: no reports/, no test-results/, no .phonewright/.
    expect(await listing(dir), 'files in the working folder').toEqual(before);
    expect(result.stderr).not.toContain('Cfg-Pw-30q');
  });
}
