import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImageConfig } from '../../src/core/image/config.js';
import { defaultImageConfig } from '../../templates/image/proxy-runtime.js';
import { LINKERD_BIN, runCli } from '../support/cli.js';
import { makeApk, signingKey, writeApkIndex } from '../support/packages.js';
import { run, scratch, skopeoInspect } from '../core/image/helpers.js';

describe('linkerd image', () => {
  const s = scratch('cli');
  beforeAll(async () => {
    const repo = join(s.dir, 'wolfi', 'x86_64');
    const hello = await makeApk(repo, { name: 'hello', files: [{ name: 'usr/bin/hello', content: 'hi\n', mode: 0o755 }] });
    await writeApkIndex(repo, [hello.record]);
    writeFileSync(join(s.dir, 'image.yml'), 'contents:\n  packages: [hello]\narchs: [x86_64]\nentrypoint:\n  command: /usr/bin/hello\n');
  });
  afterAll(() => s.remove());

  it('image config prints the embedded default config', async () => {
    const r = await runCli(['image', 'config']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(defaultImageConfig);
  });

  it('image build writes the image, prints its digest on stdout and a summary on stderr; SOURCE_DATE_EPOCH makes it repeatable', async () => {
    const env = { SOURCE_DATE_EPOCH: '1700000000' };
    const args = (out: string) => [
      'image',
      'build',
      'image.yml',
      '--packages',
      'wolfi',
      '--output',
      out,
      '--tag',
      'example/hello:1',
      '--sbom',
      `${out}.spdx.json`,
    ];
    const one = await runCli(args('one.tar'), { cwd: s.dir, env });
    expect(one.stderr).toMatch(
      /^Built example\/hello:1 \(docker-archive\) at .*one\.tar\n {2}amd64: sha256:[0-9a-f]{64} \(1 packages, layer \d+ bytes\)\nSBOM: .*one\.tar\.spdx\.json\n$/,
    );
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    const two = await runCli(args('two.tar'), { cwd: s.dir, env });
    expect(two.stdout).toBe(one.stdout);
    const inspect = await skopeoInspect(`docker-archive:${join(s.dir, 'one.tar')}:example/hello:1`);
    expect(inspect.Created).toBe('2023-11-14T22:13:20Z');
    expect(JSON.parse(readFileSync(join(s.dir, 'one.tar.spdx.json'), 'utf8'))).toMatchObject({ spdxVersion: 'SPDX-2.3' });
  });

  it.each([
    [['image', 'build', 'image.yml'], /^Error: required flag\(s\) "output" not set\nRun 'linkerd image build --help' for usage\.$/],
    [['image', 'build', 'image.yml', '-o', 'x', '--format', 'zip'], /^Error: --format must be one of oci, oci-archive, docker-archive$/],
    [['image', 'build', 'nope.yml', '-o', 'x'], /^Error: nope\.yml: no such config file$/],
    [
      ['image', 'build', '-o', 'x', '--packages', 'wolfi'],
      /^Error: the embedded default config: contents\.keyring\[0\]: https:\/\/\S+\/wolfi-signing\.rsa\.pub is a URL, and image build reads no network; put wolfi-signing\.rsa\.pub in the --packages directory$/,
    ],
    [
      ['image', 'build', 'image.yml', '-o', 'x'],
      /^Error: image\.yml: contents\.packages names packages but there is no repository; pass a local one with --packages DIR$/,
    ],
    [['image', 'build', 'image.yml', '-o', 'x', '--packages', 'wolfi', '--push', 'nohost'], /^Error: --push nohost: expected REGISTRY\/REPO:TAG/],
  ])('%j fails with one line and no output', async (args, message) => {
    const r = await runCli(args, { cwd: s.dir, env: { SOURCE_DATE_EPOCH: '1' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(message);
    // One line, or one line and cobra's pointer to the usage.
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .filter((l) => !l.startsWith('Run ')),
    ).toHaveLength(1);
    expect(existsSync(join(s.dir, 'x'))).toBe(false);
  });

  it("builds the proxy image from the embedded config: Wolfi-named packages signed by the keyring's key, the binaries from the working directory, capabilities, both archs", async () => {
    const proxy = join(s.dir, 'proxy');
    const key = signingKey('wolfi-signing.rsa.pub');
    mkdirSync(join(proxy, 'wolfi'), { recursive: true });
    writeFileSync(join(proxy, 'wolfi', key.name), key.publicPem);
    // The packages the embedded config names (test/core/image/config.test.ts pins the list).
    const names = parseImageConfig(defaultImageConfig, 'default').contents?.packages ?? [];
    expect(names.length).toBeGreaterThan(0);
    for (const arch of ['x86_64', 'aarch64']) {
      const records: string[] = [];
      for (const name of names) {
        const files =
          name === 'iptables'
            ? [
                { name: 'usr/sbin/xtables-nft-multi', content: 'nft', mode: 0o755 },
                { name: 'usr/sbin/xtables-legacy-multi', content: 'legacy', mode: 0o755 },
                { name: 'usr/sbin/iptables', type: 'symlink' as const, linkname: 'xtables-nft-multi' },
              ]
            : [{ name: `usr/share/${name}/README`, content: name }];
        records.push((await makeApk(join(proxy, 'wolfi', arch), { name, arch, files, signed: key })).record);
      }
      await writeApkIndex(join(proxy, 'wolfi', arch), records, key);
    }
    for (const bin of [
      'linkerd2-proxy',
      'linkerd2-proxy-identity',
      'linkerd2-proxy-init',
      'linkerd2-network-validator',
      'linkerd-await',
      'sleep',
      'LICENSE',
      'linkerd2-proxy-version.txt',
    ]) {
      writeFileSync(join(proxy, bin), `${bin}\n`);
    }
    const r = await runCli(['image', 'build', '--packages', 'wolfi', '--output', 'oci', '--tag', 'cr.l5d.io/linkerd/proxy:dev'], {
      cwd: proxy,
      env: { SOURCE_DATE_EPOCH: '1700000000' },
    });
    expect(r.stderr).toMatch(/amd64: sha256:\S+ \(10 packages.*\n {2}arm64: sha256:\S+ \(10 packages.*\n {2}index: sha256:/);
    expect(r.code).toBe(0);
    await run('skopeo', ['copy', '--override-arch', 'arm64', `oci:${join(proxy, 'oci')}:dev`, `oci:${join(proxy, 'arm64')}:dev`]);
    const config = await skopeoInspect(`oci:${join(proxy, 'arm64')}:dev`, false, ['--config']);
    expect(config).toMatchObject({
      architecture: 'arm64',
      config: { User: '65534', Entrypoint: ['/usr/lib/linkerd/linkerd2-proxy-identity'], WorkingDir: '/home/nonroot' },
    });
    await run('umoci', ['unpack', '--rootless', '--image', `${join(proxy, 'arm64')}:dev`, join(proxy, 'bundle')]);
    const rootfs = join(proxy, 'bundle', 'rootfs');
    const caps = 'cap_net_admin,cap_net_raw=eip';
    for (const f of ['usr/sbin/xtables-nft-multi', 'usr/sbin/xtables-legacy-multi', 'usr/lib/linkerd/linkerd2-proxy-init']) {
      expect((await run('getcap', [join(rootfs, f)])).stdout.trim()).toBe(`${join(rootfs, f)} ${caps}`);
    }
    expect((await run('getcap', [join(rootfs, 'usr/lib/linkerd/linkerd2-proxy')])).stdout.trim()).toBe('');
    expect(readFileSync(join(rootfs, 'usr/lib/linkerd/linkerd2-proxy'), 'utf8')).toBe('linkerd2-proxy\n');
    expect(readFileSync(join(rootfs, 'etc/passwd'), 'utf8')).toMatch(/^nobody:x:65534:65534:/m);
  });

  it('shows progress with a spinner on a terminal, and none on a terminal in CI', async () => {
    const command = `stty cols 80 rows 24; ${LINKERD_BIN} image build image.yml --packages wolfi --output tty.tar`;
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SOURCE_DATE_EPOCH: '1' };
    const tty = await run('script', ['-qec', command, '/dev/null'], { cwd: s.dir, env });
    // ora hides the cursor and draws frames (which texts show depends on timing, so none is asserted)
    expect(tty.stdout).toContain('\u001b[?25l');
    expect(tty.stdout).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(tty.stdout).toMatch(/^sha256:[0-9a-f]{64}\r?$/m);
    const ci = await run('script', ['-qec', command, '/dev/null'], { cwd: s.dir, env: { ...env, CI: 'true' } });
    expect(ci.stdout).not.toContain('\u001b[?25l');
    expect(ci.stdout).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(ci.stdout).toMatch(/^Built linkerd\/proxy:dev \(docker-archive\)/m);
  });

  it('refuses a SOURCE_DATE_EPOCH that is not a number of seconds', async () => {
    const r = await runCli(['image', 'build', 'image.yml', '-o', 'y', '--packages', 'wolfi'], { cwd: s.dir, env: { SOURCE_DATE_EPOCH: 'yesterday' } });
    expect(r.stderr).toBe('Error: SOURCE_DATE_EPOCH must be a whole number of seconds\n');
    expect(r.code).toBe(1);
  });

  it("refuses a SOURCE_DATE_EPOCH past what the image's tar headers hold, in one line, writing nothing", async () => {
    const r = await runCli(['image', 'build', 'image.yml', '-o', 'late', '--packages', 'wolfi'], { cwd: s.dir, env: { SOURCE_DATE_EPOCH: '8589934592' } });
    expect(r.stderr).toBe("Error: SOURCE_DATE_EPOCH=8589934592 is past 2038-01-19T03:14:07Z (2147483647), the latest time the image's tar headers hold\n");
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(existsSync(join(s.dir, 'late'))).toBe(false);
  });
});
