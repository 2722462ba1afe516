// Which server and which phones: resolveConnection for one command (flag > environment > file > defaults),
// resolveServers for the device matrix (PHONEWRIGHT_URL, PHONEWRIGHT_SERVER, PHONEWRIGHT_DEVICES).
import { expect, test } from '../helpers/test.js';
import { parseDeviceList, resolveConnection, resolveServers, type Env } from '../../src/config/resolve.js';
import { parseConfigFile, type ConfigFile } from '../../src/config/schema.js';
import { isPhonewrightError, type ErrorCode } from '../../src/core/errors.js';

const file = (json: unknown): ConfigFile => parseConfigFile(json, '/lab/phonewright.config.json', '/lab');
const ONE = file({ url: 'http://file:8090', user: 'file-user', passwordEnv: 'FILE_PW', apiRoot: '/Service/v1', devices: ['main'] });
const TWO = file({
  servers: [
    { name: 'lab-a', url: 'http://a:8090', devices: ['device@1', { id: 'device@2', name: 's9' }] },
    { name: 'lab-b', url: 'http://b:8090', passwordEnv: 'B_PW' },
  ],
});

function thrown(fn: () => unknown): Error & { code: ErrorCode } {
  try {
    fn();
  } catch (e) {
    if (isPhonewrightError(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}

test('nothing configured: the embedded simulator with the vendor\'s example credentials', () => {
  expect(resolveConnection({}, {})).toEqual({
    name: 'simulator', url: undefined, user: 'sigma', password: '3D391497', apiRoot: '/TotalControl/v1', devices: undefined,
    sources: { url: 'the embedded simulator', user: 'the default user', password: 'the default password' },
  });
});

const PRECEDENCE: { name: string; flags: Parameters<typeof resolveConnection>[0]; env: Env; want: Partial<ReturnType<typeof resolveConnection>> }[] = [
  { name: 'the file alone', flags: {}, env: { FILE_PW: 'f-pw' }, want: { name: 'default', url: 'http://file:8090', user: 'file-user', password: 'f-pw', apiRoot: '/Service/v1', devices: [{ id: 'main' }] } },
  {
    name: 'the environment over the file, setting by setting',
    flags: {},
    env: { FILE_PW: 'f-pw', PHONEWRIGHT_USER: 'env-user', PHONEWRIGHT_PASSWORD: 'env-pw', PHONEWRIGHT_API_ROOT: '/TotalControl/v2' },
    want: { url: 'http://file:8090', user: 'env-user', password: 'env-pw', apiRoot: '/TotalControl/v2' },
  },
  {
    name: 'PHONEWRIGHT_URL leaves the file out entirely',
    flags: {},
    env: { PHONEWRIGHT_URL: 'http://env:8090/' },
    want: { name: 'env', url: 'http://env:8090', user: 'sigma', password: '3D391497', apiRoot: '/TotalControl/v1', devices: undefined },
  },
  {
    name: 'flags over the environment',
    flags: { url: 'http://flag:8090', user: 'flag-user', password: 'flag-pw', apiRoot: '/Service/v1' },
    env: { PHONEWRIGHT_URL: 'http://env:8090', PHONEWRIGHT_USER: 'env-user', PHONEWRIGHT_PASSWORD: 'env-pw', PHONEWRIGHT_API_ROOT: '/x/v1' },
    want: { url: 'http://flag:8090', user: 'flag-user', password: 'flag-pw', apiRoot: '/Service/v1' },
  },
  { name: 'an empty variable counts as unset', flags: {}, env: { FILE_PW: 'f-pw', PHONEWRIGHT_USER: '', PHONEWRIGHT_URL: '' }, want: { url: 'http://file:8090', user: 'file-user' } },
  { name: '--password makes passwordEnv unnecessary', flags: { password: 'flag-pw' }, env: {}, want: { password: 'flag-pw' } },
];

for (const { name, flags, env, want } of PRECEDENCE) {
  test(`resolveConnection: ${name}`, () => {
    expect(resolveConnection(flags, env, ONE)).toMatchObject(want);
  });
}

test('resolveConnection: passwordEnv unset is a config error naming the variable and the way out', () => {
  const e = thrown(() => resolveConnection({}, {}, ONE));
  expect(e.code).toBe('PW_CONFIG');
  expect(e.message).toBe('server "default": the environment variable FILE_PW (its passwordEnv) is not set; try: export FILE_PW=… before running, or pass --password');
});

test('resolveConnection: several servers need a choice; --server beats PHONEWRIGHT_SERVER', () => {
  expect(thrown(() => resolveConnection({}, {}, TWO)).message).toMatch(/lists 2 servers \(lab-a, lab-b\); try: choose one with --server NAME/);
  expect(resolveConnection({}, { PHONEWRIGHT_SERVER: 'lab-a' }, TWO).url).toBe('http://a:8090');
  expect(resolveConnection({ server: 'lab-b' }, { PHONEWRIGHT_SERVER: 'lab-a', B_PW: 'b' }, TWO)).toMatchObject({ name: 'lab-b', url: 'http://b:8090', password: 'b' });
  expect(resolveConnection({ url: 'http://flag:1' }, {}, TWO).name).toBe('env');
  const unknown = thrown(() => resolveConnection({ server: 'lab-z' }, {}, TWO));
  expect([unknown.code, unknown.message]).toEqual(['PW_USAGE', 'no server named "lab-z" in /lab/phonewright.config.json; try: one of lab-a, lab-b']);
  expect(thrown(() => resolveConnection({ server: 'lab-a' }, {})).message).toMatch(/there is no phonewright\.config\.json listing servers/);
});

test('resolveConnection: a bad URL or user from a flag or the environment is bad usage, naming where it came from', () => {
  expect(thrown(() => resolveConnection({ url: 'nope' }, {})).message).toMatch(/^--url: "nope" is not a URL/);
  expect(thrown(() => resolveConnection({}, { PHONEWRIGHT_URL: 'http://u:p@h:1' })).message).toMatch(/^PHONEWRIGHT_URL: credentials do not belong in the URL/);
  expect(thrown(() => resolveConnection({ user: 'a:b' }, {})).code).toBe('PW_USAGE');
  expect(thrown(() => resolveConnection({}, { PHONEWRIGHT_API_ROOT: 'no root' })).message).toMatch(/invalid API root/);
});

test('resolveServers: nothing configured is the simulator; PHONEWRIGHT_DEVICES lists its phones', () => {
  expect(resolveServers({})).toMatchObject([{ name: 'simulator', url: undefined, devices: undefined }]);
  expect(resolveServers({ PHONEWRIGHT_DEVICES: ' device@1, main ,' })[0]!.devices).toEqual([{ id: 'device@1' }, { id: 'main' }]);
});

test('resolveServers: PHONEWRIGHT_URL is one server, whatever the file lists', () => {
  const servers = resolveServers({ PHONEWRIGHT_URL: 'http://env:8090', PHONEWRIGHT_DEVICES: 'device@5' }, TWO);
  expect(servers).toMatchObject([{ name: 'env', url: 'http://env:8090', devices: [{ id: 'device@5' }] }]);
});

test('resolveServers: every server of the file, or those PHONEWRIGHT_SERVER names (a comma list)', () => {
  expect(resolveServers({ B_PW: 'b' }, TWO).map((s) => s.name)).toEqual(['lab-a', 'lab-b']);
  expect(resolveServers({ PHONEWRIGHT_SERVER: 'lab-b', B_PW: 'b' }, TWO).map((s) => [s.name, s.password])).toEqual([['lab-b', 'b']]);
  expect(resolveServers({ PHONEWRIGHT_SERVER: 'lab-b, lab-a', B_PW: 'b' }, TWO).map((s) => s.name)).toEqual(['lab-b', 'lab-a']);
  expect(thrown(() => resolveServers({ PHONEWRIGHT_SERVER: 'lab-c' }, TWO)).message).toMatch(/no server named "lab-c"/);
  expect(thrown(() => resolveServers({}, TWO)).message).toMatch(/B_PW \(its passwordEnv\) is not set/);
});

test('resolveServers: PHONEWRIGHT_DEVICES selects configured phones by id or by name, across servers', () => {
  const servers = resolveServers({ B_PW: 'b', PHONEWRIGHT_DEVICES: 's9,main' }, TWO);
  // lab-a lists device@1 and s9; lab-b lists none, which means its main device.
  expect(servers.map((s) => [s.name, s.devices])).toEqual([
    ['lab-a', [{ id: 'device@2', name: 's9' }]],
    ['lab-b', [{ id: 'main' }]],
  ]);
  expect(resolveServers({ B_PW: 'b', PHONEWRIGHT_DEVICES: 'device@1' }, TWO).map((s) => s.name)).toEqual(['lab-a']);
});

test('resolveServers: a phone no selected server lists, or a malformed id, is a config error', () => {
  const e = thrown(() => resolveServers({ B_PW: 'b', PHONEWRIGHT_DEVICES: 'device@9,pixel-7' }, TWO));
  expect(e.code).toBe('PW_CONFIG');
  expect(e.message).toMatch(/PHONEWRIGHT_DEVICES names device@9, pixel-7, which no selected server in \/lab\/phonewright\.config\.json lists; try: one of device@1, s9, main/);
  const bad = thrown(() => resolveServers({ PHONEWRIGHT_DEVICES: 'device@01' }));
  expect([bad.code, bad.message]).toEqual(['PW_CONFIG', expect.stringMatching(/^PHONEWRIGHT_DEVICES: invalid device id "device@01"/)]);
});

test('parseDeviceList: unset or blank is undefined; names pass through for matching', () => {
  expect(parseDeviceList(undefined)).toBeUndefined();
  expect(parseDeviceList(' , ')).toBeUndefined();
  expect(parseDeviceList('main,s9,device@-230441652')).toEqual(['main', 's9', 'device@-230441652']);
});

test('PHONEWRIGHT_DEVICES=all: every phone of each server of the run; it goes alone', () => {
  expect(parseDeviceList(' all ')).toBe('all');
  expect(resolveServers({ PHONEWRIGHT_DEVICES: 'all' })).toMatchObject([{ name: 'simulator', devices: 'all' }]);
  expect(resolveServers({ PHONEWRIGHT_URL: 'http://env:8090', PHONEWRIGHT_DEVICES: 'all' })).toMatchObject([{ name: 'env', devices: 'all' }]);
  expect(resolveServers({ B_PW: 'b', PHONEWRIGHT_DEVICES: 'all' }, TWO).map((s) => [s.name, s.devices])).toEqual([['lab-a', 'all'], ['lab-b', 'all']]);
  const e = thrown(() => parseDeviceList('all,main'));
  expect([e.code, e.message]).toEqual([
    'PW_CONFIG',
    'PHONEWRIGHT_DEVICES: "all" takes every phone of the server and goes alone, not with main; try: PHONEWRIGHT_DEVICES=all, or list the phones: PHONEWRIGHT_DEVICES=main,device@1116106541',
  ]);
});

test('"devices": "all" in the file: every phone the server lists; PHONEWRIGHT_DEVICES takes an id there, not a name', () => {
  const f = file({ servers: [{ name: 'lab-a', url: 'http://a:8090', devices: 'all' }, { name: 'lab-b', url: 'http://b:8090', devices: [{ id: 'device@2', name: 's9' }] }] });
  expect(resolveServers({}, f).map((s) => s.devices)).toEqual(['all', [{ id: 'device@2', name: 's9' }]]);
  expect(resolveServers({ PHONEWRIGHT_DEVICES: 'device@7,s9' }, f).map((s) => [s.name, s.devices])).toEqual([
    ['lab-a', [{ id: 'device@7' }]],
    ['lab-b', [{ id: 'device@2', name: 's9' }]],
  ]);
  expect(thrown(() => resolveServers({ PHONEWRIGHT_DEVICES: 'pixel-7' }, f)).message).toMatch(/names pixel-7, which no selected server .* lists; try: one of any id lab-a lists, s9$/);
});
