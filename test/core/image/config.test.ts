import { describe, expect, it } from 'vitest';
import { capabilityXattr, parseCapabilities } from '../../../src/core/image/capabilities.js';
import { parseImageConfig } from '../../../src/core/image/config.js';
import { paxEntry, paxXattrs } from '../../../src/core/image/layer.js';
import { shellWords } from '../../../src/core/image/oci.js';
import { parseApkDependency, parseDebDepends } from '../../../src/core/image/packageMeta.js';
import { parseRequest, resolveClosure } from '../../../src/core/image/resolve.js';
import { compareApkVersions, compareDebVersions } from '../../../src/core/image/versions.js';
import type { PackageMeta } from '../../../src/core/image/packageMeta.js';
import { defaultImageConfig } from '../../../templates/image/proxy-runtime.js';

describe('image config', () => {
  it("the embedded default is valid and is linkerd's proxy runtime plus the binaries", () => {
    const c = parseImageConfig(defaultImageConfig, 'default');
    expect(c.contents?.packages).toEqual([
      'ca-certificates-bundle',
      'glibc',
      'iptables',
      'ip6tables',
      'libnetfilter_conntrack',
      'libnfnetlink',
      'libmnl',
      'libgcc',
      'nftables-slim',
      'libcap-utils',
    ]);
    expect(c.archs).toEqual(['x86_64', 'aarch64']);
    expect(c.accounts?.users).toEqual([
      { username: 'nonroot', uid: 65532 },
      { username: 'nobody', uid: 65534 },
    ]);
    expect(c.paths).toEqual([{ path: '/run', type: 'directory', permissions: 0o755 }]);
    expect(c.files?.map((f) => f.path)).toContain('/usr/lib/linkerd/linkerd2-proxy');
    expect(c.files?.find((f) => f.path === '/usr/lib/linkerd/linkerd2-proxy-init')?.capabilities).toBe('cap_net_raw,cap_net_admin+eip');
    expect(c.capabilities?.map((e) => e.path)).toEqual(['/usr/sbin/xtables-legacy-multi', '/usr/sbin/xtables-nft-multi']);
    expect(c.entrypoint?.command).toBe('/usr/lib/linkerd/linkerd2-proxy-identity');
  });

  it('reads 0755 as octal, as apko does, and 0o755 too', () => {
    const c = parseImageConfig('paths:\n  - {path: /a, type: directory, permissions: 0755}\n  - {path: /b, type: directory, permissions: 0o700}\n', 'x.yml');
    expect(c.paths?.map((p) => p.permissions)).toEqual([0o755, 0o700]);
  });

  it.each([
    ['contents:\n  pakages: [a]\n', /^x\.yml:2: contents\.pakages: unknown key "pakages"$/],
    ['archs: [x86_64, sparc]\n', /^x\.yml:1: archs\[1\]: unknown architecture/],
    ['accounts:\n  users:\n    - username: a\n      uid: -1\n', /^x\.yml:4: accounts\.users\[0\]\.uid: /],
    ['files:\n  - path: relative/x\n    source: y\n', /^x\.yml:2: files\[0\]\.path: must be an absolute path/],
    ['files:\n  - path: /x\n    source: y\n    capabilities: cap_bogus+ep\n', /files\[0\]\.capabilities: unknown capability "cap_bogus"/],
    ['accounts:\n  run-as: ghost\n', /accounts\.run-as: "ghost" is not one of accounts\.users/],
    ['paths:\n  - {path: /l, type: symlink}\n', /paths\[0\]\.source: a symlink needs a source/],
    ['include: base.yml\n', /include: is deprecated/],
    ['a: [\n', /^x\.yml:\d+: invalid YAML/],
  ])('refuses %j naming the key path', (text, message) => {
    expect(() => parseImageConfig(text, 'x.yml')).toThrow(message);
  });
});

