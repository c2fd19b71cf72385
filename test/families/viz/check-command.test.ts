import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startApiServer, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { closedPort, versionServer } from '../../core/check/support/run.js';
import { edit } from '../../core/check/support/clusters.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { createWebhookCert, generateEcdsaP256Key } from '../../../src/core/pki/index.js';
import { allowScrapesObjects } from '../../../src/families/viz/allowScrapes.js';
import { clusterWithViz } from './cluster.js';
import { startMetricsApiServer, type MetricsApiServer } from './metricsApiServer.js';
import { clientVersion } from '../../../src/core/version.js';

const CLI_VERSION = clientVersion({});

let noVersionCheck: string;
let metrics: MetricsApiServer;
const servers: ApiServer[] = [];

const SELF_CHECK_OK = {
  results: [
    { SubsystemName: 'linkerd-api', CheckDescription: 'can query the Kubernetes API', Status: 0, FriendlyMessageToUser: '' },
    { SubsystemName: 'linkerd-api', CheckDescription: 'can query Prometheus', Status: 0, FriendlyMessageToUser: '' },
  ],
};

/** An API server whose pods' port 8085 is the loopback metrics API. */
async function serve(objects: StoredObject[]): Promise<ApiServer> {
  const s = await startApiServer({ objects, portForward: (_ns, _pod, port) => (port === 8085 ? { host: '127.0.0.1', port: metrics.port } : undefined) });
  servers.push(s);
  return s;
}

function linkerd(args: string[], versionCheck = noVersionCheck): Promise<CliResult> {
  return runCli(args, { env: { HOME: '/nonexistent', LINKERD_VERSIONCHECK_URL: versionCheck } });
}

beforeAll(async () => {
  metrics = await startMetricsApiServer();
  noVersionCheck = `http://127.0.0.1:${await closedPort()}/version.json`;
});
afterAll(async () => {
  for (const s of servers.splice(0)) await s.stop();
  await metrics.stop();
});
beforeEach(() => {
  metrics.on('SelfCheck', () => SELF_CHECK_OK);
  metrics.on('ListPods', () => ({
    pods: [{ name: 'emojivoto/web-1', status: 'Running', added: true, controllerNamespace: 'linkerd', owner: { case: undefined } }],
  }));
});

const HEALTHY = `linkerd-viz
-----------
√ linkerd-viz Namespace exists
√ can initialize the client
√ linkerd-viz ClusterRoles exist
√ linkerd-viz ClusterRoleBindings exist
√ tap API server has valid cert
√ tap API server cert is valid for at least 60 days
√ tap API service is running
√ linkerd-viz pods are injected
√ viz extension pods are running
√ viz extension proxies are healthy
√ viz extension proxies are up-to-date
√ viz extension proxies and cli versions match
√ prometheus is installed and configured correctly
√ viz extension self-check
`;

