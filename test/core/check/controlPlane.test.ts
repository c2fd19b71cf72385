import { describe, expect, it } from 'vitest';
import { GATEWAY_API_CRD_NAMES, LINKERD_CRD_EXPECTATIONS } from '../../../templates/crds/index.js';
import type { StoredObject } from '../../support/apiserver-store.js';
import { edit, healthyCluster, without } from './support/clusters.js';
import { jsonCheck, render } from './support/render.js';
import { virtualTime } from '../../support/virtualTime.js';
import { checkAgainst, core, result, summary } from './support/run.js';

const HEALTHY_TABLE = `kubernetes-api
--------------
√ can initialize the client
√ can query the Kubernetes API

kubernetes-version
------------------
√ is running the minimum Kubernetes API version

gateway-api-crd
---------------
√ Gateway API CRDs are installed

linkerd-existence
-----------------
√ 'linkerd-config' config map exists
√ heartbeat ServiceAccount exist
√ control plane replica sets are ready
√ no unschedulable pods
√ control plane pods are ready
√ cluster networks contains all node podCIDRs
√ cluster networks contains all pods
√ cluster networks contains all services

linkerd-config
--------------
√ control plane Namespace exists
√ control plane ClusterRoles exist
√ control plane ClusterRoleBindings exist
√ control plane ServiceAccounts exist
√ control plane CustomResourceDefinitions exist
√ control plane MutatingWebhookConfigurations exist
√ control plane ValidatingWebhookConfigurations exist
√ proxy-init container runs as root user if docker container runtime is used

linkerd-identity
----------------
√ certificate config is valid
√ trust anchors are using supported crypto algorithm
√ trust anchors are within their validity period
√ trust anchors are valid for at least 60 days
√ issuer cert is using supported crypto algorithm
√ issuer cert is within its validity period
√ issuer cert is valid for at least 60 days
√ issuer cert is issued by the trust anchor

linkerd-webhooks-and-apisvc-tls
-------------------------------
√ proxy-injector webhook has valid cert
√ proxy-injector cert is valid for at least 60 days
√ sp-validator webhook has valid cert
√ sp-validator cert is valid for at least 60 days
√ policy-validator webhook has valid cert
√ policy-validator cert is valid for at least 60 days

linkerd-version
---------------
√ can determine the latest version
√ cli is up-to-date

control-plane-version
---------------------
√ can retrieve the control plane version
√ control plane is up-to-date
√ control plane and cli versions match

linkerd-control-plane-proxy
---------------------------
√ control plane proxies are healthy
√ control plane proxies are up-to-date
√ control plane proxies and cli versions match

linkerd-extension-checks
------------------------
√ namespace configuration for extensions

Status check results are √
`;

const HINTS = 'https://linkerd.io/2/checks/#';

describe('linkerd check on a healthy install', () => {
  it('passes every check, in the real order, with the real layout', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const { report } = await checkAgainst(cluster.objects);
    const out = render(report);
    expect(out.table).toBe(HEALTHY_TABLE);
    expect(out.short).toBe('Status check results are √\n');
    expect(out.exitCode).toBe(0);
    const doc = JSON.parse(out.json);
    expect(doc.success).toBe(true);
    expect(doc.categories[0]).toEqual({
      categoryName: 'kubernetes-api',
      checks: [
        { description: 'can initialize the client', result: 'success', id: 'L5D1001', severity: 'fatal', durationMs: expect.any(Number) },
        { description: 'can query the Kubernetes API', result: 'success', id: 'L5D1002', severity: 'fatal', durationMs: expect.any(Number) },
      ],
    });
    expect(out.junit).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="linkerd check" tests="43" failures="0" errors="0" skipped="0" time="[\d.]+">/,
    );
    expect(out.junit).toContain('<testcase classname="linkerd-check.kubernetes-api" name="L5D1001 can initialize the client" time=');
  });

  it('reads each resource type once, however many checks look at it', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const { server } = await checkAgainst(cluster.objects, { mode: 'proxy' });
    const reads = server.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    expect(new Set(reads).size).toBe(reads.length);
    expect(reads).toContain('/api/v1/pods');
    expect(reads.filter((p) => p.includes('/pods/'))).toEqual([]);
  });
});

