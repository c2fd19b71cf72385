import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { makeDeb } from '../../support/packages.js';
import { debRepository, writeConfig } from './fixtures.js';
import { scratch, skopeoInspect } from './helpers.js';
import { startRegistry, startTokenProxy, type Registry } from './registry.js';

describe('image build --push (OCI distribution API against docker-registry on loopback)', () => {
  const s = scratch('push');
  const repo = join(s.dir, 'repo');
  let config: string;
  let open: Registry;
  let basic: Registry;
  const started: Registry[] = [];
  beforeAll(async () => {
    await debRepository(repo);
    // 12 MB that gzip cannot shrink: the layer goes up in chunks
    await makeDeb(join(s.dir, 'big'), { name: 'big', files: [{ name: './usr/share/big/blob', content: randomBytes(12 << 20) }] });
    config = writeConfig(s.dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [app]']);
    mkdirSync(join(s.dir, 'open'));
    mkdirSync(join(s.dir, 'basic'));
    open = await startRegistry(join(s.dir, 'open'));
    started.push(open);
    basic = await startRegistry(join(s.dir, 'basic'), { user: 'ci', password: 's3cret' });
    started.push(basic);
  });
  // Runs even when beforeAll failed half-way: the scratch directory goes whatever started.
  afterAll(async () => {
    try {
      for (const r of started) await r.stop();
    } finally {
      s.remove();
    }
  });

  it('pushes a two-arch index; skopeo inspect docker:// reads it back; a second build pushes the same digest', async () => {
    await debRepository(repo, 'arm64');
    const ref = `${open.address}/linkerd/proxy:dev`;
    const buildAndPush = (output: string) =>
      buildImage({
        config,
        cwd: s.dir,
        output: join(s.dir, output),
        tag: 'linkerd/proxy:dev',
        archs: ['amd64', 'arm64'],
        packages: [],
        push: { reference: ref, insecure: true, credentials: {} },
      });
    const r = await buildAndPush('oci');
    expect(r.pushed).toBe(`${ref}@${r.digest}`);
    const raw = await skopeoInspect(`docker://${ref}`, true, ['--tls-verify=false']);
    expect(raw.mediaType).toBe('application/vnd.oci.image.index.v1+json');
    const arm = await skopeoInspect(`docker://${ref}`, false, ['--tls-verify=false', '--override-arch', 'arm64']);
    expect(arm.Layers).toEqual([r.images[1]?.layer.digest]);
    const again = await buildAndPush('oci2');
    expect(again.digest).toBe(r.digest);
  });

  it('pushes with basic auth, and says so when the password is wrong', async () => {
    const ref = `${basic.address}/basic/image:1`;
    const push = { reference: ref, insecure: true, credentials: { username: 'ci', password: 's3cret' } };
    const r = await buildImage({ config, cwd: s.dir, output: join(s.dir, 'basic-oci'), tag: 'basic/image:1', archs: ['amd64'], packages: [], push });
    const back = await skopeoInspect(`docker://${ref}`, false, ['--tls-verify=false', '--creds', 'ci:s3cret']);
    expect(back.Digest).toBe(r.digest);
    const wrong = buildImage({
      config,
      cwd: s.dir,
      output: join(s.dir, 'basic-oci2'),
      tag: 'basic/image:1',
      archs: ['amd64'],
      packages: [],
      push: { ...push, credentials: { username: 'ci', password: 'nope' } },
    });
    await expect(wrong).rejects.toThrow(/--push: .*401/);
  });

  it('gets a bearer token from the realm the registry names; a large layer goes up in chunks, and only once', async () => {
    const proxy = await startTokenProxy(open.address, 'robot', 'tok3n');
    try {
      const big = writeConfig(s.dir, 'big.yml', ['contents:', '  packages: [big]']);
      const ref = `${proxy.address}/bearer/image:1`;
      const push = { reference: ref, insecure: true, credentials: { username: 'robot', password: 'tok3n' } };
      const build = (out: string) =>
        buildImage({ config: big, cwd: s.dir, output: join(s.dir, out), tag: 'bearer/image:1', archs: ['amd64'], packages: [join(s.dir, 'big')], push });
      const r = await build('bearer-oci');
      expect(proxy.tokensIssued()).toBeGreaterThan(0);
      expect(r.images[0]?.layer.size).toBeGreaterThan(12 << 20);
      expect(proxy.requests.filter((q) => q.startsWith('PATCH ')).length).toBeGreaterThanOrEqual(2);
      const back = await skopeoInspect(`docker://${open.address}/bearer/image:1`, false, ['--tls-verify=false']);
      expect(back.Digest).toBe(r.digest);
      expect(back.Layers).toEqual([r.images[0]?.layer.digest]);
      proxy.requests.length = 0;
      await build('bearer-oci2');
      expect(proxy.requests.filter((q) => q.startsWith('POST ') || q.startsWith('PATCH '))).toEqual([]);
      expect(proxy.requests.filter((q) => q.startsWith('HEAD '))).toHaveLength(2);
    } finally {
      await proxy.stop();
    }
  });

  it('refuses --insecure for a registry off the loopback address, before connecting', async () => {
    const err = buildImage({
      config,
      cwd: s.dir,
      output: join(s.dir, 'x-oci'),
      tag: 'x/x:1',
      archs: ['amd64'],
      packages: [],
      push: { reference: 'registry.example:5000/x/x:1', insecure: true, credentials: {} },
    });
    await expect(err).rejects.toThrow(/--insecure \(plain HTTP\) is only for a registry on the loopback address/);
  });
});