describe('file capabilities', () => {
  it("writes setcap's cap_net_raw,cap_net_admin+eip as the VFS_CAP_REVISION_2 xattr", () => {
    expect(capabilityXattr(parseCapabilities('cap_net_raw,cap_net_admin+eip', 'x')).toString('hex')).toBe('0100000200300000003000000000000000000000');
    // high capability numbers land in the second word; no effective bit without `e`
    expect(capabilityXattr(parseCapabilities('CAP_BPF+p', 'x')).toString('hex')).toBe('0000000200000000000000008000000000000000');
  });

  it('puts binary xattr values into a PAX header byte for byte (GNU tar reads them back)', () => {
    const value = Buffer.from([0x01, 0x00, 0x80, 0xff, 0x0a]);
    const records = paxXattrs(new Map([['security.capability', value]]));
    const text = records.toString('latin1');
    const len = Number(text.slice(0, text.indexOf(' ')));
    expect(len).toBe(records.length);
    expect(records.subarray(records.length - 6, records.length - 1)).toEqual(value);
    const block = paxEntry('PaxHeaders/x', records, 0);
    expect(block.length % 512).toBe(0);
    expect(block.toString('latin1', 156, 157)).toBe('x');
  });
});

describe('package relations and versions', () => {
  it('orders Debian versions (epochs, ~, revisions) and apk versions (suffixes, -rN)', () => {
    const deb = ['1:0.9', '1.0~rc1', '1.0', '1.0-1', '1.0-1+b1', '1.0.1', '1.10', '2.0~beta'].sort(compareDebVersions);
    expect(deb).toEqual(['1.0~rc1', '1.0', '1.0-1', '1.0-1+b1', '1.0.1', '1.10', '2.0~beta', '1:0.9']);
    const apk = ['1.2.3-r1', '1.2.3_rc1-r0', '1.2.3-r0', '1.2.10-r0', '1.2.3_p1-r0', '1.2.3a-r0'].sort(compareApkVersions);
    expect(apk).toEqual(['1.2.3_rc1-r0', '1.2.3-r0', '1.2.3-r1', '1.2.3_p1-r0', '1.2.3a-r0', '1.2.10-r0']);
  });

  it('parses Debian Depends with alternatives and arch qualifiers, and apk depends', () => {
    expect(parseDebDepends('libc6 (>= 2.34), debconf (>= 0.5) | debconf-2.0, python3:any')).toEqual([
      [{ name: 'libc6', rel: '>=', version: '2.34' }],
      [{ name: 'debconf', rel: '>=', version: '0.5' }, { name: 'debconf-2.0' }],
      [{ name: 'python3' }],
    ]);
    expect(parseApkDependency('so:libc.so.6')).toEqual({ name: 'so:libc.so.6' });
    expect(parseApkDependency('busybox>=1.36')).toEqual({ name: 'busybox', rel: '>=', version: '1.36' });
    expect(parseApkDependency('!conflict')).toBeUndefined();
    expect(parseRequest('glibc=2.40-r0')).toEqual({ dep: { name: 'glibc', rel: '=', version: '2.40-r0' }, tag: undefined });
    expect(parseRequest('hello@local')).toEqual({ dep: { name: 'hello' }, tag: 'local' });
  });

  const pkg = (name: string, version: string, depends: PackageMeta['depends'] = [], provides: PackageMeta['provides'] = []): PackageMeta => ({
    format: 'deb',
    name,
    version,
    arch: 'amd64',
    depends,
    provides,
    file: `${name}.deb`,
    label: `${name}.deb`,
    buildTime: 0,
  });

  it('keeps an installed alternative, pins with name=version, and names a conflict', () => {
    const available = [pkg('a', '1', [[{ name: 'x' }, { name: 'y' }]]), pkg('b', '1', [[{ name: 'y' }]]), pkg('x', '1'), pkg('y', '1'), pkg('y', '2')];
    expect(resolveClosure(['b', 'a'], available, 'amd64').packages.map((p) => `${p.name}=${p.version}`)).toEqual(['y=2', 'b=1', 'a=1']);
    expect(resolveClosure(['y=1'], available, 'amd64').packages.map((p) => `${p.name}=${p.version}`)).toEqual(['y=1']);
    expect(() => resolveClosure(['y=1', 'b', 'y=2'], available, 'amd64')).toThrow(/asks for y=2, but y 1 is already needed/);
    expect(() => resolveClosure(['nothere'], available, 'amd64')).toThrow(/package nothere \(contents\.packages\) is not in the repositories/);
  });
});

describe('shell words', () => {
  it('splits entrypoint and cmd strings like a shell, without expansions', () => {
    expect(shellWords(`/bin/app --a "b c" 'd e' f\\ g $HOME`)).toEqual(['/bin/app', '--a', 'b c', 'd e', 'f g', '$HOME']);
  });
});
