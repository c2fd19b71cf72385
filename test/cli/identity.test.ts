import fs from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../support/apiserver.js';
import { subtle, x509 } from '../../src/core/pki/x509.js';
import { runCli } from '../support/cli.js';
import { newAnchorFiles, servedCluster, tempDir } from '../core/identity/support.js';

/* The built CLI (`npm run build` first) for `linkerd identity …`, against the loopback API server. */

let server: ApiServer;
let t: ReturnType<typeof tempDir>;
const kube = () => ['--kubeconfig', server.kubeconfigPath];

beforeAll(async () => {
  ({ server } = await servedCluster());
  t = tempDir();
});
afterAll(async () => {
  await server.stop();
  t.cleanup();
});

describe('linkerd identity (CLI)', () => {
  it('create-trust-anchor then create-issuer write new files; a second run refuses with one line', async () => {
    const first = await runCli(['identity', 'create-trust-anchor', '--key-out', 'root.key', '--cert-out', 'root.crt'], { cwd: t.dir });
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr).toMatch(/^Created trust anchor CN=root\.linkerd\.cluster\.local \(ECDSA P-256, valid until/);
    expect(fs.statSync(t.file('root.key')).mode & 0o777).toBe(0o600);
    const again = await runCli(['identity', 'create-trust-anchor', '--key-out', 'root.key', '--cert-out', 'root.crt'], { cwd: t.dir });
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'Error: open root.crt: file exists (refusing to overwrite it)\n' });
    const issuer = await runCli(['identity', 'create-issuer', '--trust-anchor-file', 'root.crt', '--trust-anchor-key-file', 'root.key', '-L', 'mesh'], {
      cwd: t.dir,
    });
    expect(issuer.stderr).toMatch(/^Created issuer CN=identity\.mesh\.cluster\.local/);
    const inspected = await runCli(['identity', 'inspect', 'issuer.crt', '--trust-anchors', 'root.crt', '-o', 'json'], { cwd: t.dir });
    const report = JSON.parse(inspected.stdout) as { sections: Array<{ certificates: Array<{ subject: string; chainsTo: { ok: boolean } }> }> };
    expect(report.sections[0]?.certificates[0]).toMatchObject({ subject: 'CN=identity.mesh.cluster.local', chainsTo: { ok: true } });
  });

  it('inspect reads standard input and prints text', async () => {
    const r = await runCli(['identity', 'inspect', '-'], { input: fs.readFileSync(t.file('root.crt'), 'utf8') });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<stdin>: certificate 1 of 1 \(<stdin>:1\)\n {2}Subject: {4}CN=root\.linkerd\.cluster\.local\n/);
    expect(r.stdout).toMatch(/\n {2}SHA-256: {4}([0-9A-F]{2}:){31}[0-9A-F]{2}\n/);
  });

  it("inspect keeps a certificate's escape sequences off the terminal (issue 10 item 12)", async () => {
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const keys = await subtle.generateKey(alg, true, ['sign', 'verify']);
    // A subject that would set the window title and clear the screen.
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: [{ '2.5.4.3': ['evil\u001b]0;owned\u0007\u001b[2Jroot'] }],
      notBefore: new Date(Date.now() - 3_600_000),
      notAfter: new Date(Date.now() + 86_400_000),
      keys,
      signingAlgorithm: alg,
    });
    const r = await runCli(['identity', 'inspect', '-'], { input: `${cert.toString('pem')}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}Subject: {4}CN=evilroot\n/);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
  });

  it('bad flags are one line naming the flag', async () => {
    expect(await runCli(['identity', 'create-trust-anchor', '--key-type', 'dsa'], { cwd: t.dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: --key-type: must be one of ecdsa-p256, rsa-2048, rsa-4096\n',
    });
    expect((await runCli(['identity', 'create-issuer', '--trust-anchor-key-file', 'k'], { cwd: t.dir })).stderr).toBe(
      'Error: required flag(s) "trust-anchor-file" not set\nRun \'linkerd identity create-issuer --help\' for usage.\n',
    );
    expect((await runCli(['identity', 'inspect', 'missing.pem'], { cwd: t.dir })).stderr).toBe('Error: open missing.pem: no such file or directory\n');
  });

  it("a --validity Go cannot parse reads pflag's words, a non-positive one says so, and nothing is written", async () => {
    const anchor = ['identity', 'create-trust-anchor', '--key-out', 'v.key', '--cert-out', 'v.crt'];
    expect(await runCli([...anchor, '--validity', '1y'], { cwd: t.dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: invalid argument "1y" for "--validity" flag: time: unknown unit "y" in duration "1y" (units: d (24h), h, m, s, ms, us (or µs), ns)\n',
    });
    // Every validity flag takes days as well as Go's units.
    expect((await runCli([...anchor, '--validity', '10d'], { cwd: t.dir })).code).toBe(0);
    fs.rmSync(`${t.dir}/v.crt`);
    fs.rmSync(`${t.dir}/v.key`);
    expect((await runCli([...anchor, '--validity', '0s'], { cwd: t.dir })).stderr).toBe('Error: --validity must be a positive duration (got 0s)\n');
    expect(fs.existsSync(`${t.dir}/v.crt`) || fs.existsSync(`${t.dir}/v.key`)).toBe(false);
    const rotate = await runCli(['identity', 'rotate', 'issuer', '--generate', '--trust-anchor-key', 'k', '--validity', '8760', ...kube()]);
    expect(rotate.stderr).toBe(
      'Error: invalid argument "8760" for "--validity" flag: time: missing unit in duration "8760" (units: d (24h), h, m, s, ms, us (or µs), ns)\n',
    );
  });

  it('rotate status -o json, and add-anchor: the manifest on stdout, next steps on stderr', async () => {
    const status = await runCli(['identity', 'rotate', 'status', '-o', 'json', ...kube()]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ stage: 'steady', namespace: 'linkerd', pods: { stale: [] } });
    const text = await runCli(['identity', 'rotate', 'status', ...kube()]);
    expect(text.stdout).toMatch(/^Stage: steady\n/);
    const next = await newAnchorFiles(t, 'next');
    const added = await runCli(['identity', 'rotate', 'add-anchor', '--trust-anchor-file', next.crt, ...kube()]);
    expect(added.code).toBe(0);
    const docs = yaml.loadAll(added.stdout) as Array<{ kind: string; metadata: { name: string } }>;
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toContain('ConfigMap/linkerd-identity-trust-roots');
    expect(added.stderr).toMatch(/^Trust bundle: 1 anchor\(s\) \+ 1 new\.\nNext: apply this manifest/);
  });

  it('inspect --cluster and the rotation refusals, as printed', async () => {
    const third = await newAnchorFiles(t, 'third');
    const added = await runCli(['identity', 'rotate', 'add-anchor', '--trust-anchor-file', third.crt, ...kube()]);
    server.put(...(yaml.loadAll(added.stdout) as object[])); // kubectl apply
    const cluster = await runCli(['identity', 'inspect', '--cluster', ...kube()]);
    expect(cluster.code).toBe(0);
    expect(cluster.stdout).toMatch(/^ConfigMap linkerd\/linkerd-identity-trust-roots \(ca-bundle\.crt\): certificate 1 of 2 /);
    expect(cluster.stdout).toContain('Secret linkerd/linkerd-identity-issuer (crt.pem): certificate 1 of 1');
    expect(cluster.stdout).toContain('  Chains to:  CN=root.linkerd.cluster.local');
    expect(await runCli(['identity', 'inspect', '--cluster', '-L', 'elsewhere', ...kube()])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Linkerd is not installed in namespace elsewhere: ConfigMap linkerd-config not found\n',
    });
    const key = third.key;
    const refused = await runCli(['identity', 'rotate', 'issuer', '--generate', '--trust-anchor-key', key, ...kube()]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^Error: \d+ meshed pod\(s\) do not trust the anchor that signs the new issuer yet; restart them first \(or use --force\):\n\* (linkerd|emojivoto)\/\S+\n/,
    );
    const forced = await runCli(['identity', 'rotate', 'issuer', '--generate', '--trust-anchor-key', key, '--force=true', ...kube()]);
    expect(forced.code).toBe(0);
    expect((yaml.loadAll(forced.stdout) as Array<{ metadata: { name: string } }>).map((d) => d.metadata.name)).toContain('linkerd-identity-issuer');
    // Applied anyway, pods now reject the issuer: status says so and exits 1, for scripts to stop on.
    const before = await runCli(['identity', 'rotate', 'status', ...kube()]);
    expect(before.code).toBe(0);
    server.put(...(yaml.loadAll(forced.stdout) as object[]));
    const untrusted = await runCli(['identity', 'rotate', 'status', ...kube()]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toMatch(/^Stage: issuer-untrusted\n/);
    expect(untrusted.stderr).toBe('');
    expect((await runCli(['identity', 'rotate', 'issuer', '--trust-anchor-key', key, ...kube()])).stderr).toBe(
      'Error: --trust-anchor-key is only used with --generate\n',
    );
  });

  it('an API failing mid-way: one line on stderr and nothing on stdout', async () => {
    const next = await newAnchorFiles(t, 'midway');
    const clear = server.setFault('GET /api/v1/pods', { status: 500, message: 'etcdserver: request timed out' });
    try {
      const r = await runCli(['identity', 'rotate', 'add-anchor', '--trust-anchor-file', next.crt, ...kube()]);
      expect(r).toEqual({ code: 1, stdout: '', stderr: 'Error: etcdserver: request timed out\n' });
    } finally {
      clear();
    }
  });

  it('a pod named like a subcommand stays reachable', async () => {
    for (const args of [['--', 'rotate'], ['pod/rotate']]) {
      const r = await runCli(['identity', ...kube(), ...args]);
      expect(r).toEqual({ code: 1, stdout: '', stderr: 'Error: pods "rotate" not found in namespace default\n' });
    }
    expect((await runCli(['identity', ...kube()])).stderr).toMatch(
      /^Error: Provide the pod name argument or use the selector flag\nUsage:\n {2}linkerd identity /,
    );
  });
});
