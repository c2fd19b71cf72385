import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../support/apiserver.js';
import { healthyCluster, makePki } from '../core/check/support/clusters.js';
import { installManifestObjects } from '../core/check/support/install.js';
import { closedPort } from '../core/check/support/run.js';
import { runCli, type CliResult } from '../support/cli.js';

/*
 * The built CLI (`npm run build` first; `npm test` does) against the loopback API server.
 * stdout is a pipe here, so there must be no colour and no spinner.
 */

let noVersionCheck: string;

function linkerd(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli(args, { env: { HOME: '/nonexistent', LINKERD_VERSIONCHECK_URL: noVersionCheck, ...env } });
}

const servers: ApiServer[] = [];
async function serve(objects: object[]): Promise<ApiServer> {
  const s = await startApiServer({ objects });
  servers.push(s);
  return s;
}

beforeAll(async () => {
  // The terminal test below runs bin/linkerd under `script`.
  if (!fs.existsSync('dist/bundle/main.js')) throw new Error('build the CLI first: npm run build');
  noVersionCheck = `http://127.0.0.1:${await closedPort()}/version.json`;
});

afterAll(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

const EXPECTED = ['--expected-version', 'edge-26.9.1'];

describe('linkerd check (CLI)', () => {
  it('prints the table without colour or spinner when stdout is not a terminal, and exits 0', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const s = await serve(cluster.objects);
    const r = await linkerd(['check', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('kubernetes-api\n--------------\n√ can initialize the client\n')).toBe(true);
    expect(
      r.stdout.endsWith('linkerd-extension-checks\n------------------------\n√ namespace configuration for extensions\n\nStatus check results are √\n'),
    ).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('in a terminal, colours the glyphs and names the check being waited on with a spinner; CI=true and NO_COLOR turn both off', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml', 'starting.yaml'] });
    const s = await serve(cluster.objects);
    // `script` gives the CLI a sized pseudo-terminal for stdout and stderr.
    const inTerminal = (env: NodeJS.ProcessEnv) =>
      new Promise<string>((resolve) => {
        const cmd = `stty cols 120 rows 40; bin/linkerd check --proxy --wait 1s --expected-version edge-26.9.1 --kubeconfig ${s.kubeconfigPath}`;
        execFile(
          'script',
          ['-qec', cmd, '/dev/null'],
          { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: '/nonexistent', TERM: 'xterm', ...env } },
          (_e, stdout) => resolve(stdout),
        );
      });
    const tty = await inTerminal({});
    expect(tty).toContain('\u001b[1m\u001b[32m√\u001b[39m\u001b[22m can initialize the client');
    // eslint-disable-next-line no-control-regex
    expect(tty).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](\u001b\[39m)? data plane proxies are ready: container "linkerd-proxy" in pod "web-5f86686c4d-new01" is not ready/);
    expect(tty).toContain('Status check results are \u001b[1m\u001b[31m×');
    for (const env of [{ CI: 'true' }, { NO_COLOR: '1' }]) {
      const plain = await inTerminal(env);
      // eslint-disable-next-line no-control-regex
      expect(plain).not.toMatch(/\u001b/);
      expect(plain).toContain('× data plane proxies are ready\r\n');
    }
  });

  it('check --proxy -n app -o json prints one JSON document and exits 1 on a crash-looping pod', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml', 'crashloop.yaml'] });
    const s = await serve(cluster.objects);
    // --wait stays at its 5 minutes: only failing fast on the crash loop ends this within the test's timeout.
    const r = await linkerd(['check', '--proxy', '-n', 'emojivoto', '-o', 'json', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.success).toBe(false);
    const dataPlane = doc.categories.find((c: { categoryName: string }) => c.categoryName === 'linkerd-data-plane');
    expect(dataPlane.checks[1]).toMatchObject({
      description: 'data plane proxies are ready',
      hint: 'https://linkerd.io/2/checks/#l5d-data-plane-ready',
      result: 'error',
      id: 'L5D2402',
      severity: 'fatal',
    });
    expect(dataPlane.checks[1].error).toMatch(/^pod "vote-bot-7d8f9c6b5-qw2er" status is CrashLoopBackOff: /);
  });

  it('merges extension results into the single JSON document', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-cli-ext-'));
    fs.writeFileSync(
      path.join(dir, 'linkerd-viz'),
      `#!/bin/sh\n[ "$1" = "_extension-metadata" ] && { echo '{"name":"linkerd-viz","checks":"never"}'; exit 0; }\necho '{"success":true,"categories":[{"categoryName":"linkerd-viz","checks":[{"description":"viz extension is healthy","result":"success"}]}]}'\n`,
      { mode: 0o755 },
    );
    try {
      const cluster = await healthyCluster();
      const s = await serve([
        ...cluster.objects,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd-viz', labels: { 'linkerd.io/extension': 'viz' } } },
      ]);
      const r = await linkerd(['check', '-o', 'json', '--kubeconfig', s.kubeconfigPath, ...EXPECTED], { PATH: `${dir}${path.delimiter}${process.env.PATH}` });
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.categories[doc.categories.length - 1]).toEqual({
        categoryName: 'linkerd-viz',
        checks: [{ description: 'viz extension is healthy', result: 'success', id: 'linkerd-viz#1', severity: 'error', durationMs: 0 }],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 0 on an expiring issuer by default, 1 with --fail-on warning or --cert-min-validity', async () => {
    const pki = await makePki({ issuer: { from: -300, to: 20 } });
    const cluster = await healthyCluster({ pki });
    const s = await serve(cluster.objects);
    const base = ['check', '-o', 'short', '--kubeconfig', s.kubeconfigPath, ...EXPECTED];
    const lenient = await linkerd(base);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/‼ issuer cert is valid for at least 60 days\n {4}issuer certificate will expire on \S+\n/);
    expect(lenient.stdout.endsWith('\nStatus check results are √\n')).toBe(true);
    const strict = await linkerd([...base, '--fail-on', 'warning']);
    expect(strict.code).toBe(1);
    expect(strict.stdout.endsWith('Status check results are ×\n')).toBe(true);
    const gated = await linkerd([...base, '--cert-min-validity', '30d', '-o', 'junit']);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(
      /<testcase classname="linkerd-check\.linkerd-identity" name="L5D1807 issuer cert is valid for at least 60 days" time="[\d.]+"><failure type="warning" message="issuer certificate will expire on \S+ \(less than the 30d required by --cert-min-validity\)">/,
    );
  });

  it('--skip leaves checks out and warns about values that matched nothing', async () => {
    const pki = await makePki({ issuer: { from: -300, to: 20 } });
    const cluster = await healthyCluster({ pki });
    const s = await serve(cluster.objects);
    const r = await linkerd(['check', '--skip', 'L5D1807,linkerd-vizz', '--fail-on', 'warning', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('issuer cert is valid for at least 60 days');
    expect(r.stderr).toBe('Warning: "linkerd-vizz" in --skip/--only matched no check\n');
  });

  it('--only runs just the named checks', async () => {
    const cluster = await healthyCluster();
    const s = await serve(cluster.objects);
    const r = await linkerd(['check', '--only', 'kubernetes-api,L5D1201', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'kubernetes-api\n--------------\n√ can initialize the client\n√ can query the Kubernetes API\n\ngateway-api-crd\n---------------\n√ Gateway API CRDs are installed\n\nStatus check results are √\n',
    );
  });

  it('an unreachable cluster ends in kubernetes-api with a one-line reason, never a stack trace', async () => {
    const cluster = await healthyCluster();
    const s = await serve(cluster.objects);
    const port = await closedPort();
    const kubeconfig = path.join(s.dir, 'gone');
    fs.writeFileSync(kubeconfig, fs.readFileSync(s.kubeconfigPath, 'utf8').replace(s.url, `https://127.0.0.1:${port}`));
    const r = await linkerd(['check', '--kubeconfig', kubeconfig, '--wait', '1m', ...EXPECTED]);
    expect(r.code).toBe(1);
    // As the real CLI: no banner, the core results, then extension discovery (a LIST of the namespaces
    // labelled linkerd.io/extension, spec 4.5/4.6) fails and ends the run (no status line).
    expect(r.stdout).toBe(
      `kubernetes-api\n--------------\n√ can initialize the client\n× can query the Kubernetes API\n    Get "https://127.0.0.1:${port}/version?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused\n    see https://linkerd.io/2/checks/#k8s-api for hints\n\n`,
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `^Failed to run extensions checks: Get "https://127\\.0\\.0\\.1:${port}/api/v1/namespaces\\?labelSelector=linkerd\\.io%2Fextension&timeout=30s": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused\n$`,
      ),
    );
  });

  it('warns, without failing, when the latest version cannot be determined', async () => {
    const cluster = await healthyCluster();
    const s = await serve(cluster.objects);
    const r = await linkerd(['check', '-o', 'short', '--kubeconfig', s.kubeconfigPath], { LINKERD_VERSIONCHECK_TIMEOUT: '1s' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /‼ can determine the latest version\n {4}the latest version could not be determined: Get "http:\/\/127\.0\.0\.1:\d+\/version\.json\?[^"]+": dial tcp 127\.0\.0\.1:\d+: connect: connection refused;/,
    );
  });

  it('rejects invalid flag combinations with the real message', async () => {
    const r = await linkerd(['check', '--pre', '--proxy']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: Validation error when executing check command: --pre and --proxy flags are mutually exclusive\n');
    const bad = await linkerd(['check', '-o', 'yaml']);
    expect(bad.stderr).toBe(
      "Error: Validation error when executing check command: Invalid output type 'yaml'. Supported output types are: json, table, short, junit\n",
    );
  });

  it('--list prints every check with its stable id', async () => {
    const r = await linkerd(['check', '--list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CATEGORY\s+SEVERITY\s+RETRY\s+MODES\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^L5D1001\s+kubernetes-api\s+fatal\s+no\s+default,pre,proxy,crds\s+can initialize the client$/);
    expect(lines.some((l) => /^L5D2402\s+linkerd-data-plane\s+fatal\s+yes\s+proxy\s+data plane proxies are ready$/.test(l))).toBe(true);
    const json = JSON.parse((await linkerd(['check', '--list', '-o', 'json'])).stdout);
    expect(json.find((c: { id: string }) => c.id === 'L5D1807')).toEqual({
      id: 'L5D1807',
      category: 'linkerd-identity',
      severity: 'warning',
      retryable: false,
      modes: ['default', 'proxy'],
      description: 'issuer cert is valid for at least 60 days',
      hint: 'https://linkerd.io/2/checks/#l5d-identity-issuer-cert-not-expiring-soon',
    });
  });

  it('check --pre dry-runs what `linkerd install` renders, in the -L namespace', async () => {
    const cluster = await healthyCluster();
    const fresh = cluster.objects.filter(
      (o) =>
        o.metadata.namespace !== 'linkerd' &&
        !o.metadata.name.startsWith('linkerd') &&
        !(o.kind === 'CustomResourceDefinition' && !o.metadata.name.includes('gateway')),
    );
    const s = await serve(fresh);
    const r = await linkerd(['check', '--pre', '-L', 'mesh', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'pre-kubernetes-setup\n--------------------\n√ control plane namespace does not already exist\n√ can create non-namespaced resources\n√ can create ServiceAccounts\n',
    );
    const clusterScoped = (await installManifestObjects()).filter((o) => !o.metadata?.namespace);
    const dryRuns = s.requests.filter((q) => q.method === 'POST' && q.query.startsWith('dryRun=All'));
    expect(dryRuns).toHaveLength(clusterScoped.length);
    expect(dryRuns.some((q) => q.path === '/api/v1/namespaces')).toBe(true);
  });

  it('check --crds succeeds once the CRDs are installed', async () => {
    const cluster = await healthyCluster();
    // CRDs installed, control plane not yet.
    const s = await serve(cluster.objects.filter((o) => o.kind === 'CustomResourceDefinition' || o.metadata.namespace !== 'linkerd'));
    const r = await linkerd(['check', '--crds', '--kubeconfig', s.kubeconfigPath, ...EXPECTED]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('linkerd-crd\n-----------\n√ control plane CustomResourceDefinitions exist\n');
  });
});
