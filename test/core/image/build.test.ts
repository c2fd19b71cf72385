import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage, type BuildOptions } from '../../../src/core/image/build.js';
import { apkRepository, debRepository, writeConfig } from './fixtures.js';
import { capabilityHex, run, scratch, skopeoInspect, treeOf, type TreeEntry } from './helpers.js';

/** Owners umoci --rootless recorded (user.rootlesscontainers: protobuf uid=1, gid=2), else 0:0. */
async function rootlessOwner(file: string): Promise<[number, number]> {
  const r = await run('getfattr', ['--absolute-names', '-e', 'hex', '-n', 'user.rootlesscontainers', file]).catch(() => ({ stdout: '' }));
  const hex = /=0x([0-9a-f]+)/.exec(r.stdout)?.[1];
  if (!hex) return [0, 0];
  const bytes = Buffer.from(hex, 'hex');
  const out: Record<number, number> = {};
  for (let i = 0; i < bytes.length;) {
    const field = (bytes[i++] ?? 0) >> 3;
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[i++] ?? 0;
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) break;
    }
    out[field] = v;
  }
  return [out[1] ?? 0, out[2] ?? 0];
}

async function unpack(layoutRef: string, bundle: string): Promise<Map<string, TreeEntry>> {
  await run('umoci', ['unpack', '--rootless', '--image', layoutRef, bundle]);
  const tree = await treeOf(join(bundle, 'rootfs'));
  for (const [path, e] of tree) {
    const [uid, gid] = await rootlessOwner(join(bundle, 'rootfs', path));
    tree.set(path, { ...e, uid, gid });
  }
  return tree;
}

const CAP_NET_RAW_ADMIN_EIP = '0100000200300000003000000000000000000000';

