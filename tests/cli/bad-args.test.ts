// Bad command-line arguments: each is refused before any network work, with one line that says what is wrong
// and what to write, exit 2; no request reaches the server and no file is written. In-process, but for the
// files named by a relative path: the message names the file as typed, which only the process's own working
// folder allows (in-process, a relative path is made absolute against the case's folder).
import { cli, expect, expectRefused, listing, test, writeFiles } from '../helpers/bad-input.js';

interface Case {
  name: string;
  args: string[];
  /** The line after `phonewright: `. */
  error: string;
  /** Files in the working folder before the run. */
  files?: Parameters<typeof writeFiles>[1];
  /** Run as a user who may not read what root may. */
  asOtherUser?: boolean;
  /** Leave out the flags that point at the fake server (the case brings its own). */
  ownServer?: boolean;
  /** Run in a process of its own. */
  spawned?: true;
}

const ID_SHAPE = 'expected device@<integer>; try: an id such as device@1116106541, or "main" where the main device is meant (phonewright main-device prints it)';
const ID_RANGE = 'the number must be a signed 32-bit integer without leading zeros; try: an id as the server lists it, e.g. device@1116106541';
const COORD = (axis: string, raw: string) => `invalid ${axis} coordinate ${JSON.stringify(raw)}: expected a whole number of pixels from 0 to 100000 or a percentage of the screen (50%); try: phonewright pixel device@1116106541 100 100, or 50% 8% for a place by the screen's size`;
const TARGETS = 'try: image, script, apk, tcbr/contacts, local/<folder> or local/<absolute path>/';
const FILE = { 'app.apk': 'PK\u0003\u0004 an app' };