describe('CustomResourceDefinitions', () => {
  const missing = LINKERD_CRD_EXPECTATIONS[0].name;

  it('check --crds fails fatally on a missing Linkerd CRD, after retrying until --wait', async () => {
    const cluster = await healthyCluster();
    const objects = without(cluster.objects, 'CustomResourceDefinition', missing);
    const { report } = await checkAgainst(objects, { mode: 'crds', waitMs: 500, retryIntervalMs: 50 });
    const r = result(report, 'L5D1401');
    expect(r).toMatchObject({ status: 'error', error: `missing ${missing}`, hint: `${HINTS}l5d-existence-crd`, stoppedRun: true });
    expect(r.retries).toBeGreaterThan(0);
    const out = render(report);
    expect(out.table).toContain(
      `linkerd-crd\n-----------\n× control plane CustomResourceDefinitions exist\n    missing ${missing}\n    see ${HINTS}l5d-existence-crd for hints\n\nStatus check results are ×\n`,
    );
    expect(out.short).toBe(
      `linkerd-crd\n-----------\n× control plane CustomResourceDefinitions exist\n    missing ${missing}\n    see ${HINTS}l5d-existence-crd for hints\n\nStatus check results are ×\n`,
    );
    expect(jsonCheck(out.json, 'control plane CustomResourceDefinitions exist')).toMatchObject({
      hint: `${HINTS}l5d-existence-crd`,
      error: `missing ${missing}`,
      result: 'error',
      id: 'L5D1401',
      severity: 'fatal',
    });
    expect(JSON.parse(out.json).success).toBe(false);
    expect(out.junit).toContain(`<failure type="fatal" message="missing ${missing}">missing ${missing}\nsee ${HINTS}l5d-existence-crd for hints</failure>`);
    // linkerd-version comes after linkerd-crd: it never ran.
    expect(out.junit).toContain('name="L5D2101 can determine the latest version" time="0.000"><skipped message="not run: an earlier fatal check failed"/>');
    expect(out.exitCode).toBe(1);
  });

  it('names a CRD that lacks the version this release needs', async () => {
    const cluster = await healthyCluster();
    const want = LINKERD_CRD_EXPECTATIONS.find((c) => c.name === 'servers.policy.linkerd.io')!;
    const objects = edit(cluster.objects, 'CustomResourceDefinition', want.name, (crd) => {
      const spec = crd.spec as { versions: Array<{ name: string }> };
      spec.versions = spec.versions.filter((v) => v.name !== want.lastVersion);
      return crd;
    });
    const { report } = await checkAgainst(objects, { mode: 'crds' });
    expect(result(report, 'L5D1401').error).toBe(`CRD ${want.name} is missing version ${want.lastVersion}`);
  });

  it('default check stops at linkerd-config when a CRD is missing', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(without(cluster.objects, 'CustomResourceDefinition', missing));
    expect(summary(report).slice(-1)).toEqual([`L5D1605 error: missing ${missing}`]);
    expect(report.notRun.map((c) => c.id)).toContain('L5D1801');
  });
});

describe('Gateway API CRDs', () => {
  it('are fatal when absent, in every mode', async () => {
    const cluster = await healthyCluster({ withoutGatewayApi: true });
    for (const mode of ['default', 'crds', 'proxy'] as const) {
      const { report } = await checkAgainst(cluster.objects, { mode });
      const last = report.results[report.results.length - 1];
      expect(last).toMatchObject({ id: 'L5D1201', status: 'error', stoppedRun: true, hint: `${HINTS}gateway-api-crd` });
      expect(last.error).toContain(
        'The Gateway API CRDs must be installed prior to installing Linkerd. Run:\n    kubectl apply --server-side -f https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.1.1/standard-install.yaml',
      );
    }
  });

  it('must serve v1 when installed by someone else', async () => {
    const cluster = await healthyCluster({ withoutGatewayApi: true, scenarios: ['gateway-api-external.yaml'] });
    const { report } = await checkAgainst(cluster.objects, { mode: 'crds' });
    expect(result(report, 'L5D1201').error).toBe(
      'the httproutes.gateway.networking.k8s.io CRD is missing the v1 version, please upgrade to Gateway API v1.1.1 or later',
    );
  });

  it('pass when installed by someone else at v1', async () => {
    const cluster = await healthyCluster();
    let objects = cluster.objects;
    for (const name of GATEWAY_API_CRD_NAMES) {
      objects = edit(objects, 'CustomResourceDefinition', name, (crd) => {
        delete (crd.metadata as { annotations?: object }).annotations;
        return crd;
      });
    }
    const { report } = await checkAgainst(objects, { mode: 'crds' });
    expect(result(report, 'L5D1201').status).toBe('success');
  });
});

describe('Kubernetes version', () => {
  it('is an error (not fatal) below the minimum', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, { mode: 'crds' }, { version: 'v1.29.4' });
    const r = result(report, 'L5D1101');
    expect(r).toMatchObject({
      status: 'error',
      error: 'Kubernetes is on version [1.29.4], but version [1.31.0] or more recent is required',
      hint: `${HINTS}k8s-version`,
    });
    expect(result(report, 'L5D1401').status).toBe('success');
    expect(render(report).exitCode).toBe(1);
  });
});

