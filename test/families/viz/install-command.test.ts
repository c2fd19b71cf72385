import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { closedPort } from '../../core/check/support/run.js';
import { writeKubeconfig } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { clusterWithViz } from './cluster.js';
import { healthyCluster } from '../../core/check/support/clusters.js';

const golden = (name: string) => fs.readFileSync(fileURLToPath(new URL(`golden/${name}.yaml`, import.meta.url)), 'utf8');
type Doc = { kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any };
const docs = (text: string) => yaml.loadAll(text) as Doc[];
const find = (objects: Doc[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** The certificates managed outside, as the chart's external-secrets golden pins them. */
const EXTERNAL = ['--set', 'tap.externalSecret=true,tap.caBundle=test-tap-ca-bundle,tapInjector.externalSecret=true,tapInjector.caBundle=test-tap-ca-bundle'];

describe('linkerd viz install --ignore-cluster', () => {
  it('prints the chart render: byte for byte the external-secrets golden', async () => {
    const r = await runCli(['viz', 'install', '--ignore-cluster', ...EXTERNAL]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(golden('external-secrets'));
  });

  it('takes --ha under the user values (a --set wins over values-ha.yaml)', async () => {
    const ha = docs((await runCli(['viz', 'install', '--ignore-cluster', '--ha'])).stdout);
    expect(find(ha, 'Deployment', 'tap')?.spec.replicas).toBe(3);
    expect(find(ha, 'PodDisruptionBudget', 'tap')).toBeDefined();
    const set = docs((await runCli(['viz', 'install', '--ignore-cluster', '--ha', '--set', 'tap.replicas=2'])).stdout);
    expect(find(set, 'Deployment', 'tap')?.spec.replicas).toBe(2);
  });

  it('reads -f files through the engine and names the file and key of a typo', async () => {
    const dir = fs.mkdtempSync('/tmp/viz-values-');
    fs.writeFileSync(`${dir}/v.yaml`, 'tap:\n  replica: 3\n');
    const r = await runCli(['viz', 'install', '--ignore-cluster', '-f', `${dir}/v.yaml`]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`Error: ${dir}/v.yaml:2:3: tap.replica: unknown key\n`);
    fs.rmSync(dir, { recursive: true });
  });

  it('copies -L into linkerdNamespace and LINKERD_DOCKER_REGISTRY into defaultRegistry, over the user values', async () => {
    const r = await runCli(['viz', 'install', '--ignore-cluster', '-L', 'mesh', '--set', 'defaultRegistry=ignored.example/x'], {
      env: { LINKERD_DOCKER_REGISTRY: 'registry.example/linkerd' },
    });
    expect(r.code).toBe(0);
    const objects = docs(r.stdout);
    expect(find(objects, 'Role', 'web')?.metadata.namespace).toBe('mesh');
    expect(find(objects, 'Deployment', 'tap')?.spec.template.spec.containers[0].image).toMatch(/^registry\.example\/linkerd\/tap:/);
  });

  it('-o json is one object a line; another format is the real error', async () => {
    const json = await runCli(['viz', 'install', '--ignore-cluster', '-o', 'json', ...EXTERNAL]);
    const lines = json.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(50);
    expect(lines.map((l) => JSON.parse(l) as Doc)).toEqual(docs(golden('external-secrets')));
    const bad = await runCli(['viz', 'install', '--ignore-cluster', '-o', 'wide']);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, '', 'Error: unsupported format wide\n']);
  });
});

describe('linkerd viz install against a cluster (loopback API server)', () => {
  let empty: ApiServer;
  let cni: ApiServer;
  beforeAll(async () => {
    [empty, cni] = await Promise.all([
      startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' }),
      clusterWithViz({ cniEnabled: true }).then((objects) => startApiServer({ objects })),
    ]);
  });
  afterAll(async () => {
    await Promise.all([empty.stop(), cni.stop()]);
  });

  it('refuses when Linkerd is not installed, in the real two lines, with nothing on stdout', async () => {
    const r = await runCli(['viz', 'install', '--kubeconfig', empty.kubeconfigPath]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`Cannot find Linkerd: configmaps "linkerd-config" not found\nValidate the install with: 'linkerd check'\n`);
    // --skip-checks and --ignore-cluster render without asking.
    expect((await runCli(['viz', 'install', '--skip-checks', '--kubeconfig', empty.kubeconfigPath])).code).toBe(0);
  });

  it('refuses when the cluster cannot be reached', async () => {
    const dir = fs.mkdtempSync('/tmp/viz-kube-');
    const kubeconfig = writeKubeconfig(`${dir}/config`, [
      { name: 'test', server: `https://127.0.0.1:${await closedPort()}`, token: 'x', insecureSkipTlsVerify: true },
    ]);
    const r = await runCli(['viz', 'install', '--wait', '0s', '--kubeconfig', kubeconfig]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^Cannot connect to Kubernetes: .*\nValidate the install with: 'linkerd check'\n$/);
    fs.rmSync(dir, { recursive: true });
  });

  it('waits for a control plane that is not ready, one line per retry, then refuses in the real words', async () => {
    const objects = (await healthyCluster()).objects.map((o) =>
      o.kind === 'ReplicaSet' && o.metadata.namespace === 'linkerd' && o.metadata.name.startsWith('linkerd-destination-')
        ? {
            ...o,
            status: {
              ...(o.status as object),
              conditions: [
                { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "linkerd-destination-x" is forbidden: exceeded quota' },
              ],
            },
          }
        : o,
    );
    const notReady = await startApiServer({ objects });
    onTestFinished(() => notReady.stop());
    // Retries every 5s: a first try at once, a second at 5s, the last at the 9s deadline.
    const r = await runCli(['viz', 'install', '--wait', '9s', '--kubeconfig', notReady.kubeconfigPath]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      [
        'Waiting for control plane to become available',
        'Waiting for control plane to become available',
        'Cannot find Linkerd: FailedCreate: pods "linkerd-destination-x" is forbidden: exceeded quota',
        "Validate the install with: 'linkerd check'",
        '',
      ].join('\n'),
    );
  });

  it("reads cniEnabled from linkerd-config: the namespace is then 'restricted'", async () => {
    const r = await runCli(['viz', 'install', '--kubeconfig', cni.kubeconfigPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ns = find(docs(r.stdout), 'Namespace', 'linkerd-viz');
    expect(ns?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const ignoring = find(docs((await runCli(['viz', 'install', '--ignore-cluster', '--kubeconfig', cni.kubeconfigPath])).stdout), 'Namespace', 'linkerd-viz');
    expect(ignoring?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });
});
