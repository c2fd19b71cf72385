import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { REPO_ROOT } from '../../support/cli.js';
import { machineTmpdir } from '../../support/testFiles.js';
import { capabilityHex, run, scratch, skopeoInspect } from './helpers.js';

/*
 * Real Debian packages (fetched by .ci/debian-packages with apt-get download, cached per machine):
 * the closure resolves with Debian's real relations, and the unpacked image runs iptables.
 */
// A cache kept on purpose between runs, so it lives outside the test's own TMPDIR.
const CACHE = join(machineTmpdir(), 'linkerd-image-debian-packages');
const PACKAGES = ['iptables', 'libcap2-bin', 'ca-certificates'];

describe('image build from real Debian packages', () => {
  const s = scratch('debian');
  beforeAll(() => {
    execFileSync(join(REPO_ROOT, '.ci/debian-packages'), [CACHE, ...PACKAGES], { stdio: 'inherit', timeout: 300_000 });
  }, 320_000);
  afterAll(() => s.remove());

  it('resolves iptables, libcap2-bin and ca-certificates with their closure, and chroot ROOTFS /usr/sbin/iptables --version runs', async () => {
    const config = join(s.dir, 'debian.yml');
    writeFileSync(
      config,
      [
        'contents:',
        `  repositories: [${CACHE}]`,
        `  packages: [${PACKAGES.join(', ')}]`,
        'paths:',
        '  - path: /usr/sbin/iptables',
        '    type: symlink',
        '    source: /usr/sbin/iptables-nft',
        'capabilities:',
        '  - path: /usr/sbin/xtables-nft-multi',
        '    capabilities: cap_net_raw,cap_net_admin+eip',
        'archs: [amd64]',
        '',
      ].join('\n'),
    );
    const r = await buildImage({ config, cwd: s.dir, output: join(s.dir, 'oci'), tag: 'debian/iptables:test', archs: [], packages: [] });
    const names = r.images[0]?.packages.map((p) => p.name) ?? [];
    for (const n of ['iptables', 'libc6', 'libxtables12', 'libnftnl11', 'libcap2', 'libcap2-bin', 'openssl', 'libssl3', 'debconf']) expect(names).toContain(n);
    // debconf's `debconf | debconf-2.0` is met once, not by both of its providers
    expect(names.filter((n) => n === 'cdebconf' || n === 'debconf')).toHaveLength(1);

    const inspect = await skopeoInspect(`oci:${join(s.dir, 'oci')}:test`);
    expect(inspect.Architecture).toBe('amd64');
    const bundle = join(s.dir, 'bundle');
    await run('umoci', ['unpack', '--rootless', '--image', `${join(s.dir, 'oci')}:test`, bundle]);
    const rootfs = join(bundle, 'rootfs');
    expect(await capabilityHex(join(rootfs, 'usr/sbin/xtables-nft-multi'))).toBe('0100000200300000003000000000000000000000');
    const { stdout } = await run('chroot', [rootfs, '/usr/sbin/iptables', '--version']);
    expect(stdout).toMatch(/^iptables v1\.\d+\.\d+ \(nf_tables\)/);
    const { stdout: certs } = await run('chroot', [rootfs, '/usr/bin/openssl', 'version']);
    expect(certs).toMatch(/^OpenSSL 3/);
    const status = execFileSync('grep', ['-c', '^Package: ', join(rootfs, 'var/lib/dpkg/status')], { encoding: 'utf8' });
    expect(Number(status)).toBe(names.length);
  });
});