describe('control plane pods', () => {
  const destinationPod = (objects: StoredObject[]) =>
    objects.find((o) => o.kind === 'Pod' && o.metadata.name.startsWith('linkerd-destination-'))!.metadata.name;

  it('wait for a container that is not ready yet, then fail with the container named', async () => {
    const cluster = await healthyCluster();
    const name = destinationPod(cluster.objects);
    const objects = edit(cluster.objects, 'Pod', name, (p) => {
      const status = p.status as { containerStatuses: Array<{ name: string; ready: boolean }> };
      status.containerStatuses[0].ready = false;
      return p;
    });
    const { report } = await checkAgainst(objects, { waitMs: 500, retryIntervalMs: 50 });
    const r = result(report, 'L5D1505');
    expect(r).toMatchObject({ status: 'error', error: `pod/${name} container destination is not ready`, stoppedRun: true });
    expect(r.retries).toBeGreaterThan(0);
  });

  it('fail at once when they cannot be scheduled, without waiting for --wait', async () => {
    const cluster = await healthyCluster();
    const name = destinationPod(cluster.objects);
    const objects = edit(cluster.objects, 'Pod', name, (p) => ({
      ...p,
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available: 1 Insufficient memory.' }],
      },
    }));
    const time = virtualTime();
    const { report } = await checkAgainst(objects, { waitMs: 60_000, clock: time.clock, sleep: time.sleep });
    expect(time.elapsed()).toBeLessThan(60_000);
    expect(result(report, 'L5D1504')).toMatchObject({ status: 'warning', error: `${name}: 0/1 nodes are available: 1 Insufficient memory.`, retries: 0 });
    expect(result(report, 'L5D1505')).toMatchObject({
      status: 'error',
      error: `No running pods for "linkerd-destination": pod/${name} is unschedulable: 0/1 nodes are available: 1 Insufficient memory.`,
      retries: 0,
    });
    const out = render(report);
    expect(out.table).toContain(
      `‼ no unschedulable pods\n    ${name}: 0/1 nodes are available: 1 Insufficient memory.\n    see ${HINTS}l5d-existence-unschedulable-pods for hints\n`,
    );
  });

  it('fail at once when a container is crash-looping', async () => {
    const cluster = await healthyCluster();
    const name = destinationPod(cluster.objects);
    const objects = edit(cluster.objects, 'Pod', name, (p) => {
      const status = p.status as { containerStatuses: Array<Record<string, unknown>> };
      status.containerStatuses[0] = {
        name: 'destination',
        ready: false,
        restartCount: 12,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
      };
      return p;
    });
    const { report } = await checkAgainst(objects, { waitMs: 60_000 });
    expect(result(report, 'L5D1505')).toMatchObject({
      error: `pod/${name} container destination is not ready: pod/${name} container destination is crash-looping (CrashLoopBackOff, 12 restarts): back-off 5m0s`,
      retries: 0,
    });
  });

  it('report replica sets that cannot create pods', async () => {
    const cluster = await healthyCluster();
    const rs = cluster.objects.find((o) => o.kind === 'ReplicaSet' && o.metadata.name.startsWith('linkerd-identity-'))!.metadata.name;
    const objects = edit(cluster.objects, 'ReplicaSet', rs, (r) => {
      (r.status as Record<string, unknown>).conditions = [
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "linkerd-identity-x" is forbidden: exceeded quota' },
      ];
      return r;
    });
    const { report } = await checkAgainst(objects);
    expect(result(report, 'L5D1503').error).toBe('FailedCreate: pods "linkerd-identity-x" is forbidden: exceeded quota');
  });
});

describe('control plane configuration', () => {
  it('names missing cluster roles', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(without(cluster.objects, 'ClusterRole', 'linkerd-linkerd-identity'));
    expect(summary(report).slice(-1)).toEqual(['L5D1602 error: missing ClusterRoles: linkerd-linkerd-identity']);
  });

  it("stops at 'linkerd-config' when Linkerd is not installed", async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(
      cluster.objects.filter((o) => o.metadata.namespace !== 'linkerd' && !(o.kind === 'Namespace' && o.metadata.name === 'linkerd')),
    );
    expect(summary(report).slice(-1)).toEqual(['L5D1501 error: configmaps "linkerd-config" not found']);
  });

  it('reports pods outside clusterNetworks', async () => {
    const cluster = await healthyCluster({ values: (v) => (v.clusterNetworks = '10.0.0.0/16') });
    const { report } = await checkAgainst(cluster.objects);
    expect(result(report, 'L5D1506').error).toBe(
      'node has podCIDR(s) [10.244.0.0/24] which are not contained in the Linkerd clusterNetworks.\n\tTry installing linkerd via --set clusterNetworks="10.244.0.0/24"',
    );
    expect(result(report, 'L5D1507').error).toMatch(
      /^the Linkerd clusterNetworks \["10.0.0.0\/16"\] do not include pod linkerd\/linkerd-\S+ \(10.244.0.\d+\)$/,
    );
    expect(result(report, 'L5D1508').error).toBe('the Linkerd clusterNetworks ["10.0.0.0/16"] do not include svc default/kubernetes (10.96.0.1)');
  });
});