describe('image build: .deb packages into an OCI layout', () => {
  const s = scratch('deb');
  const repo = join(s.dir, 'repo');
  let config: string;
  beforeAll(async () => {
    await debRepository(repo);
    writeFileSync(join(s.dir, 'proxy-bin'), 'the proxy\n');
    chmodSync(join(s.dir, 'proxy-bin'), 0o644);
    config = writeConfig(s.dir, 'image.yml', [
      'contents:',
      '  repositories: [./repo]',
      '  packages: [app]',
      'accounts:',
      '  users:',
      '    - {username: nonroot, uid: 65532}',
      '  groups:',
      '    - {groupname: nonroot, gid: 65532, members: [nonroot]}',
      '  run-as: nonroot',
      'work-dir: /home/nonroot',
      'paths:',
      '  - {path: /run, type: directory, permissions: 0o1777}',
      '  - {path: /etc/ready, type: empty-file, permissions: 0600, uid: 65532}',
      '  - {path: /usr/bin/app2, type: symlink, source: /usr/bin/app}',
      '  - {path: /var/lib/app, type: permissions, permissions: 0o700, uid: 65532, gid: 65532, recursive: true}',
      'files:',
      '  - path: /usr/lib/linkerd/linkerd2-proxy',
      '    source: proxy-bin',
      '    mode: 0o750',
      '    uid: 65532',
      '    gid: 65534',
      '    capabilities: cap_net_raw,cap_net_admin+eip',
      'capabilities:',
      "  - {path: /usr/bin/app-link, capabilities: 'cap_net_raw,cap_net_admin+eip'}",
      'environment: {LOG: "on", A_FIRST: "1"}',
      'entrypoint: {command: /usr/bin/app --flag "two words"}',
      'cmd: serve',
      'stop-signal: SIGTERM',
      'volumes: [/data]',
      'annotations: {org.opencontainers.image.title: test}',
      'vcs-url: https://example.com/linkerd/proxy@0123abc',
    ]);
  });
  afterAll(() => s.remove());
  const opts = (o: Partial<BuildOptions>): BuildOptions => ({
    config,
    cwd: s.dir,
    output: join(s.dir, 'oci'),
    tag: 'example/app:1.0',
    archs: ['amd64'],
    packages: [],
    ...o,
  });

  it('resolves the closure: the newest version meeting a relation, a virtual package, a cycle; nothing unasked', async () => {
    const r = await buildImage(opts({ output: join(s.dir, 'closure') }));
    const pkgs = r.images[0]?.packages.map((p) => `${p.name} ${p.version}`).sort();
    expect(pkgs).toEqual(['app 2.0-1', 'cyc-a 1.0-1', 'cyc-b 1.0-1', 'libssl 3.1.0-1', 'tinymail 1.0']);
  });

  it('skopeo reads the layout; umoci unpacks it (checking every digest) into the configured tree, modes, owners and capabilities', async () => {
    const r = await buildImage(opts({}));
    const inspect = await skopeoInspect(`oci:${r.output}:1.0`);
    expect(inspect.Digest).toBe(r.digest);
    expect(inspect.Architecture).toBe('amd64');
    expect(inspect.Env).toEqual([
      'A_FIRST=1',
      'LOG=on',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt',
    ]);
    expect(inspect.Labels).toEqual({ 'org.opencontainers.image.title': 'test' });
    const config = await skopeoInspect(`oci:${r.output}:1.0`, false, ['--config']);
    const c = config.config as Record<string, unknown>;
    expect(c.User).toBe('65532');
    expect(c.Entrypoint).toEqual(['/usr/bin/app', '--flag', 'two words']);
    expect(c.Cmd).toEqual(['serve']);
    expect(c.WorkingDir).toBe('/home/nonroot');
    expect(c.StopSignal).toBe('SIGTERM');
    expect(c.Volumes).toEqual({ '/data': {} });
    expect((config.rootfs as { diff_ids: string[] }).diff_ids).toEqual([r.images[0]?.layer.diffId]);
    const manifest = await skopeoInspect(`oci:${r.output}:1.0`, true);
    expect(manifest.annotations).toEqual({
      'org.opencontainers.image.created': '2023-11-14T22:13:20Z',
      'org.opencontainers.image.revision': '0123abc',
      'org.opencontainers.image.source': 'https://example.com/linkerd/proxy',
      'org.opencontainers.image.title': 'test',
    });

    const bundle = join(s.dir, 'bundle');
    const tree = await unpack(`${r.output}:1.0`, bundle);
    const expected: Record<string, Partial<TreeEntry>> = {
      'usr/bin/app': { type: 'f', mode: '755', uid: 0, gid: 0 },
      'usr/bin/app-ping': { type: 'f', mode: '4755' },
      'usr/bin/app-link': { type: 'l', link: 'app' },
      'usr/bin/app2': { type: 'l', link: '/usr/bin/app' },
      'usr/bin/app-hard': { type: 'f', mode: '755' },
      'var/lib/app': { type: 'd', mode: '700', uid: 65532, gid: 65532 },
      'var/lib/app/state': { type: 'f', mode: '700', uid: 65532, gid: 65532 },
      'usr/lib/libssl.so.3': { type: 'f' },
      'usr/sbin/sendmail': { type: 'f', mode: '755' },
      'usr/lib/linkerd/linkerd2-proxy': { type: 'f', mode: '750', uid: 65532, gid: 65534, size: 10 },
      run: { type: 'd', mode: '1777' },
      'etc/ready': { type: 'f', mode: '600', uid: 65532, size: 0 },
      'home/nonroot': { type: 'd', mode: '700', uid: 65532, gid: 65532 },
      'var/lib/dpkg/status': { type: 'f' },
    };
    for (const [path, want] of Object.entries(expected)) expect({ path, ...tree.get(path) }).toMatchObject({ path, ...want });
    expect(tree.has('etc/unused')).toBe(false);
    expect(tree.has('usr/lib/libssl.so.2')).toBe(false);
    const rootfs = join(bundle, 'rootfs');
    expect(readFileSync(join(rootfs, 'usr/bin/app'), 'utf8')).toBe('#!/bin/sh\necho app amd64\n');
    expect(readFileSync(join(rootfs, 'etc/passwd'), 'utf8')).toMatch(/^nonroot:x:65532:65532:[^:]*:\/home\/nonroot:\/bin\/sh$/m);
    expect(readFileSync(join(rootfs, 'etc/group'), 'utf8')).toBe('nonroot:x:65532:nonroot\n');
    expect(await capabilityHex(join(rootfs, 'usr/lib/linkerd/linkerd2-proxy'))).toBe(CAP_NET_RAW_ADMIN_EIP);
    expect(await capabilityHex(join(rootfs, 'usr/bin/app'))).toBe(CAP_NET_RAW_ADMIN_EIP);
    expect(await capabilityHex(join(rootfs, 'usr/bin/app-ping'))).toBe('');
    const { stdout: links } = await run('stat', ['-c', '%i', join(rootfs, 'usr/bin/app'), join(rootfs, 'usr/bin/app-hard')]);
    const [a, b] = links.trim().split('\n');
    expect(a).toBe(b);
    expect(readFileSync(join(rootfs, 'var/lib/dpkg/status'), 'utf8')).toMatch(/^Package: app\nStatus: install ok installed\nVersion: 2\.0-1$/m);
  });

  it('writes oci-archive and docker-archive that skopeo reads, the docker one tagged exactly as asked', async () => {
    const oci = await buildImage(opts({ output: join(s.dir, 'image-oci.tar'), format: 'oci-archive' }));
    expect((await skopeoInspect(`oci-archive:${oci.output}:1.0`)).Digest).toBe(oci.digest);
    const docker = await buildImage(opts({ output: join(s.dir, 'image.tar') }));
    expect(docker.format).toBe('docker-archive');
    // skopeo finds the image by the tag given, and by no other
    const d = await skopeoInspect(`docker-archive:${docker.output}:example/app:1.0`);
    expect(d.Architecture).toBe('amd64');
    await expect(skopeoInspect(`docker-archive:${docker.output}:example/app:1.0-amd64`)).rejects.toThrow();
    const manifest = JSON.parse((await run('tar', ['-xOf', docker.output, 'manifest.json'])).stdout) as { RepoTags: string[] }[];
    expect(manifest.map((m) => m.RepoTags)).toEqual([['example/app:1.0']]);
    const { stdout } = await run('tar', ['-tf', docker.output]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['manifest.json', 'index.json', 'oci-layout']));
    // the same image in every form
    expect(oci.digest).toBe(docker.digest);
    await run('skopeo', ['copy', `docker-archive:${docker.output}`, `oci:${join(s.dir, 'copied')}:x`]);
    expect(existsSync(join(s.dir, 'copied', 'index.json'))).toBe(true);
  });

  it('is reproducible: two builds give the same digests, and SOURCE_DATE_EPOCH sets every time', async () => {
    const one = await buildImage(opts({ output: join(s.dir, 'r1'), sourceDateEpoch: 1_800_000_000 }));
    const two = await buildImage(opts({ output: join(s.dir, 'r2'), sourceDateEpoch: 1_800_000_000 }));
    expect(two.digest).toBe(one.digest);
    expect(readdirSync(join(s.dir, 'r2/blobs/sha256')).sort()).toEqual(readdirSync(join(s.dir, 'r1/blobs/sha256')).sort());
    const inspect = await skopeoInspect(`oci:${one.output}:1.0`);
    expect(inspect.Created).toBe('2027-01-15T08:00:00Z');
    const { stdout } = await run('sh', [
      '-c',
      `tar -tvzf ${join(one.output, 'blobs/sha256', one.images[0]?.layer.digest.slice(7) ?? '')} | awk '{print $4, $5}' | sort -u`,
    ]);
    // package files keep their times; what the build makes (accounts, files, paths) gets the epoch
    expect(stdout.trim().split('\n')).toEqual(['2023-11-14 22:13', '2027-01-15 08:00']);
    const other = await buildImage(opts({ output: join(s.dir, 'r3'), sourceDateEpoch: 1_234_567_890 }));
    expect(other.digest).not.toBe(one.digest);
    // an epoch older than a package clamps that package's times too
    const { stdout: clamped } = await run('sh', [
      '-c',
      `tar -tvzf ${join(other.output, 'blobs/sha256', other.images[0]?.layer.digest.slice(7) ?? '')} | awk '{print $4, $5}' | sort -u`,
    ]);
    expect(clamped.trim()).toBe('2009-02-13 23:31');
    // without SOURCE_DATE_EPOCH, the newest package's date
    const dflt = await buildImage(opts({ output: join(s.dir, 'r4') }));
    expect(dflt.epoch).toBe(1_700_000_000);
  });

  it('writes an SPDX 2.3 SBOM naming every package and file', async () => {
    const r = await buildImage(opts({ output: join(s.dir, 'sbom-oci'), sbom: join(s.dir, 'sbom.spdx.json') }));
    const doc = JSON.parse(readFileSync(join(s.dir, 'sbom.spdx.json'), 'utf8')) as {
      spdxVersion: string;
      packages: { name: string; versionInfo: string; externalRefs?: { referenceLocator: string }[] }[];
      files: { fileName: string; checksums: { algorithm: string; checksumValue: string }[] }[];
      relationships: unknown[];
    };
    expect(doc.spdxVersion).toBe('SPDX-2.3');
    expect(doc.packages[0]?.name).toBe('example/app:1.0');
    expect(doc.packages.map((p) => p.name).sort()).toEqual(['app', 'cyc-a', 'cyc-b', 'example/app:1.0', 'libssl', 'tinymail']);
    expect(doc.packages[0]?.versionInfo).toBe(r.digest);
    expect(doc.packages.find((p) => p.name === 'libssl')?.externalRefs?.[0]?.referenceLocator).toBe('pkg:deb/debian/libssl@3.1.0-1?arch=amd64');
    const proxy = doc.files.find((f) => f.fileName === '/usr/lib/linkerd/linkerd2-proxy');
    expect(proxy?.checksums).toEqual([{ algorithm: 'SHA256', checksumValue: createHash('sha256').update('the proxy\n').digest('hex') }]);
    expect(doc.files.map((f) => f.fileName)).toEqual(expect.arrayContaining(['/usr/bin/app', '/etc/passwd', '/var/lib/dpkg/status', '/etc/cyc-a']));
  });
});

