import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINKERD_BIN, REPO_ROOT, runCli } from '../support/cli.js';

/* The built CLI (`npm run build`), run as a user runs it: no TTY, so no colour. */

const M = (f: string) => `fixtures/manifests/${f}`;
const ANCHORS = ['--identity-trust-anchors-file', 'fixtures/certs/valid-trust-anchors.pem'];
const NO_CLUSTER = { KUBECONFIG: path.join(REPO_ROOT, 'fixtures/does-not-exist/kubeconfig') };

describe('linkerd inject (CLI)', () => {
  it('annotates a file and prints the report on stderr', async () => {
    const r = await runCli(['inject', '--ignore-cluster', M('list.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('        annotations:\n          linkerd.io/inject: enabled\n');
    expect(r.stderr).toBe('\ndeployment "web" injected\nservice "web" skipped\n\n');
  });

  it('reads stdin, accepts pflag-style --flag=false and prints the full spec with --manual', async () => {
    const input = readFileSync(path.join(REPO_ROOT, M('list.yaml')), 'utf8');
    const r = await runCli(['inject', '--manual', '--ignore-cluster', '--native-sidecar=false', ...ANCHORS, '-'], { input });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('config.linkerd.io/proxy-enable-native-sidecar: "false"');
    expect(r.stdout).toContain('/usr/lib/linkerd/linkerd-await');
  });

  it('--manual reads a pipe given as a path (/dev/stdin) in both its passes', async () => {
    // `cat FILE | linkerd inject --manual /dev/stdin`: a pipe read twice was empty the second time.
    const viaPipe = spawnSync(
      'sh',
      ['-c', 'cat "$1" | "$2" inject --manual --ignore-cluster "$3" "$4" /dev/stdin', 'sh', M('list.yaml'), LINKERD_BIN, ...ANCHORS],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
        encoding: 'utf8',
      },
    );
    const fromFile = await runCli(['inject', '--manual', '--ignore-cluster', ...ANCHORS, M('list.yaml')]);
    expect(viaPipe.status).toBe(0);
    expect(viaPipe.stderr).toBe(fromFile.stderr.replaceAll(M('list.yaml'), '/dev/stdin'));
    expect(viaPipe.stdout).toContain('name: linkerd-proxy');
    expect(viaPipe.stdout).toBe(fromFile.stdout);
  });

  it('injects without a cluster when there is no kubeconfig, and says so', async () => {
    const r = await runCli(['inject', M('list.yaml')], { env: NO_CLUSTER });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^‼ no Kubernetes configuration found \(.*\); using default values/);
    expect(r.stdout).toContain('linkerd.io/inject: enabled');
  });

  it('fails as linkerd does when the kubeconfig from KUBECONFIG cannot give credentials', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-inject-kc-'));
    try {
      const kubeconfig = path.join(dir, 'config');
      // The plugin fails before any connection is tried.
      writeFileSync(
        kubeconfig,
        'apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1, command: "false"}\n',
      );
      const r = await runCli(['inject', M('list.yaml')], { env: { KUBECONFIG: kubeconfig } });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Cannot connect to Kubernetes: getting credentials: /);
      expect(r.stderr).not.toContain('using default values');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses --manual without trust anchors instead of writing an empty one', async () => {
    const r = await runCli(['inject', '--manual', '--ignore-cluster', M('list.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: Please provide the identity trust anchors\n/);
  });

  it('prints linkerd’s transform error with nothing on stdout and exit 1', async () => {
    const r = await runCli(['inject', '--ignore-cluster', M('shop.yaml'), M('errors/host-network.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error transforming resources:\nfailed to inject daemonset/node-exporter: hostNetwork is enabled, UDP port(s) configured on pod spec\n',
    );
  });

  it('names the file, line and column of a syntax error', async () => {
    const r = await runCli(['inject', '--ignore-cluster', M('errors/malformed.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: fixtures\/manifests\/errors\/malformed\.yaml:\d+:\d+: .+\n$/);
  });

  it('says in one line what is wrong with an input', async () => {
    expect((await runCli(['inject', '--ignore-cluster', 'missing.yaml'])).stderr).toBe('Error: stat missing.yaml: no such file or directory\n');
    expect((await runCli(['inject', '--ignore-cluster', M('errors/binary.png')])).stderr).toBe(
      'Error: fixtures/manifests/errors/binary.png: binary data, not a YAML or JSON manifest\n',
    );
    expect((await runCli(['inject', '--ignore-cluster'])).stderr).toMatch(/^Error: please specify a kubernetes resource file\nUsage:\n {2}linkerd inject /);
    expect((await runCli(['inject', '--ignore-cluster', 'http://example.com/x.yaml'])).stderr).toBe('Error: only HTTPS URLs are allowed\n');
  });

  it('prints the verbose report with --verbose and deprecation warnings for old flags', async () => {
    const r = await runCli(['inject', '--ignore-cluster', '--verbose', '--proxy-cpu', '100m', M('list.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderr.startsWith('Flag --proxy-cpu has been deprecated, use --proxy-cpu-request instead\n\n√ pods do not use host networking\n')).toBe(true);
  });

  it('converts with -o json', async () => {
    const r = await runCli(['inject', '--ignore-cluster', '-o', 'json', M('list.yaml')]);
    expect(JSON.parse(r.stdout).items[0].spec.template.metadata.annotations).toEqual({ 'linkerd.io/inject': 'enabled' });
  });
});

describe('linkerd uninject (CLI)', () => {
  it('gives back the original manifest of an injection', async () => {
    const injected = await runCli(['inject', '--manual', '--ignore-cluster', ...ANCHORS, M('list.yaml')]);
    const r = await runCli(['uninject', '-'], { input: injected.stdout });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(REPO_ROOT, M('list.yaml')), 'utf8'));
    expect(r.stderr).toBe('\ndeployment "web" uninjected\nservice "web" skipped\n\n');
  });

  it('joins a directory of YAML and JSON into one stream, with one report', async () => {
    const r = await runCli(['inject', '--ignore-cluster', M('parity/mixed')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^apiVersion: apps\/v1\n[^]*\n---\n\{\n {2}"apiVersion"/);
    expect(r.stderr).toBe('\ndeployment "api" injected\ndeployment "cart" injected\n\n');
  });
});