describe('high availability', () => {
  it('is skipped for non-HA installs and checked for HA ones', async () => {
    const plain = await healthyCluster();
    expect((await checkAgainst(plain.objects)).report.results.map((r) => r.id)).not.toContain('L5D2601');

    const ha = await healthyCluster({ ha: true });
    expect(result((await checkAgainst(ha.objects)).report, 'L5D2601').status).toBe('success');

    const degraded = edit(ha.objects, 'Deployment', 'linkerd-identity', (d) => {
      (d.status as Record<string, unknown>).availableReplicas = 1;
      return d;
    });
    expect(result((await checkAgainst(degraded)).report, 'L5D2601')).toMatchObject({
      status: 'warning',
      error: 'not enough replicas available for [linkerd-identity]',
    });
  });
});

describe('extension namespaces', () => {
  it('warn when two namespaces claim the same extension', async () => {
    const cluster = await healthyCluster();
    const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'linkerd.io/extension': 'viz' } } });
    const { report } = await checkAgainst([...cluster.objects, ns('linkerd-viz'), ns('viz-copy')]);
    expect(result(report, 'L5D2701')).toMatchObject({
      status: 'warning',
      error:
        'some extensions have invalid configuration\n\t* label "linkerd.io/extension=viz" is present on more than one namespace:\n\t\t* linkerd-viz\n\t\t* viz-copy',
    });
  });
});

describe('the CNI plugin', () => {
  const cniObjects = (ready: number) => [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd-cni' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-cni-config', namespace: 'linkerd-cni' }, data: {} },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'linkerd-cni', labels: { 'linkerd.io/cni-resource': 'true' } },
      rules: [],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'linkerd-cni', labels: { 'linkerd.io/cni-resource': 'true' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'linkerd-cni' },
      subjects: [],
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'linkerd-cni', namespace: 'linkerd-cni' } },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'linkerd-cni', namespace: 'linkerd-cni' },
      spec: {},
      status: { desiredNumberScheduled: 2, numberReady: ready },
    },
  ];

  it('is not checked (nor shown) when CNI is not enabled', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects);
    expect(report.results.some((r) => r.category === 'linkerd-cni-plugin')).toBe(false);
  });

  it('is checked when linkerd-config says CNI is enabled, waiting for the DaemonSet to be ready', async () => {
    const cluster = await healthyCluster({ values: (v) => (v.cniEnabled = true) });
    const missing = await checkAgainst(cluster.objects);
    expect(summary(missing.report).slice(-1)).toEqual(['L5D1701 error: configmaps "linkerd-cni-config" not found']);

    const ok = await checkAgainst([...cluster.objects, ...cniObjects(2)]);
    expect(ok.report.results.filter((r) => r.category === 'linkerd-cni-plugin').map((r) => `${r.id} ${r.status}`)).toEqual([
      'L5D1701 success',
      'L5D1702 success',
      'L5D1703 success',
      'L5D1704 success',
      'L5D1705 success',
      'L5D1706 success',
    ]);

    const partial = await checkAgainst([...cluster.objects, ...cniObjects(1)], { waitMs: 500, retryIntervalMs: 50 });
    const r = result(partial.report, 'L5D1706');
    expect(r).toMatchObject({ status: 'error', error: 'number ready: 1, number scheduled: 2', hint: `${HINTS}cni-plugin-ready` });
    expect(r.retries).toBeGreaterThan(0);
  });

  it('check --pre --linkerd-cni-enabled checks the plugin is already there', async () => {
    const cluster = await healthyCluster();
    const fresh = cluster.objects.filter((o) => o.metadata.namespace !== 'linkerd' && !o.metadata.name.startsWith('linkerd'));
    const { report } = await checkAgainst(fresh, { mode: 'pre', ...core({ cniEnabled: true, installObjects: async () => [] }) });
    expect(result(report, 'L5D1701')).toMatchObject({ status: 'error', error: 'configmaps "linkerd-cni-config" not found', stoppedRun: true });
  });
});