describe('image build: .apk repositories and several archs', () => {
  const s = scratch('apk');
  const repo = join(s.dir, 'wolfi');
  beforeAll(() => apkRepository(repo, ['x86_64', 'aarch64']));
  afterAll(() => s.remove());

  it('builds a two-arch image index from an apk repository; each platform has its own packages', async () => {
    const config = writeConfig(s.dir, 'apk.yml', [
      'contents:',
      '  repositories: [https://packages.example/os]',
      '  runtime_repositories: [https://packages.example/os]',
      '  packages: [hello]',
      'archs: [x86_64, aarch64]',
    ]);
    const r = await buildImage({ config, cwd: s.dir, output: join(s.dir, 'oci'), tag: 'example/hello:2', archs: [], packages: [repo] });
    expect(r.images.map((i) => i.platform)).toEqual(['amd64', 'arm64']);
    expect(r.images[0]?.packages.map((p) => `${p.name}-${p.version}`)).toEqual(['glibc-2.40-r0', 'busybox-1.36.1-r5', 'hello-1.2.3-r1']);
    const index = await skopeoInspect(`oci:${r.output}:2`, true);
    expect(index.mediaType).toBe('application/vnd.oci.image.index.v1+json');
    const platforms = (index.manifests as { platform: { architecture: string; variant?: string } }[]).map((m) => m.platform);
    expect(platforms).toEqual([
      { architecture: 'amd64', os: 'linux' },
      { architecture: 'arm64', os: 'linux', variant: 'v8' },
    ]);
    const arm = await skopeoInspect(`oci:${r.output}:2`, false, ['--override-arch', 'arm64']);
    expect(arm.Architecture).toBe('arm64');
    expect(arm.Layers).toEqual([r.images[1]?.layer.digest]);
    // umoci unpacks one image: take the amd64 one out of the index with skopeo first
    await run('skopeo', ['copy', '--override-arch', 'amd64', `oci:${r.output}:2`, `oci:${join(s.dir, 'amd64')}:2`]);
    const tree = await unpack(`${join(s.dir, 'amd64')}:2`, join(s.dir, 'bundle'));
    expect(tree.get('usr/bin/hello')).toMatchObject({ type: 'f', mode: '755' });
    expect(tree.get('bin/sh')).toMatchObject({ type: 'l', link: '/bin/busybox' });
    expect(readFileSync(join(s.dir, 'bundle/rootfs/usr/bin/hello'), 'utf8')).toBe('hello x86_64\n');
    const installed = readFileSync(join(s.dir, 'bundle/rootfs/lib/apk/db/installed'), 'utf8');
    expect(installed).toMatch(/^P:hello\nV:1\.2\.3-r1\nA:x86_64\n/m);
    expect(installed).toMatch(/^F:usr\/bin\nR:hello$/m);
    expect(readFileSync(join(s.dir, 'bundle/rootfs/etc/apk/repositories'), 'utf8')).toBe('https://packages.example/os\n');
  });
});