describe('linkerd viz check (loopback API server)', () => {
  it('passes on a healthy viz install (the objects of the chart render), exit 0', async () => {
    const s = await serve(await clusterWithViz());
    const latest = await versionServer({ edge: 'edge-26.9.1', stable: 'stable-2.14.10' });
    const r = await linkerd(['viz', 'check', '--kubeconfig', s.kubeconfigPath], latest.url);
    await latest.stop();
    // viz asks versioncheck itself, as install `unknown` (not the control plane's uid).
    expect(latest.requests).toEqual([`/version.json?version=${CLI_VERSION}&uuid=unknown&source=cli`]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${HEALTHY}\nStatus check results are √\n`);
    expect(r.code).toBe(0);
    const proxy = await linkerd(['viz', 'check', '--proxy', '--kubeconfig', s.kubeconfigPath]);
    expect(proxy.stdout).toContain(
      'linkerd-viz-data-plane\n----------------------\n√ data plane namespace exists\n√ prometheus is authorized to scrape data plane pods\n√ data plane proxy metrics are present in Prometheus\n',
    );
    expect(proxy.code).toBe(0);
  });

  it('without viz, fails its first check in the real words', async () => {
    const s = await serve(await clusterWithViz({ viz: () => [] }));
    const r = await linkerd(['viz', 'check', '-o', 'json', '--kubeconfig', s.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      success: false,
      categories: [
        {
          categoryName: 'linkerd-viz',
          checks: [
            {
              description: 'linkerd-viz Namespace exists',
              result: 'error',
              error: 'namespace with label "linkerd.io/extension: viz" not found',
              hint: 'https://linkerd.io/2/checks/#l5d-viz-ns-exists',
            },
          ],
        },
      ],
    });
  });

  it('a missing tap APIService fails the fatal cert check and stops the rest', async () => {
    const s = await serve(await clusterWithViz({ viz: (o) => o.filter((x) => x.kind !== 'APIService') }));
    const r = await linkerd(['viz', 'check', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '× tap API server has valid cert\n    apiservices.apiregistration.k8s.io "v1alpha1.tap.linkerd.io" not found\n    see https://linkerd.io/2/checks/#l5d-tap-cert-valid for hints\n',
    );
    expect(r.stdout).not.toContain('tap API service is running');
  });

  it('an APIService that is not Available warns with its reason and message', async () => {
    const s = await serve(
      await clusterWithViz({
        viz: (o) =>
          edit(o, 'APIService', 'v1alpha1.tap.linkerd.io', (x) => ({
            ...x,
            status: {
              conditions: [
                { type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'failing or missing response from https://10.0.0.1:8089' },
              ],
            },
          })),
      }),
    );
    const r = await linkerd(['viz', 'check', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain(
      '‼ tap API service is running\n    FailedDiscoveryCheck: failing or missing response from https://10.0.0.1:8089\n    see https://linkerd.io/2/checks/#l5d-tap-api for hints\n',
    );
    // A warning does not fail the run.
    expect(r.code).toBe(0);
  });

  it('an unready viz pod is reported by name', async () => {
    const s = await serve(
      await clusterWithViz({
        viz: (o) => {
          const web = o.find((x) => x.kind === 'Pod' && x.metadata.name.startsWith('web-'))!;
          return edit(o, 'Pod', web.metadata.name, (p) => {
            const status = p.status as { containerStatuses: Array<{ name: string; ready: boolean }> };
            for (const c of status.containerStatuses) if (c.name === 'linkerd-proxy') c.ready = false;
            return p;
          });
        },
      }),
    );
    const r = await linkerd(['viz', 'check', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toMatch(/‼ viz extension pods are running\n {4}container "linkerd-proxy" in pod "web-[a-z0-9]+-abcd0" is not ready\n/);
  });

  it('a tap certificate the APIService does not vouch for fails the cert check', async () => {
    const now = new Date();
    const other = await createWebhookCert({
      dnsName: 'tap.linkerd-viz.svc',
      notBefore: now,
      notAfter: new Date(now.getTime() + 86_400_000 * 365),
      keys: await generateEcdsaP256Key(),
    });
    const s = await serve(
      await clusterWithViz({
        viz: (o) =>
          edit(o, 'Secret', 'tap-k8s-tls', (x) => ({
            ...x,
            data: { 'tls.crt': Buffer.from(other.certPem).toString('base64'), 'tls.key': Buffer.from(other.keyPem).toString('base64') },
          })),
      }),
    );
    const r = await linkerd(['viz', 'check', '--kubeconfig', s.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/× tap API server has valid cert\n {4}cert is not issued by the trust anchor: /);
  });

  it('--proxy warns of default-deny pods Prometheus may not scrape, until allow-scrapes policy is there', async () => {
    const denying: StoredObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'vote-1', namespace: 'emojivoto', labels: { 'linkerd.io/control-plane-ns': 'linkerd' } },
      spec: { containers: [{ name: 'linkerd-proxy', image: 'proxy', env: [{ name: 'LINKERD2_PROXY_INBOUND_DEFAULT_POLICY', value: 'deny' }] }] },
    };
    const emojivoto: StoredObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'emojivoto' } };
    const s = await serve([...(await clusterWithViz()), emojivoto, denying]);
    const r = await linkerd(['viz', 'check', '--proxy', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain(
      '‼ prometheus is authorized to scrape data plane pods\n    prometheus may not be authorized to scrape the following pods:\n\t* emojivoto/vote-1\n    consider running `linkerd viz allow-scrapes` to authorize prometheus scrapes\n',
    );
    s.put(...allowScrapesObjects('emojivoto'));
    const allowed = await linkerd(['viz', 'check', '--proxy', '-n', 'emojivoto', '--kubeconfig', s.kubeconfigPath]);
    expect(allowed.stdout).toContain('√ data plane namespace exists\n√ prometheus is authorized to scrape data plane pods\n');
    const missing = await linkerd(['viz', 'check', '--proxy', '-n', 'nowhere', '--kubeconfig', s.kubeconfigPath]);
    expect(missing.stdout).toContain('× data plane namespace exists\n    The "nowhere" namespace does not exist\n');
  });

  it('with an external Prometheus, does not check the on-cluster one', async () => {
    const external = (o: StoredObject[]) =>
      edit(
        o.filter((x) => !(x.metadata.name.startsWith('prometheus') || x.metadata.name === 'linkerd-linkerd-viz-prometheus')),
        'Namespace',
        'linkerd-viz',
        (ns) => ({ ...ns, metadata: { ...ns.metadata, annotations: { 'viz.linkerd.io/external-prometheus': 'http://prom.example:9090' } } }),
      );
    const s = await serve(await clusterWithViz({ viz: external }));
    const r = await linkerd(['viz', 'check', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).not.toContain('prometheus is installed and configured correctly');
    expect(r.code).toBe(0);
    const inCluster = await serve(await clusterWithViz({ viz: (o) => o.filter((x) => x.metadata.name !== 'prometheus-config') }));
    expect((await linkerd(['viz', 'check', '--kubeconfig', inCluster.kubeconfigPath])).stdout).toContain(
      '‼ prometheus is installed and configured correctly\n    missing ConfigMaps: prometheus-config\n',
    );
  });

  it('the self-check asks the metrics API (SelfCheck over the port-forward) and reports its failed results', async () => {
    const s = await serve(await clusterWithViz());
    metrics.on('SelfCheck', () => ({
      results: [
        { SubsystemName: 'linkerd-api', CheckDescription: 'can query the Kubernetes API', Status: 0, FriendlyMessageToUser: '' },
        {
          SubsystemName: 'linkerd-api',
          CheckDescription: 'can query Prometheus',
          Status: 2,
          FriendlyMessageToUser: 'Error calling Prometheus from the control plane: boom',
        },
        { SubsystemName: 'linkerd-api', CheckDescription: 'x', Status: 1, FriendlyMessageToUser: 'Error calling the Kubernetes API: denied' },
      ],
    }));
    const r = await linkerd(['viz', 'check', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain(
      '× viz extension self-check\n    Error calling Prometheus from the control plane: boom\n    Error calling the Kubernetes API: denied\n    see https://linkerd.io/2/checks/#l5d-viz-metrics-api for hints\n',
    );
    expect(r.code).toBe(1);
    expect(s.requests.some((q) => q.path === '/api/v1/namespaces/linkerd-viz/pods/metrics-api-5f7c9d8b0-abcd0/portforward')).toBe(true);
    metrics.on('SelfCheck', () => ({ results: [] }));
    const empty = await linkerd(['viz', 'check', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(empty.stdout).toContain('× viz extension self-check\n    No results returned\n');
  });

  it('with --api-addr, the self-check dials the metrics API directly', async () => {
    const s = await serve(await clusterWithViz());
    s.setPortForward(undefined);
    const r = await linkerd(['viz', 'check', '--wait', '0s', '--api-addr', metrics.address, '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain('√ viz extension self-check\n');
    expect(s.requests.some((q) => q.path.endsWith('/portforward'))).toBe(false);
  });

  it('--proxy -n lists pods of the namespace through ListPods and names those Prometheus has no metrics for', async () => {
    const s = await serve(await clusterWithViz());
    metrics.on('ListPods', () => ({
      pods: [
        { name: 'emojivoto/web-1', status: 'Running', added: false, controllerNamespace: 'linkerd', owner: { case: undefined } },
        { name: 'emojivoto/vote-1', status: 'Running', added: false, controllerNamespace: 'linkerd', owner: { case: undefined } },
        { name: 'emojivoto/other-1', status: 'Running', added: false, controllerNamespace: 'other-cp', owner: { case: undefined } },
        { name: 'emojivoto/emoji-1', status: 'Running', added: true, controllerNamespace: 'linkerd', owner: { case: undefined } },
      ],
    }));
    s.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'emojivoto' } });
    const before = metrics.calls.length;
    const r = await linkerd(['viz', 'check', '--proxy', '-n', 'emojivoto', '--wait', '0s', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain(
      '‼ data plane proxy metrics are present in Prometheus\n    Data plane metrics not found for emojivoto/web-1, emojivoto/vote-1.\n    see https://linkerd.io/2/checks/#l5d-data-plane-prom for hints\n',
    );
    expect(r.code).toBe(0);
    const listPods = metrics.calls.slice(before).find((c) => c.method === 'ListPods');
    expect(listPods?.request).toMatchObject({ selector: { resource: { namespace: 'emojivoto' } } });
  });

  it('an unreachable versioncheck warns on the proxies up-to-date check with the fetch error (viz has no latest-version check)', async () => {
    const s = await serve(await clusterWithViz());
    const r = await linkerd(['viz', 'check', '--kubeconfig', s.kubeconfigPath]);
    const port = new URL(noVersionCheck).port;
    expect(r.stdout).toContain(
      `√ viz extension proxies are healthy\n‼ viz extension proxies are up-to-date\n    Get "http://127.0.0.1:${port}/version.json?version=${CLI_VERSION}&uuid=unknown&source=cli": dial tcp 127.0.0.1:${port}: connect: connection refused\n    see https://linkerd.io/2/checks/#l5d-viz-proxy-cp-version for hints\n√ viz extension proxies and cli versions match\n`,
    );
    expect(r.code).toBe(0);
    const json = JSON.parse((await linkerd(['viz', 'check', '-o', 'json', '--kubeconfig', s.kubeconfigPath])).stdout) as {
      categories: Array<{ checks: Array<{ description: string; result: string }> }>;
    };
    expect(json.categories[0]?.checks.find((c) => c.description === 'viz extension proxies are up-to-date')?.result).toBe('warning');
  });

  it('a kubeconfig that cannot make a client ends the run before any check, in the real words', async () => {
    for (const output of ['table', 'json']) {
      const r = await linkerd(['viz', 'check', '-o', output, '--kubeconfig', '/nonexistent']);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error initializing k8s API client: stat /nonexistent: no such file or directory\n']);
    }
  });

  it('refuses an unknown output format in the real words', async () => {
    const r = await linkerd(['viz', 'check', '-o', 'wide']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe("Error: validation error when executing check command: Invalid output type 'wide'. Supported output types are: json, table, short\n");
  });
});

/** The viz pods' proxies at `version` (viz installed by an older release than this CLI). */
const vizProxiesAt = (version: string) => (objects: StoredObject[]) =>
  objects.map((o) => {
    if (o.kind !== 'Pod') return o;
    const pod = JSON.parse(JSON.stringify(o)) as StoredObject & { spec: { containers: Array<{ name: string; image?: string }> } };
    for (const c of pod.spec.containers) if (c.name === 'linkerd-proxy') c.image = `cr.l5d.io/linkerd/proxy:${version}`;
    return pod;
  });

describe('viz older than the CLI', () => {
  it('viz check and linkerd check warn on both version checks; --fail-on warning makes that exit 1', async () => {
    const s = await serve(await clusterWithViz({ viz: vizProxiesAt('edge-26.8.1') }));
    const latest = await versionServer({ edge: CLI_VERSION, stable: 'stable-2.14.10' });
    onTestFinished(() => latest.stop());
    const warnings = [
      '‼ viz extension proxies are up-to-date',
      '    some proxies are not running the current version:',
      ...['metrics-api-5f7c9d8b0', 'prometheus-5f7c9d8b1', 'tap-5f7c9d8b2', 'tap-injector-5f7c9d8b3', 'web-5f7c9d8b4'].map(
        (p) => `\t* ${p}-abcd0 (edge-26.8.1)`,
      ),
      '    see https://linkerd.io/2/checks/#l5d-viz-proxy-cp-version for hints',
      '‼ viz extension proxies and cli versions match',
      `    metrics-api-5f7c9d8b0-abcd0 running edge-26.8.1 but cli running ${CLI_VERSION}`,
      '    see https://linkerd.io/2/checks/#l5d-viz-proxy-cli-version for hints',
      '√ prometheus is installed and configured correctly',
    ].join('\n');
    const viz = await linkerd(['viz', 'check', '--kubeconfig', s.kubeconfigPath], latest.url);
    expect(viz.stdout).toContain(`√ viz extension proxies are healthy\n${warnings}\n`);
    expect(viz.stdout.endsWith('\nStatus check results are √\n')).toBe(true);
    expect(viz.code).toBe(0);
    const core = await linkerd(['check', '--kubeconfig', s.kubeconfigPath], latest.url);
    expect(core.stdout).toContain(`Linkerd extensions checks\n=========================\n\nlinkerd-viz\n-----------\n`);
    expect(core.stdout).toContain(`√ viz extension proxies are healthy\n${warnings}\n`);
    expect(core.stdout).toContain('√ control plane proxies are up-to-date\n√ control plane proxies and cli versions match\n');
    expect(core.code).toBe(0);
    const failOn = await linkerd(['check', '--fail-on', 'warning', '--kubeconfig', s.kubeconfigPath], latest.url);
    expect(failOn.stdout).toContain(warnings);
    expect(failOn.stdout.endsWith('\nStatus check results are ×\n')).toBe(true);
    expect(failOn.code).toBe(1);
  });

  it('linkerd check -o junit: the viz category is its own testsuite, the warnings failures of type warning', async () => {
    const s = await serve(await clusterWithViz({ viz: vizProxiesAt('edge-26.8.1') }));
    const latest = await versionServer({ edge: CLI_VERSION, stable: 'stable-2.14.10' });
    onTestFinished(() => latest.stop());
    const suite = (xml: string) => /\n {2}<testsuite name="linkerd-viz"[^]*?<\/testsuite>\n/.exec(xml.replace(/time="[0-9.]+"/g, 'time="T"'))?.[0];
    const pods = ['metrics-api-5f7c9d8b0', 'prometheus-5f7c9d8b1', 'tap-5f7c9d8b2', 'tap-injector-5f7c9d8b3', 'web-5f7c9d8b4'].map(
      (p) => `\t* ${p}-abcd0 (edge-26.8.1)`,
    );
    const outdated = ['some proxies are not running the current version:', ...pods, 'see https://linkerd.io/2/checks/#l5d-viz-proxy-cp-version for hints'].join(
      '\n',
    );
    const mismatch = `metrics-api-5f7c9d8b0-abcd0 running edge-26.8.1 but cli running ${CLI_VERSION}\nsee https://linkerd.io/2/checks/#l5d-viz-proxy-cli-version for hints`;
    const plain = await linkerd(['check', '-o', 'junit', '--kubeconfig', s.kubeconfigPath], latest.url);
    expect(plain.code).toBe(0);
    const viz = suite(plain.stdout);
    expect(viz).toContain('\n  <testsuite name="linkerd-viz" tests="14" failures="0" errors="0" skipped="0" time="T">\n');
    expect(viz).toContain(
      `<testcase classname="linkerd-check.linkerd-viz" name="L5D5011 viz extension proxies are up-to-date" time="T"><system-out>warning: ${outdated}</system-out></testcase>\n`,
    );
    expect(viz).toContain(
      `<testcase classname="linkerd-check.linkerd-viz" name="L5D5012 viz extension proxies and cli versions match" time="T"><system-out>warning: ${mismatch}</system-out></testcase>\n`,
    );
    const failOn = await linkerd(['check', '-o', 'junit', '--fail-on', 'warning', '--kubeconfig', s.kubeconfigPath], latest.url);
    expect(failOn.code).toBe(1);
    const failing = suite(failOn.stdout);
    expect(failing).toContain('\n  <testsuite name="linkerd-viz" tests="14" failures="2" errors="0" skipped="0" time="T">\n');
    expect(failing).toContain(
      `<testcase classname="linkerd-check.linkerd-viz" name="L5D5011 viz extension proxies are up-to-date" time="T"><failure type="warning" message="some proxies are not running the current version:">${outdated}</failure></testcase>\n`,
    );
    expect(failing).toContain(
      `<testcase classname="linkerd-check.linkerd-viz" name="L5D5012 viz extension proxies and cli versions match" time="T"><failure type="warning" message="metrics-api-5f7c9d8b0-abcd0 running edge-26.8.1 but cli running ${CLI_VERSION}">${mismatch}</failure></testcase>\n`,
    );
    expect(failing).toContain('<testcase classname="linkerd-check.linkerd-viz" name="L5D5014 viz extension self-check" time="T"/>\n  </testsuite>\n');
  });
});

describe('linkerd check with viz installed', () => {
  it('runs the viz categories in-process, in the one report, with their ids', async () => {
    const s = await serve(await clusterWithViz());
    const r = await linkerd(['check', '--expected-version', 'edge-26.9.1', '--kubeconfig', s.kubeconfigPath]);
    expect(r.stdout).toContain(`Linkerd extensions checks\n=========================\n\n${HEALTHY}`);
    expect(r.code).toBe(0);
    const json = JSON.parse((await linkerd(['check', '-o', 'json', '--only', 'linkerd-viz', '--kubeconfig', s.kubeconfigPath])).stdout) as {
      categories: Array<{ categoryName: string; checks: Array<{ id?: string }> }>;
    };
    const viz = json.categories.find((c) => c.categoryName === 'linkerd-viz');
    s.resetRequests();
    const direct = await linkerd([
      'check',
      '--expected-version',
      'edge-26.9.1',
      '--only',
      'linkerd-viz',
      '--api-addr',
      metrics.address,
      '--kubeconfig',
      s.kubeconfigPath,
    ]);
    expect(direct.stdout).toContain('√ viz extension self-check\n');
    expect(s.requests.some((q) => q.path.endsWith('/portforward'))).toBe(false);
    expect(viz?.checks.map((c) => c.id).slice(0, 3)).toEqual(['L5D5001', 'L5D5002', 'L5D5003']);
  });
});