const CASES: Case[] = [
  // Device ids.
  { name: 'device id without a number', args: ['pixel', 'device@', '1', '2'], error: `invalid device id "device@": ${ID_SHAPE}` },
  { name: 'device id with letters', args: ['pixel', 'device@abc', '1', '2'], error: `invalid device id "device@abc": ${ID_SHAPE}` },
  { name: 'device id with a capital', args: ['pixel', 'Device@1', '1', '2'], error: `invalid device id "Device@1": ${ID_SHAPE}` },
  { name: 'device id past 32 bits', args: ['pixel', 'device@2147483648', '1', '2'], error: `invalid device id "device@2147483648": ${ID_RANGE}` },
  { name: 'device id with a leading zero', args: ['settings', 'device@007'], error: `invalid device id "device@007": ${ID_RANGE}` },
  { name: 'device id minus zero', args: ['settings', 'device@-0'], error: `invalid device id "device@-0": ${ID_RANGE}` },
  { name: 'device id without its prefix', args: ['settings', '1116106541'], error: 'invalid device id "1116106541": a device id starts with device@; try: device@1116106541' },
  { name: 'device id fractional', args: ['settings', 'device@1.5'], error: `invalid device id "device@1.5": ${ID_SHAPE}` },
  { name: 'notification filter device', args: ['notifications', '--device', 'device@x'], error: `invalid --device "device@x": ${ID_SHAPE}` },
  // Coordinates.
  { name: 'x negative', args: ['pixel', 'main', '-1', '5'], error: COORD('x', '-1') },
  { name: 'y negative', args: ['pixel', 'main', '5', '-7'], error: COORD('y', '-7') },
  { name: 'x fractional', args: ['pixel', 'main', '1.5', '5'], error: COORD('x', '1.5') },
  { name: 'y just past the largest screen', args: ['pixel', 'main', '5', '100001'], error: COORD('y', '100001') },
  { name: 'y huge', args: ['pixel', 'main', '5', '99999999999999999999'], error: COORD('y', '99999999999999999999') },
  { name: 'x not a number', args: ['pixel', 'main', 'abc', '5'], error: COORD('x', 'abc') },
  { name: 'x in exponent form', args: ['pixel', 'main', '1e3', '5'], error: COORD('x', '1e3') },
  { name: 'x in hex', args: ['pixel', 'main', '0x10', '5'], error: COORD('x', '0x10') },
  { name: 'x empty', args: ['pixel', 'main', '', '5'], error: COORD('x', '') },
  { name: 'y missing', args: ['pixel', 'main', '5'], error: 'not enough non-option arguments: got 2, need at least 3; try: phonewright pixel --help' },
  // Notification reads.
  { name: 'position 0', args: ['notifications', '--position', '0'], error: 'invalid --position "0": expected a whole number from 1 to 2147483647; try: the first message is at position 1' },
  { name: 'position fractional', args: ['notifications', '--position', '1.5'], error: 'invalid --position "1.5": expected a whole number from 1 to 2147483647; try: the first message is at position 1' },
  { name: 'count 0', args: ['notifications', '--count', '0'], error: 'invalid --count "0": expected a whole number from 1 to 10000' },
  { name: 'count past the largest read', args: ['notifications', '--count', '10001'], error: 'invalid --count "10001": expected a whole number from 1 to 10000' },
  {
    name: 'follow with a count',
    args: ['notifications', '--follow', '--count', '5'],
    error: '--position and --count do not apply to --follow, which prints only messages that arrive after it starts; try: drop them, or drop --follow to read the list',
  },
  // Files to upload.
  { name: 'missing file', args: ['upload', 'builds/app.apk', '--as', 'apk'], spawned: true, error: 'file not found: builds/app.apk; try: check the path (relative paths start from the working folder)' },
  { name: 'a folder', args: ['upload', 'builds', '--as', 'apk'], spawned: true, files: { 'builds/app.apk': 'x' }, error: 'not a regular file: builds; try: upload one file at a time' },
  { name: 'a named pipe (reading it would wait forever)', args: ['upload', 'app.apk', '--as', 'apk'], spawned: true, files: { 'app.apk': 'fifo' }, error: 'not a regular file: app.apk; try: upload one file at a time' },
  { name: 'an empty file', args: ['upload', 'empty.apk', '--as', 'apk'], spawned: true, files: { 'empty.apk': '' }, error: 'file is empty: empty.apk; try: the server refuses empty uploads' },
  { name: 'a file no one may read', args: ['upload', 'locked.apk', '--as', 'apk'], files: { 'locked.apk': { content: 'x', mode: 0o000 } }, asOtherUser: true, spawned: true, error: 'file cannot be read (permission denied): locked.apk' },
  { name: 'no --as', args: ['upload', 'app.apk'], files: FILE, error: 'missing required argument: as; try: phonewright upload --help' },
  // Upload targets.
  { name: 'unknown target', args: ['upload', 'app.apk', '--as', 'apps'], files: FILE, error: `invalid upload target "apps": unknown target; ${TARGETS}` },
  { name: 'target climbing out', args: ['upload', 'app.apk', '--as', 'local/../etc'], files: FILE, error: `invalid upload target "local/../etc": the folder must stay under the installation root (no "..", ".", or empty parts); ${TARGETS}` },
  { name: 'target with a dot part', args: ['upload', 'app.apk', '--as', 'local/a/./b'], files: FILE, error: `invalid upload target "local/a/./b": the folder must stay under the installation root (no "..", ".", or empty parts); ${TARGETS}` },
  { name: 'target without a folder', args: ['upload', 'app.apk', '--as', 'local/'], files: FILE, error: `invalid upload target "local/": local/ needs a folder; ${TARGETS}` },
  { name: 'target percent-encoded', args: ['upload', 'app.apk', '--as', 'local/a%2e%2e'], files: FILE, error: `invalid upload target "local/a%2e%2e": encoded characters are not allowed in the folder; ${TARGETS}` },
  { name: 'absolute target without the slash', args: ['upload', 'app.apk', '--as', 'local/C:/temp'], files: FILE, error: `invalid upload target "local/C:/temp": an absolute folder must end with "/", e.g. local/E:/File/; ${TARGETS}` },
  { name: 'absolute target climbing', args: ['upload', 'app.apk', '--as', 'local/E:/x/../'], files: FILE, error: `invalid upload target "local/E:/x/../": "." and ".." are not allowed in the folder; ${TARGETS}` },
  { name: 'target with a backslash', args: ['upload', 'app.apk', '--as', 'local/a\\b'], files: FILE, error: `invalid upload target "local/a\\\\b": the folder holds a character a path may not hold; ${TARGETS}` },
  // Commands, flags, connection settings.
  { name: 'misspelt command', args: ['pixle', 'main', '1', '1'], error: 'unknown command "pixle"; did you mean "pixel"?; try: phonewright pixel --help, or phonewright --help for every command' },
  { name: 'unknown flag', args: ['pixel', 'main', '1', '1', '--bogus'], error: 'unknown argument: bogus; try: phonewright pixel --help' },
  { name: 'extra argument', args: ['main-device', 'extra'], error: 'unknown argument: extra; try: phonewright main-device --help' },
  { name: 'URL that is not one', args: ['pixel', 'main', '1', '1', '--url', 'not-a-url'], ownServer: true, error: '--url: "not-a-url" is not a URL; try: http://<server ip>:8090' },
  { name: 'URL of another scheme', args: ['pixel', 'main', '1', '1', '--url', 'ftp://10.0.0.5'], ownServer: true, error: '--url: ftp: is not http: or https:' },
  { name: 'URL with a password in it', args: ['pixel', 'main', '1', '1', '--url', 'http://qa:Url-Pw-51x@10.0.0.5:8090'], ownServer: true, error: '--url: credentials do not belong in the URL; try: use --user and --password' },
  { name: 'user with a colon', args: ['main-device', '--user', 'qa:lead'], error: 'the user name may not contain ":" (the login header joins user and password with it)' },
  { name: 'API root that is not a path', args: ['main-device', '--api-root', 'TotalControl v1'], error: 'invalid API root "TotalControl v1": expected a path such as /TotalControl/v1' },
  { name: 'simulator port out of range', args: ['sim', '--port', '70000'], ownServer: true, error: 'invalid --port "70000": expected a whole number from 0 to 65535; try: phonewright sim --port 8090' },
];

for (const c of CASES) {
  test(`${c.name}: ${c.args.join(' ')}`, async ({ server, dir }) => {
    await writeFiles(dir, c.files ?? {});
    const before = await listing(dir);
    const flags = c.ownServer ? [] : ['--url', server.url, '--password', '3D391497'];
    const result = await cli([...c.args, ...flags], { cwd: dir, asOtherUser: c.asOtherUser, spawned: c.spawned });
    expectRefused(result, c.error, 2);
    expect(server.requests.map((r) => `${r.method} ${r.path}`), 'requests that reached the server').toEqual([]);
    expect(await listing(dir), 'files in the working folder').toEqual(before);
    // A secret in the input is not repeated in the error.
    expect(result.stderr).not.toContain('Url-Pw-51x');
  });
}

test('a report URL that is not one: nightly and merge refuse it before anything runs', async ({ dir }) => {
  for (const args of [['nightly'], ['merge', 'blobs']]) {
    const before = await listing(dir);
    const result = await cli(args, { cwd: dir, env: { PHONEWRIGHT_REPORT_URL: 'reports/html' } });
    expectRefused(result, 'PHONEWRIGHT_REPORT_URL "reports/html" is not an http(s) URL; try: the URL CI publishes reports/html at, e.g. PHONEWRIGHT_REPORT_URL=https://ci.example.com/nightly/report', 2);
    expect(await listing(dir), args[0]).toEqual(before);
  }
});
