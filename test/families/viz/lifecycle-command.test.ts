import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { allowScrapesObjects } from '../../../src/families/viz/allowScrapes.js';
import { tapListText } from '../../../src/families/viz/commands/list.js';
import { clusterWithViz } from './cluster.js';

type Doc = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
const refs = (text: string) =>
  (yaml.loadAll(text) as Array<Doc | null>)
    .filter((d): d is Doc => d !== null)
    .map((d) => `${d.kind}/${d.metadata.namespace ? `${d.metadata.namespace}/` : ''}${d.metadata.name}`);

const leftover: StoredObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'grafana-config', namespace: 'linkerd-viz', labels: { 'linkerd.io/extension': 'viz' } },
  data: {},
};

const emojivoto: StoredObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'emojivoto' } };

describe('viz uninstall, prune (loopback API server)', () => {
  let viz: ApiServer;
  let bare: ApiServer;
  beforeAll(async () => {
    const objects = [...(await clusterWithViz()), emojivoto, ...(allowScrapesObjects('emojivoto') as StoredObject[]), leftover];
    [viz, bare] = await Promise.all([startApiServer({ objects }), startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' })]);
  });
  afterAll(async () => {
    await Promise.all([viz.stop(), bare.stop()]);
  });

  it('uninstall names the RBAC, APIService, webhook and namespace of viz, then what allow-scrapes made', async () => {
    const r = await runCli(['viz', 'uninstall', '--kubeconfig', viz.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const names = refs(r.stdout);
    expect(names).toEqual(
      expect.arrayContaining([
        'ClusterRole/linkerd-linkerd-viz-tap',
        'ClusterRoleBinding/linkerd-linkerd-viz-tap-auth-delegator',
        'Role/linkerd/web',
        'RoleBinding/kube-system/linkerd-linkerd-viz-tap-auth-reader',
        'APIService/v1alpha1.tap.linkerd.io',
        'MutatingWebhookConfiguration/linkerd-tap-injector-webhook-config',
        'Namespace/linkerd-viz',
        'AuthorizationPolicy/emojivoto/prometheus-scrape',
        'HTTPRoute/emojivoto/proxy-metrics',
        'Server/emojivoto/proxy-admin',
      ]),
    );
    // Nothing of the control plane's.
    expect(names.filter((n) => n.includes('linkerd-identity') || n === 'Namespace/linkerd')).toEqual([]);
    expect(r.stdout.startsWith('apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  creationTimestamp: null\n')).toBe(true);
  });

  it('uninstall with nothing to delete fails with the real words', async () => {
    const r = await runCli(['viz', 'uninstall', '--kubeconfig', bare.kubeconfigPath]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'No resources found to uninstall\n']);
  });

  it('prune names only the labelled objects the install would not render', async () => {
    const r = await runCli(['viz', 'prune', '--kubeconfig', viz.kubeconfigPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(refs(r.stdout)).toEqual([
      'ConfigMap/linkerd-viz/grafana-config',
      'Server/emojivoto/proxy-admin',
      'AuthorizationPolicy/emojivoto/prometheus-scrape',
      'AuthorizationPolicy/emojivoto/proxy-probes',
      'HTTPRoute/emojivoto/proxy-metrics',
      'HTTPRoute/emojivoto/proxy-probes',
    ]);
  });

  it('prune refuses without Linkerd, as install does', async () => {
    const r = await runCli(['viz', 'prune', '--kubeconfig', bare.kubeconfigPath]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('Cannot find Linkerd: ');
  });
});

describe('viz list', () => {
  const pod = (ns: string, name: string, annotations: Record<string, string>, cp = 'linkerd'): StoredObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { 'linkerd.io/control-plane-ns': cp }, annotations },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  });
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
        pod('default', 'web-1', { 'viz.linkerd.io/tap-enabled': 'true' }),
        pod('default', 'db-1', { 'viz.linkerd.io/disable-tap': 'true' }),
        pod('default', 'old-1', {}),
        pod('default', 'other-mesh', {}, 'elsewhere'),
        pod('shop', 'cart-1', { 'viz.linkerd.io/tap-enabled': 'true' }),
      ],
    });
  });
  afterAll(() => server.stop());

  it('groups the meshed pods of the namespace by tap state', async () => {
    const r = await runCli(['viz', 'list', '--kubeconfig', server.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      'Pods with tap enabled:\n\t* default/web-1\nPods with tap disabled:\n\t* default/db-1\nPods missing tap configuration (restart these pods to enable tap):\n\t* default/old-1\n',
    );
    const all = await runCli(['viz', 'list', '-A', '--kubeconfig', server.kubeconfigPath]);
    expect(all.stdout).toContain('\t* shop/cart-1\n');
    const none = await runCli(['viz', 'list', '-n', 'nowhere', '--kubeconfig', server.kubeconfigPath]);
    expect(none.stdout).toBe('No meshed pods found\n');
  });

  it('prints pod names without control characters', () => {
    expect(tapListText({ enabled: ['a/b\u001b[2Jc'], disabled: [], missing: [] })).not.toContain('\u001b');
  });
});

describe('viz allow-scrapes', () => {
  it('renders the Server, two HTTPRoutes and two AuthorizationPolicies for the namespace, without a final newline', async () => {
    const r = await runCli(['viz', 'allow-scrapes', '-n', 'emojivoto']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(refs(r.stdout)).toEqual([
      'Server/emojivoto/proxy-admin',
      'HTTPRoute/emojivoto/proxy-metrics',
      'HTTPRoute/emojivoto/proxy-probes',
      'AuthorizationPolicy/emojivoto/prometheus-scrape',
      'AuthorizationPolicy/emojivoto/proxy-probes',
    ]);
    expect(r.stdout.endsWith('\n')).toBe(false);
    const scrape = (yaml.loadAll(r.stdout) as any[])[3];
    expect(scrape.spec.requiredAuthenticationRefs).toEqual([{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'linkerd-viz' }]);
    expect(scrape.metadata.annotations).toEqual({ 'linkerd-io/created-by': 'linkerd-viz edge-26.9.1' });
  });

  it('requires --namespace, and -o json is one object a line', async () => {
    const r = await runCli(['viz', 'allow-scrapes']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: required flag(s) "namespace" not set\nRun \'linkerd viz allow-scrapes --help\' for usage.\n']);
    const json = await runCli(['viz', 'allow-scrapes', '-n', 'x', '-o', 'json']);
    expect(
      json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as Doc).kind),
    ).toEqual(['Server', 'HTTPRoute', 'HTTPRoute', 'AuthorizationPolicy', 'AuthorizationPolicy']);
  });
});
